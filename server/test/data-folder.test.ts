// One process owns the embedded database's data folder (server/src/platform/): CLI commands go through the running
// sandbox, a second sandbox is refused, a kill -9 leaves no lock behind, and nothing acknowledged is lost. Real processes.
// With DATABASE_URL nothing of this applies: several processes on one PostgreSQL are a supported set-up.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataFolder } from '../src/platform/data-folder-lock.ts';
import { checkAgainstOpenApi } from './support/openapi-check.ts';
import { dbKind } from './support/sandbox.ts';
import { serverEnv, startServerProcess, type ServerProcess } from './support/server-process.ts';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'server', 'src', 'cli.ts');
const run = promisify(execFile);
const cliRun = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, env, encoding: 'utf8' });

const servers: ServerProcess[] = [];
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  for (const cleanup of cleanups) cleanup();
});

async function start(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  servers.push(server);
  return server;
}

async function post(url: string, path: string, form: Record<string, string>) {
  const answer = await fetch(`${url}${path}`, { method: 'POST', body: new URLSearchParams(form) });
  const body = await answer.json();
  checkAgainstOpenApi('POST', path, answer.status, answer.headers.get('content-type') ?? '', body);
  return { status: answer.status, body };
}

const tokenAnswer = (url: string, username: string, password: string) =>
  post(url, '/token', { grant_type: 'password', username, password });

/** The start-up output has been written in one piece by the time "Sandbox ready" shows; wait for its last line anyway. */
async function startupOutput(server: ServerProcess, lastLine: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50 && !lastLine.test(server.output()); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return server.output();
}

/** Whether a process is connected to the folder's control socket: Linux lists accepted connections with the socket's path. */
const connectedToControlSocket = (dataDir: string) =>
  readFileSync('/proc/net/unix', 'utf8')
    .split('\n')
    .some((line) => / 03 \d+ /.test(line) && line.endsWith(`${basename(dataDir)}/sandbox.sock`));

// Registered only where it applies, so neither database's run reports it as skipped.
if (dbKind() === 'pglite')
  describe('the data folder of the embedded database', () => {
    it('runs CLI commands through the running sandbox, refuses a second one, leaves no lock after kill -9 and loses nothing', {
      timeout: 240_000,
    }, async () => {
      const { env, cleanup } = await serverEnv();
      cleanups.push(cleanup);
      const first = await start(env);
      // The demo credentials made in this start are the last lines of the start-up output, after "Sandbox ready".
      const output = await startupOutput(first, /password: \S+\n$/);
      const demoPassword = /Sandbox ready[\s\S]*\n {2}username: demo\n {2}password: (\S+)\n$/.exec(output)?.[1];
      expect(demoPassword, output).toBeDefined();
      expect(existsSync(join(env.DATA_DIR!, 'sandbox.sock'))).toBe(true);

      const created = await cliRun(env, 'client', 'create', '--username', 'while-running', '--password', 'a long password');
      expect(created.stdout).toMatch(/^Created client \d+ \(while-running\)\.\n$/);
      const id = Number(/\d+/.exec(created.stdout)?.[0]);
      // The running sandbox made it on its own database: a token at once.
      const firstToken = await tokenAnswer(first.url, 'while-running', 'a long password');
      expect(firstToken.status, JSON.stringify(firstToken.body)).toBe(200);
      expect((await cliRun(env, 'client', 'list')).stdout).toMatch(new RegExp(`^${id}\\twhile-running\\t`, 'm'));
      // A refusal by the running sandbox comes back as the CLI's message and exit code.
      const taken = await cliRun(env, 'client', 'create', '--username', 'while-running', '--password', 'another long one').catch((e) => e);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toMatch(/already exists/);

      // A new demo password, set by the running sandbox: it works at once and the earlier token is revoked.
      const earlier = await tokenAnswer(first.url, 'demo', demoPassword!);
      expect(earlier.status).toBe(200);
      const reset = await cliRun(env, 'client', 'password', '--username', 'demo');
      const newPassword = /password: (\S+)/.exec(reset.stdout)?.[1];
      expect(newPassword).toBeDefined();
      expect(newPassword).not.toBe(demoPassword);
      expect((await tokenAnswer(first.url, 'demo', demoPassword!)).status).not.toBe(200);
      expect((await tokenAnswer(first.url, 'demo', newPassword!)).status).toBe(200);
      const revoked = await fetch(`${first.url}/v3/products`, {
        headers: { authorization: `Bearer ${earlier.body.access_token}`, accept: 'application/vnd.api+json' },
      });
      checkAgainstOpenApi('GET', '/v3/products', revoked.status, revoked.headers.get('content-type') ?? '', await revoked.json());
      expect(revoked.status).toBe(401);

      // A second sandbox on the folder gives up at once, naming the process that has it.
      const second = await startServerProcess(env).then(
        () => 'started',
        (error: Error) => error.message,
      );
      expect(second).toMatch(/server exited with 1/);
      expect(second).toContain(`in use by process ${first.child.pid} (a running sandbox)`);
      expect(second).toMatch(/DATA_DIR/);

      first.child.kill('SIGKILL');
      await first.exited;
      // The socket file of the killed process is still there; it does not stop the next start.
      expect(existsSync(join(env.DATA_DIR!, 'sandbox.sock'))).toBe(true);
      const third = await start(env);
      expect((await tokenAnswer(third.url, 'while-running', 'a long password')).status).toBe(200);
      expect((await tokenAnswer(third.url, 'demo', newPassword!)).status).toBe(200);
      // No credentials were made in this start: the output says how to make new ones instead.
      expect(await startupOutput(third, /client password --username demo`\.\n$/)).not.toContain('Created the demo API client');

      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
      expect(existsSync(join(env.DATA_DIR!, 'sandbox.sock'))).toBe(false);
      // Nobody holds the folder now: the CLI opens it itself.
      expect((await cliRun(env, 'client', 'list')).stdout).toMatch(/\twhile-running\t/);
    });

    it('gives the folder to exactly one of two sandboxes started at the same moment', { timeout: 120_000 }, async () => {
      const { env, cleanup } = await serverEnv();
      cleanups.push(cleanup);
      const outcomes = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
      const started = outcomes.filter((o): o is PromiseFulfilledResult<ServerProcess> => o.status === 'fulfilled').map((o) => o.value);
      servers.push(...started);
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => String(o.reason));
      expect(started).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toContain(`in use by process ${started[0].child.pid}`);
      started[0].child.kill('SIGTERM');
      expect(await started[0].exited).toBe(0);
    });

    it('refuses a sandbox while a CLI command holds the folder, and a CLI command waits for it', { timeout: 120_000 }, async () => {
      const { env, cleanup } = await serverEnv();
      cleanups.push(cleanup);
      // This test process takes the folder as a CLI command does.
      const lock = await lockDataFolder(env.DATA_DIR!, 'cli');
      let released = false;
      try {
        const refused = await startServerProcess(env).then(
          () => 'started',
          (error: Error) => error.message,
        );
        expect(refused).toContain(`in use by process ${process.pid} (an \`npm run cli\` command)`);
        const waiting = cliRun(env, 'client', 'create', '--username', 'after-the-wait', '--password', 'a long password').then(
          (result) => ({ released, stdout: result.stdout }),
          (error: Error) => ({ released, stdout: error.message }),
        );
        await new Promise((resolve) => setTimeout(resolve, 3000));
        released = true;
        await lock.release();
        const created = await waiting;
        expect(created.released).toBe(true);
        expect(created.stdout).toMatch(/Created client \d+ \(after-the-wait\)/);
      } finally {
        if (!released) await lock.release();
      }
    });

    it.runIf(process.platform === 'linux')(
      'holds a CLI command that comes while the sandbox opens its database until it can run it',
      { timeout: 120_000 },
      async () => {
        const { env, cleanup } = await serverEnv();
        cleanups.push(cleanup);
        // This test process holds the folder as a sandbox does before its database is open: it serves commands only later,
        // after longer than the holder's 10 s wait for a request, which must not cut a request that has arrived.
        const lock = await lockDataFolder(env.DATA_DIR!, 'server');
        try {
          const listed = cliRun(env, 'client', 'list').catch((error: Error) => ({ stdout: error.message }));
          for (let attempt = 0; attempt < 600 && !connectedToControlSocket(env.DATA_DIR!); attempt++)
            await new Promise((resolve) => setTimeout(resolve, 100));
          expect(connectedToControlSocket(env.DATA_DIR!)).toBe(true);
          await new Promise((resolve) => setTimeout(resolve, 11_000));
          lock.serve(async (request) =>
            request.command === 'client list' ? [{ id: 7, username: 'from-the-holder', createdAt: '2026-01-02T03:04:05.000Z' }] : [],
          );
          expect((await listed).stdout).toBe('7\tfrom-the-holder\t2026-01-02T03:04:05.000Z\n');
        } finally {
          await lock.release();
        }
      },
    );
  });

if (dbKind() === 'postgres')
  describe('with DATABASE_URL', () => {
    it('takes no lock: the CLI works on the database directly and a second sandbox on the same DATA_DIR starts', {
      timeout: 180_000,
    }, async () => {
      const { env, cleanup } = await serverEnv();
      cleanups.push(cleanup);
      const first = await start(env);
      const second = await start(env);
      expect(existsSync(join(env.DATA_DIR!, 'sandbox.sock'))).toBe(false);
      await cliRun(env, 'client', 'create', '--username', 'beside-two', '--password', 'a long password');
      expect((await tokenAnswer(first.url, 'beside-two', 'a long password')).status).toBe(200);
      expect((await tokenAnswer(second.url, 'beside-two', 'a long password')).status).toBe(200);
      for (const server of [first, second]) {
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }
    });
  });
