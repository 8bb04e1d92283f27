// A sandbox as a reader starts it, for the tests that run the documentation's shell examples (the guides, the README):
// a server process on its own data folder and port with its output kept, and bash scripts in which curl records the
// status of every call it makes.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const repository = path.resolve(import.meta.dirname, '..');
/** The sandbox's address in the documentation; the tests put their own sandbox's in its place. */
export const documentedAddress = 'http://127.0.0.1:8080';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something listens on the port, false after timeoutMs. */
export async function listening(port: number, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/**
 * Signals the process group a detached child leads (npx, tsx and node below it); already gone is fine. The group is
 * signalled even when its leader has exited: npx gone first left tsx and the sandbox running after a test run.
 */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // It exited meanwhile.
  }
}

function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function groupGone(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(child)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/**
 * Stops a sandbox's process group and only then removes its data folder. The folder removed during the server's
 * graceful shutdown left the server running after a test run; a group still there after 10 s is killed.
 */
export async function stopSandboxGroup(child: ChildProcess, dataDir: string): Promise<void> {
  killGroup(child);
  if (!(await groupGone(child, 10_000))) {
    killGroup(child, 'SIGKILL');
    await groupGone(child, 5_000);
  }
  rmSync(dataDir, { recursive: true, force: true });
}

export interface LiveSandbox {
  baseUrl: string;
  /** The environment of a reader's terminal beside this sandbox: the CLI reaches it through DATA_DIR's control socket. */
  env: NodeJS.ProcessEnv;
  /** What the sandbox printed so far. */
  output(): string;
  /** Runs `npm run cli -- ...args` against this sandbox; returns its output. */
  cli(...args: string[]): string;
  /** Stops the sandbox's processes, waits for them to exit, then removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts `server/src/cli.ts start` on a new embedded database, as `npm start` runs it, and waits for its first answer.
 * `settings`: environment variables of the sandbox (SANDBOX_STEP_SECONDS, ...).
 */
export async function startLiveSandbox(settings: Record<string, string> = {}): Promise<LiveSandbox> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'live-sandbox-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // DATABASE_URL empty: a developer's own PostgreSQL must not receive the documentation's orders.
  const env = { ...process.env, ...settings, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '' };
  let output = '';
  const server = spawn('npx', ['tsx', path.join(repository, 'server', 'src', 'cli.ts'), 'start'], {
    cwd: repository,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  server.stdout?.on('data', (chunk) => (output += chunk));
  server.stderr?.on('data', (chunk) => (output += chunk));
  const sandbox: LiveSandbox = {
    baseUrl,
    env,
    output: () => output,
    cli: (...args) => execFileSync('npm', ['run', '--silent', 'cli', '--', ...args], { cwd: repository, env, encoding: 'utf8' }),
    stop: () => stopSandboxGroup(server, dataDir),
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && server.exitCode === null) {
    const up = await fetch(`${baseUrl}/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return sandbox;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await sandbox.stop();
  throw new Error(`The sandbox did not start on ${baseUrl}:\n${output}`);
}

export interface CurlCall {
  status: number;
  method: string;
  url: string;
}

export interface ShellRun {
  /** Every curl call of the script, in order. */
  calls: CurlCall[];
  /** The body of the last curl answer. */
  body: string;
}

/**
 * Runs a script with bash -euo pipefail, as a reader would paste it, except that curl also notes each call's status,
 * method and URL (on stderr, into a file) and keeps the last body; its output still goes where the script sends it.
 */
export function runShell(script: string, opts: { env: NodeJS.ProcessEnv; cwd: string }): ShellRun {
  const work = mkdtempSync(path.join(tmpdir(), 'shell-run-'));
  try {
    const calls = path.join(work, 'calls');
    const body = path.join(work, 'body');
    writeFileSync(calls, '');
    writeFileSync(body, '');
    const wrapper = `curl() { command curl -sS -w '%{stderr}curl-call %{http_code} %{method} %{url_effective}\\n' "$@" 2>>'${calls}' | tee '${body}'; }\n`;
    execFileSync('bash', ['-euo', 'pipefail', '-c', wrapper + script], { env: opts.env, cwd: opts.cwd, stdio: 'pipe' });
    return {
      calls: readFileSync(calls, 'utf8')
        .split('\n')
        .flatMap((line) => {
          const [marker, status, method, url] = line.split(' ');
          return marker === 'curl-call' ? [{ status: Number(status), method, url }] : [];
        }),
      body: readFileSync(body, 'utf8'),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The fenced blocks of a Markdown text: language, meta (the rest of the opening line) and body. */
export function fencedBlocks(markdown: string): { language: string; meta: string; body: string }[] {
  return [...markdown.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)].map(([, language, meta, body]) => ({ language, meta, body }));
}
