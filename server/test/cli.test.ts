// The command line as a user runs it: real processes on the configured database (DATA_DIR or DATABASE_URL).
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind, startSandbox } from './support/sandbox.ts';
import { checkAgainstOpenApi } from './support/openapi-check.ts';
import { freePort } from './support/ports.ts';

const run = promisify(execFile);
const cli = join(import.meta.dirname, '..', 'src', 'cli.ts');
const tsx = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'tsx');

let env: NodeJS.ProcessEnv;
let dataDir: string;
/** Settings files the tests write, outside the data folder. */
let filesDir: string;
let cleanup: () => Promise<void> = async () => undefined;
/** The password `client password` gave shop-reset. */
let resetPassword = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  filesDir = mkdtempSync(join(tmpdir(), 'sandbox-cli-files-'));
  env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' };
  if (dbKind() === 'postgres') {
    // A database of its own, already migrated, that the CLI processes reach through DATABASE_URL.
    const sb = await startSandbox();
    env.DATABASE_URL = sb.databaseUrl;
    await sb.close();
  }
});
afterAll(async () => {
  await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(filesDir, { recursive: true, force: true });
});

const cliRun = (...args: string[]) => run(tsx, [cli, ...args], { env, encoding: 'utf8' });

const settingsFile = (name: string, content: unknown) => {
  const file = join(filesDir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};

/** The settings of shop-settings, made without a running sandbox; the start test reads them back over HTTP. */
const shopSettings = {
  orderTypes: [
    { code: 'webshop', name: 'Webshop orders' },
    { code: 'wholesale', name: 'Wholesale', allowPartialDelivery: true },
  ],
  languages: [
    { code: 'NL', name: 'Nederlands' },
    { code: 'FR', name: 'Frans' },
  ],
};

async function settingsOver(port: number, username: string, password: string) {
  const token = await fetch(`http://127.0.0.1:${port}/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  });
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const answer = await fetch(`http://127.0.0.1:${port}/sandbox/settings`, { headers: { authorization: `Bearer ${accessToken}` } });
  return ((await answer.json()) as { data: { attributes: Record<string, { code: string }[]> } }).data.attributes;
}

describe('npm run cli -- client', () => {
  it('creates a client on the configured database, prints its id in one line and nothing else, and lists it', {
    timeout: 120_000,
  }, async () => {
    const created = await cliRun('client', 'create', '--username', 'shop-one', '--password', 'a long password');
    expect(created.stdout).toMatch(/^Created client \d+ \(shop-one\)\.\n$/);
    const id = Number(/\d+/.exec(created.stdout)?.[0]);
    const listed = await cliRun('client', 'list');
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\tshop-one\\t`, 'm'));
  });

  it('refuses a username that exists and a short password, with a message and exit code 1', { timeout: 120_000 }, async () => {
    const duplicate = await cliRun('client', 'create', '--username', 'shop-one', '--password', 'another long one').catch((e) => e);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/already exists/);
    const short = await cliRun('client', 'create', '--username', 'shop-two', '--password', 'short').catch((e) => e);
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 8/);
  });

  it('gives a client a new random password, and refuses an unknown username', { timeout: 120_000 }, async () => {
    await cliRun('client', 'create', '--username', 'shop-reset', '--password', 'the first password');
    const reset = await cliRun('client', 'password', '--username', 'shop-reset');
    resetPassword = /password: (\S+)/.exec(reset.stdout)?.[1] ?? '';
    expect(resetPassword).toMatch(/^\S{12,}$/);
    const unknown = await cliRun('client', 'password', '--username', 'nobody-here').catch((e) => e);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No client has the username "nobody-here"/);
  });

  it('creates a client with --settings from a file: the attributes of PUT /sandbox/settings, or the whole document', {
    timeout: 120_000,
  }, async () => {
    const created = await cliRun(
      'client',
      'create',
      '--username',
      'shop-settings',
      '--password',
      'a long password',
      '--settings',
      settingsFile('shop.json', shopSettings),
    );
    expect(created.stdout).toMatch(/^Created client \d+ \(shop-settings\)\.\n$/);
    const document = settingsFile('document.json', {
      data: { type: 'sandboxSettings', attributes: { countries: [{ code: 'NL', name: 'Nederland' }] } },
    });
    await cliRun('client', 'create', '--username', 'shop-document', '--password', 'a long password', '--settings', document);
  });

  it('refuses settings with problems, naming the file and each problem, and creates no client', { timeout: 120_000 }, async () => {
    const file = settingsFile('wrong.json', {
      data: {
        attributes: {
          orderTypes: [
            { code: 'web', name: 'Web' },
            { code: 'WEB', name: 'Again' },
          ],
          languages: [],
        },
      },
    });
    // Each attempt names the same new client: none of them may create it.
    const createWith = (settings: string) =>
      cliRun('client', 'create', '--username', 'shop-wrong', '--password', 'a long password', '--settings', settings).catch((e) => e);
    const wrong = await createWith(file);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`The settings in ${file} are not valid, so no client was created`);
    expect(wrong.stderr).toContain('/data/attributes/languages: ');
    const duplicate = await createWith(
      settingsFile('duplicate.json', {
        orderTypes: [
          { code: 'web', name: 'Web' },
          { code: 'WEB', name: 'Again' },
        ],
      }),
    );
    expect(duplicate.stderr).toMatch(/\/orderTypes\/1\/code: Code "WEB" is in orderTypes twice/);
    const notJson = await createWith(settingsFile('broken.json', '{"orderTypes": ['));
    expect(notJson.stderr).toMatch(/broken\.json is not JSON/);
    const missing = await createWith(join(filesDir, 'absent.json'));
    expect(missing.stderr).toMatch(/Cannot read the settings file .*absent\.json/);
    expect((await cliRun('client', 'list')).stdout).not.toMatch(/\tshop-wrong\t/);
  });

  it('explains its usage for an unknown command', async () => {
    const wrong = await cliRun('frobnicate').catch((e) => e);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/Usage:/);
  });
});

describe('start', () => {
  it('listens on PORT, answers /status, and a client created by the CLI gets a token', { timeout: 120_000 }, async () => {
    // A port the system says is free: a random one could be another test's server's (EADDRINUSE, exit 1).
    const port = await freePort();
    const server = spawn(tsx, [cli, 'start'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    server.stderr.on('data', (chunk) => (errors += chunk));
    cleanup = async () => {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    };
    let output = '';
    await new Promise<void>((resolve, reject) => {
      server.stdout.on('data', (chunk) => {
        output += chunk;
        if (output.includes('Sandbox ready')) resolve();
      });
      server.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}${errors}`)));
    });
    // The CLI created a client above, so no demo client is made on this database; the output ends saying how to make credentials.
    expect(output).not.toContain('Created the demo API client');
    expect(output.trimEnd()).toMatch(/client password --username demo`\.$/);
    const status = await fetch(`http://127.0.0.1:${port}/status`);
    expect(await status.json()).toEqual({ messageCode: 'OK', message: 'Status is OK.', result: null });
    const token = await fetch(`http://127.0.0.1:${port}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', username: 'shop-one', password: 'a long password' }),
    });
    expect(token.status).toBe(200);
    const tokenStatus = async (username: string, password: string) => {
      const answer = await fetch(`http://127.0.0.1:${port}/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', username, password }),
      });
      checkAgainstOpenApi('POST', '/token', answer.status, answer.headers.get('content-type') ?? '', await answer.json());
      return answer.status;
    };
    expect(await tokenStatus('shop-reset', resetPassword)).toBe(200);
    expect(await tokenStatus('shop-reset', 'the first password')).toBe(400);
    // While the server runs, the CLI still creates clients (on the embedded database, through the running server).
    await cliRun('client', 'create', '--username', 'shop-while-running', '--password', 'a long password');
    expect(await tokenStatus('shop-while-running', 'a long password')).toBe(200);
    expect((await cliRun('client', 'list')).stdout).toMatch(/\tshop-while-running\t/);
    // Settings given to the CLI, with the sandbox stopped and through the running one.
    expect((await settingsOver(port, 'shop-settings', 'a long password')).orderTypes.map((t) => t.code)).toEqual(['webshop', 'wholesale']);
    await cliRun(
      'client',
      'create',
      '--username',
      'shop-running-settings',
      '--password',
      'a long password',
      '--settings',
      settingsFile('running.json', { data: { attributes: shopSettings } }),
    );
    const running = await settingsOver(port, 'shop-running-settings', 'a long password');
    expect(running.languages.map((l) => l.code)).toEqual(['NL', 'FR']);
    expect(running.mainShippingMethods[0].code).toBe('POSTNL_STANDARD');
    const refused = await cliRun(
      'client',
      'create',
      '--username',
      'shop-running-wrong',
      '--password',
      'a long password',
      '--settings',
      settingsFile('running-wrong.json', { languages: [] }),
    ).catch((e) => e);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('running-wrong.json are not valid, so no client was created');
    await cleanup();
    cleanup = async () => undefined;
  });
});
