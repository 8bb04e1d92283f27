// Spawning the sandbox as `npm start` runs it (the prebuilt server/dist/cli.mjs, see scripts/ensure-server-build.mjs)
// and waiting for its first answer.
import { spawn, type ChildProcess } from 'node:child_process';
import { repository } from './lib.ts';

export interface Sandbox {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** How the server is started: what `npm start` runs, the bundle alone, or the TypeScript sources through tsx. */
export const startCommands = {
  /** `npm start` itself: npm's own start-up, then scripts/start.mjs. */
  npm: ['npm', 'start', '--silent'],
  npmStart: ['node', 'scripts/start.mjs'],
  bundle: ['node', 'server/dist/cli.mjs', 'start'],
  sources: ['node', '--import', 'tsx', 'server/src/cli.ts', 'start'],
} as const;

export function spawnSandbox(env: Record<string, string>, command: readonly string[] = startCommands.bundle): Sandbox & { port: number } {
  const port = Number(env.PORT);
  const [program, ...args] = command;
  const child = spawn(program!, args, {
    cwd: repository,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    // Signal the whole group this call started (with tsx, a loader may start processes of its own).
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            /* gone */
          }
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          resolve();
        }
      }),
  };
}

/** Polls GET /status every 20 ms until it answers; returns the moment it did. Gives up after timeoutMs. */
export async function waitForAnswer(url: string, timeoutMs = 120_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const answer = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2000) });
      await answer.arrayBuffer();
      if (answer.status < 500) return performance.now();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
