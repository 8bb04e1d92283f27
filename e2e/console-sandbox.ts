// What the console's browser test runs against: a live sandbox started as `npm start` starts it (its own data folder
// and port, the demo credentials it prints, its command line for more clients), and a webhook receiver on this machine.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, repository, stopSandboxGroup } from './live-sandbox.ts';

const cli = path.join(repository, 'server', 'src', 'cli.ts');

export interface LiveSandbox {
  url: string;
  /** The password `npm start` printed for the demo client it created. */
  demoPassword: string;
  /** Runs `npm run cli -- ...` against the running sandbox (through its socket) and returns what it printed. */
  cli(...args: string[]): string;
  /** Stops the sandbox's processes, waits for them to exit, then removes its data folder. */
  stop(): Promise<void>;
}

/** Builds the console when it is not built (the test scripts build it; a single run of this file may come first). */
export function ensureConsoleBuilt(): void {
  if (!existsSync(path.join(repository, 'console', 'dist', 'index.html'))) {
    execFileSync('npm', ['run', 'build', '-w', 'console'], { cwd: repository, stdio: 'pipe' });
  }
}

export async function startSandbox(settings: Record<string, string>): Promise<LiveSandbox> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'console-e2e-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ...settings,
  };
  // Its own process group, so that stopping it stops tsx's node child too.
  const sandbox = spawn('npx', ['tsx', cli, 'start'], { cwd: repository, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  sandbox.stdout?.on('data', (chunk) => (output += chunk));
  sandbox.stderr?.on('data', (chunk) => (output += chunk));
  const stop = () => stopSandboxGroup(sandbox, dataDir);
  const url = `http://127.0.0.1:${port}`;
  // A fresh sandbox migrates its database and stocks the demo products: on a busy machine that takes a minute or more.
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline && sandbox.exitCode === null) {
    const password = /username: demo\n\s+password: (\S+)/.exec(output)?.[1];
    const up = await fetch(`${url}/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (up && password) {
      return {
        url,
        demoPassword: password,
        cli: (...args) => execFileSync('npx', ['tsx', cli, ...args], { cwd: repository, env, encoding: 'utf8' }),
        stop,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`The sandbox did not start on ${url}:\n${output}`);
}

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An HTTP server on 127.0.0.1 that answers 200 to every POST and keeps what it received. */
export async function startWebhookReceiver(): Promise<{ url: string; received: ReceivedDelivery[]; close: () => Promise<void> }> {
  const received: ReceivedDelivery[] = [];
  const server = createHttpServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
