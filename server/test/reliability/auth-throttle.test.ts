// Brute-force protection of POST /token: failures are counted per username and address, per address and per username,
// before the password check; over a limit the answer is 429 with Retry-After, and the real user elsewhere still signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/modules/clients/service.ts';
import { throttleAddress } from '../../src/api/auth/token-throttle.ts';
import { dbKind, startSandbox, type Answer, type TestSandbox } from '../support/sandbox.ts';
import { demoCredentials, serverEnv, startServerProcess, type ServerEnv, type ServerProcess } from '../support/server-process.ts';
import { checkAgainstOpenApi } from '../support/openapi-check.ts';

const perPair = 10;
const perAddress = 30;
const perUsername = 50;
/**
 * The throttle counts in windows aligned to the clock (a multiple of their length since the epoch). A suite that ran
 * across the end of one saw its counts start again mid-test, so the window is the first of 15 minutes or longer, in
 * steps of a minute, whose end is at least 10 minutes away: longer than both databases' runs of this file.
 */
const windowSeconds = (() => {
  const now = Date.now() / 1000;
  let seconds = 900;
  while (seconds - (now % seconds) < 600) seconds += 60;
  return seconds;
})();

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox({
    tokenThrottleWindowSeconds: windowSeconds,
    tokenFailuresPerUsernameAndAddress: perPair,
    tokenFailuresPerAddress: perAddress,
    tokenFailuresPerUsername: perUsername,
  });
});
afterAll(() => sb.close());

let users = 0;
async function user() {
  const username = `throttled${++users}`;
  const password = `right-password-${users}`;
  await createClient(sb.database.db, { username, password });
  return { username, password };
}

const signIn = (username: string, password: string, remoteAddress: string) =>
  sb.call('POST', '/token', { form: { grant_type: 'password', username, password }, remoteAddress });

function expectThrottled(answer: Answer) {
  expect(answer.status, answer.raw).toBe(429);
  const retryAfter = Number(answer.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(answer.body).toEqual({
    error: 'invalid_request',
    error_description: `Too many failed attempts to sign in; try again in ${retryAfter} seconds.`,
  });
}

describe('POST /token under a password-guessing attack', () => {
  it(`answers 429 with Retry-After after ${perPair} wrong passwords for one username from one address, even to the right password`, async () => {
    const victim = await user();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 40; attempt++) {
      const answer = await signIn(victim.username, `guess-${attempt}`, '10.1.0.1');
      statuses.push(answer.status);
      if (attempt < perPair) expect(answer.body.error).toBe('invalid_grant');
      else expectThrottled(answer);
    }
    expect(statuses.filter((s) => s === 400)).toHaveLength(perPair);
    // The throttle answers before the password is checked: the right password from there is refused too.
    expectThrottled(await signIn(victim.username, victim.password, '10.1.0.1'));
    // The real user, from another address, still gets a token.
    expect((await signIn(victim.username, victim.password, '10.1.0.2')).status).toBe(200);
    // Another username from the attacking address is not locked by the first one's failures.
    const neighbour = await user();
    expect((await signIn(neighbour.username, 'wrong', '10.1.0.1')).body.error).toBe('invalid_grant');
    expect((await signIn(neighbour.username, neighbour.password, '10.1.0.1')).status).toBe(200);
  });

  it(`checks at most ${perPair} of 20 parallel wrong passwords; the others are refused without a check`, async () => {
    const victim = await user();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(victim.username, `parallel-${i}`, '10.2.0.1')));
    expect(answers.filter((a) => a.status === 400)).toHaveLength(perPair);
    for (const answer of answers.filter((a) => a.status !== 400)) expectThrottled(answer);
  });

  it(`limits one address to ${perAddress} failures whatever the usernames, and no other address`, async () => {
    for (let i = 0; i < perAddress / perPair; i++) {
      const victim = await user();
      for (let attempt = 0; attempt < perPair; attempt++) expect((await signIn(victim.username, 'wrong', '10.3.0.1')).status).toBe(400);
    }
    const next = await user();
    expectThrottled(await signIn(next.username, 'wrong', '10.3.0.1'));
    expectThrottled(await signIn(next.username, next.password, '10.3.0.1'));
    expect((await signIn(next.username, next.password, '10.3.0.2')).status).toBe(200);
  });

  it(`limits one username to ${perUsername} failures from all addresses together`, async () => {
    const victim = await user();
    for (let address = 1; address <= perUsername / perPair; address++) {
      for (let attempt = 0; attempt < perPair + 3; attempt++) await signIn(victim.username, 'wrong', `10.4.0.${address}`);
    }
    // Each address added only the failures that were checked (perPair): refused attempts count nowhere.
    expectThrottled(await signIn(victim.username, 'wrong', '10.4.1.1'));
    expectThrottled(await signIn(victim.username, victim.password, '10.4.1.1'));
    const other = await user();
    expect((await signIn(other.username, other.password, '10.4.1.1')).status).toBe(200);
  });

  it('never counts successes, and a success resets the failures of its username and address', async () => {
    const regular = await user();
    for (let i = 0; i < perAddress + 5; i++) expect((await signIn(regular.username, regular.password, '10.5.0.1')).status).toBe(200);
    const parallel = await Promise.all(Array.from({ length: 20 }, () => signIn(regular.username, regular.password, '10.5.0.1')));
    expect(parallel.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (let i = 0; i < perPair - 1; i++) expect((await signIn(regular.username, 'wrong', '10.5.0.1')).status).toBe(400);
    expect((await signIn(regular.username, regular.password, '10.5.0.1')).status).toBe(200);
    for (let i = 0; i < perPair; i++) expect((await signIn(regular.username, 'wrong', '10.5.0.1')).status).toBe(400);
    expectThrottled(await signIn(regular.username, 'wrong', '10.5.0.1'));
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 address', () => {
    expect(throttleAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(throttleAddress('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(throttleAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(throttleAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttleAddress('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(throttleAddress('192.0.2.7')).toBe('192.0.2.7');
  });
});

// Two real server processes on one PostgreSQL database refuse together: the counts live in the database.
// (PostgreSQL only: an embedded database has one process.)
if (dbKind() === 'postgres')
  describe('two server processes on one PostgreSQL database', () => {
    let env: ServerEnv;
    let servers: ServerProcess[] = [];
    beforeAll(async () => {
      env = await serverEnv({
        TOKEN_FAILURES_PER_USERNAME_AND_ADDRESS: String(perPair),
        TOKEN_THROTTLE_WINDOW_SECONDS: String(windowSeconds),
      });
      servers = await Promise.all([startServerProcess(env.env), startServerProcess(env.env)]);
    }, 120_000);
    afterAll(async () => {
      for (const server of servers) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      env?.cleanup();
    });

    async function post(server: ServerProcess, username: string, password: string) {
      const response = await fetch(`${server.url}/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', username, password }),
      });
      const body = await response.json();
      checkAgainstOpenApi('POST', '/token', response.status, response.headers.get('content-type') ?? '', body);
      return { status: response.status, retryAfter: response.headers.get('retry-after') };
    }

    it(`checks at most ${perPair} of 20 parallel wrong passwords sent to both processes`, async () => {
      const { username, password } = demoCredentials(servers.find((s) => /password: /.test(s.output())) ?? servers[0]);
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(servers[i % 2], username, `wrong-${i}`)));
      expect(answers.filter((a) => a.status === 400)).toHaveLength(perPair);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(20 - perPair);
      for (const server of servers) {
        const refused = await post(server, username, password);
        expect(refused.status).toBe(429);
        expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      }
    });
  });
