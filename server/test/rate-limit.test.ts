// The hourly request limit on the products and stock-levels endpoints. On PostgreSQL two real server processes share one
// database and must enforce one limit together; on PGlite (one process by nature) the single-process limit is tested.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { limits } from '@shopapi/contract';
import { openDatabase } from '../src/db/index.ts';
import { createClient } from '../src/domain/clients/service.ts';
import { TEMPLATE_DATABASE } from './support/global-postgres.ts';
import { dbKind, startSandbox, type TestSandbox } from './support/sandbox.ts';
import { checkAgainstOpenApi } from './support/openapi-check.ts';

const repositoryRoot = resolve(import.meta.dirname, '..', '..');

function expectLimitHeaders(headers: Record<string, unknown>, limit: number, remaining: number) {
  expect(Number(headers['x-ratelimit-limit'])).toBe(limit);
  expect(Number(headers['x-ratelimit-remaining'])).toBe(remaining);
  const reset = Number(headers['x-ratelimit-reset']);
  expect(reset).toBeGreaterThan(0);
  expect(reset).toBeLessThanOrEqual(3600);
}

if (dbKind() === 'postgres') {
  describe('two server processes on one PostgreSQL database', () => {
    let servers: { url: string; process: ChildProcess }[] = [];
    let token: string;
    let databaseUrl: string;

    async function freePort(): Promise<number> {
      return new Promise((done, fail) => {
        const server = createServer();
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          server.close(() => done(port));
        });
        server.on('error', fail);
      });
    }

    /** `npx tsx server/src/cli.ts start`, as an operator would run it, resolved once it says it is ready. */
    async function startServer(): Promise<{ url: string; process: ChildProcess }> {
      const port = await freePort();
      const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT_PER_HOUR: '' };
      const child = spawn('npx', ['tsx', 'server/src/cli.ts', 'start'], { cwd: repositoryRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      await new Promise<void>((ready, fail) => {
        child.stdout!.on('data', (chunk) => {
          output += chunk;
          if (output.includes('Sandbox ready')) ready();
        });
        child.stderr!.on('data', (chunk) => { output += chunk; });
        child.once('exit', (code) => fail(new Error(`server exited with ${code}: ${output}`)));
      });
      return { url: `http://127.0.0.1:${port}`, process: child };
    }

    beforeAll(async () => {
      const adminUrl = inject('postgresUrl');
      const name = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
      await admin.end();
      databaseUrl = adminUrl.replace(/\/[^/]+$/, `/${name}`);
      const database = await openDatabase({ databaseUrl, poolSize: 1 });
      const password = randomBytes(12).toString('base64url');
      const client = await createClient(database.db, { username: `ratelimit_${name}`, password });
      await database.close();
      servers = await Promise.all([startServer(), startServer()]);
      const answer = await fetch(`${servers[0].url}/token`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', username: client.username, password }),
      });
      token = ((await answer.json()) as { access_token: string }).access_token;
    });

    afterAll(async () => {
      await Promise.all(servers.map((s) => new Promise<void>((done) => {
        s.process.once('exit', () => done());
        s.process.kill('SIGTERM');
      })));
    });

    async function get(server: { url: string }, path = '/v3/products') {
      const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' } });
      const body = await response.json();
      checkAgainstOpenApi('GET', path, response.status, response.headers.get('content-type') ?? '', body);
      return { status: response.status, headers: Object.fromEntries(response.headers), body };
    }

    it(`refuses the ${limits.rateLimitPerHour + 1}st request in the hour with 429, whichever process it reaches`, async () => {
      // Requests race each other on both processes: exactly the default limit succeed, because the count is one atomic upsert.
      const statuses: number[] = [];
      const total = limits.rateLimitPerHour + 10;
      for (let sent = 0; sent < total; sent += 20) {
        const batch = Array.from({ length: Math.min(20, total - sent) }, (_, i) => get(servers[(sent + i) % 2]));
        statuses.push(...(await Promise.all(batch)).map((a) => a.status));
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(limits.rateLimitPerHour);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
      for (const server of servers) {
        const refused = await get(server);
        expect(refused.status).toBe(429);
        expect(refused.body.errors[0]).toMatchObject({ code: '429', status: '429' });
        expectLimitHeaders(refused.headers, limits.rateLimitPerHour, 0);
        expect(Number(refused.headers['retry-after'])).toBe(Number(refused.headers['x-ratelimit-reset']));
      }
    });
  });
} else {
  describe('one server process', () => {
    let sb: TestSandbox;
    beforeAll(async () => { sb = await startSandbox({ rateLimitPerHour: 5 }); });
    afterAll(() => sb.close());

    it('counts each client\'s requests to the products endpoints and refuses the one after the limit with 429 and the rate-limit headers', async () => {
      const client = await sb.newClient();
      for (let i = 1; i <= 5; i++) {
        const answer = await sb.call('GET', '/v3/products', { token: client.token });
        expect(answer.status).toBe(200);
        expectLimitHeaders(answer.headers, 5, 5 - i);
      }
      const refused = await sb.call('GET', `/v3/products/1`, { token: client.token });
      expect(refused.status).toBe(429);
      expect(refused.body.errors).toEqual([expect.objectContaining({ code: '429', status: '429', title: 'Too Many Requests' })]);
      expectLimitHeaders(refused.headers, 5, 0);
      expect(Number(refused.headers['retry-after'])).toBe(Number(refused.headers['x-ratelimit-reset']));
      const post = await sb.call('POST', '/v3/products', { token: client.token, body: { data: { type: 'product', attributes: { sku: 'LIMITED', name: 'x' } } } });
      expect(post.status).toBe(429);
    });

    it('keeps separate counts per client, and for stock levels apart from products; other endpoints are not limited', async () => {
      const [a, b] = [await sb.newClient(), await sb.newClient()];
      for (let i = 0; i < 6; i++) await sb.call('GET', '/v3/products', { token: a.token });
      expect((await sb.call('GET', '/v3/products', { token: a.token })).status).toBe(429);
      expect((await sb.call('GET', '/v3/products', { token: b.token })).status).toBe(200);
      const stockLevels = await sb.call('GET', '/v3/stockLevels', { token: a.token });
      expect(stockLevels.status).toBe(200);
      expectLimitHeaders(stockLevels.headers, 5, 4);
      const orders = await sb.call('GET', '/v3/orders', { token: a.token });
      expect(orders.status).toBe(200);
      expect(orders.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('answers 401, not 429, to a request without a valid token: the limit counts authenticated clients', async () => {
      expect((await sb.call('GET', '/v3/products', { token: 'not-a-token' })).status).toBe(401);
    });
  });

  describe('the default limit', () => {
    let sb: TestSandbox;
    beforeAll(async () => { sb = await startSandbox(); });
    afterAll(() => sb.close());

    it(`is ${limits.rateLimitPerHour} requests per hour: the ${limits.rateLimitPerHour + 1}st is refused`, async () => {
      const client = await sb.newClient();
      for (let i = 1; i <= limits.rateLimitPerHour; i++) {
        const answer = await sb.call('GET', '/v3/products?page[size]=1', { token: client.token });
        if (answer.status !== 200) throw new Error(`request ${i} answered ${answer.status}`);
      }
      const refused = await sb.call('GET', '/v3/products?page[size]=1', { token: client.token });
      expect(refused.status).toBe(429);
      expectLimitHeaders(refused.headers, limits.rateLimitPerHour, 0);
    });
  });
}

