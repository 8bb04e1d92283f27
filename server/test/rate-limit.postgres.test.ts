// Two real server processes on one PostgreSQL database enforce one hourly limit together: the count lives in the
// database. (PostgreSQL only: an embedded database has one process; rate-limit.test.ts covers the single process.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '@shopapi/contract';
import { serverEnv, startServerProcess, tokenFor, type ServerEnv, type ServerProcess } from './support/server-process.ts';
import { checkAgainstOpenApi } from './support/openapi-check.ts';
import { expectLimitHeaders, withinOneWindow } from './support/rate-limit.ts';

let env: ServerEnv;
let servers: ServerProcess[] = [];
let token: string;

beforeAll(async () => {
  env = await serverEnv({ RATE_LIMIT_PER_HOUR: '' });
  // Started together on an empty database: one of them creates the demo client, the other goes on.
  servers = await Promise.all([startServerProcess(env.env), startServerProcess(env.env)]);
  const password = servers.map((s) => /password: (\S+)/.exec(s.output())?.[1]).find(Boolean);
  expect(password, 'one process printed the demo credentials').toBeDefined();
  token = await tokenFor(servers[0].url, { username: 'demo', password: password! });
}, 120_000);

afterAll(async () => {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  env?.cleanup();
});

async function get(server: ServerProcess, path = '/v3/products') {
  const response = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' },
  });
  const body = await response.json();
  checkAgainstOpenApi('GET', path, response.status, response.headers.get('content-type') ?? '', body);
  return { status: response.status, headers: Object.fromEntries(response.headers), body };
}

describe('two server processes on one PostgreSQL database', () => {
  it(`refuses the ${limits.rateLimitPerHour + 1}st request in the hour with 429, whichever process it reaches`, async () => {
    // Requests race each other on both processes: exactly the default limit succeed, because the count is one atomic upsert.
    const statuses: number[] = [];
    const total = limits.rateLimitPerHour + 10;
    await withinOneWindow();
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
