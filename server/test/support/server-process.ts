// The sandbox as `npm start` runs it, as real processes: one node process each running the prebuilt bundle
// server/dist/cli.mjs (built by the global setup global-server-build.ts), so signals reach the server itself, on a
// database of its own (a fresh PostgreSQL database, or a fresh DATA_DIR on PGlite).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dbKind, startSandbox } from './sandbox.ts';
import { freePort } from './ports.ts';

const root = join(import.meta.dirname, '..', '..', '..');

export interface ServerEnv {
  env: NodeJS.ProcessEnv;
  /** Removes the data folder (PGlite); the PostgreSQL database goes with the test cluster. */
  cleanup(): void;
}

/** Environment for server processes on a fresh, migrated database. */
export async function serverEnv(extra: NodeJS.ProcessEnv = {}): Promise<ServerEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-process-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...extra,
  };
  if (dbKind() === 'postgres') {
    const fresh = await startSandbox();
    env.DATABASE_URL = fresh.databaseUrl;
    await fresh.close();
  }
  return { env, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export async function startServerProcess(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'server', 'dist', 'cli.mjs'), 'start'], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = () => output.includes('Sandbox ready') && resolve();
    child.stdout!.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** Client credentials for a process's database: the demo client `npm start` created and printed. */
export function demoCredentials(server: ServerProcess): { username: string; password: string } {
  const password = /password: (\S+)/.exec(server.output())?.[1];
  if (!password) throw new Error(`no demo credentials in the output: ${server.output()}`);
  return { username: 'demo', password };
}

export async function tokenFor(url: string, credentials: { username: string; password: string }): Promise<string> {
  const answer = await fetch(`${url}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'password', ...credentials }) });
  if (answer.status !== 200) throw new Error(`token request failed: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}
