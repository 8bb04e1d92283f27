// The client's own clock: GET /sandbox/clock reads it, POST /sandbox/clock/advance moves it, and no other client's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const readClock = async (client: TestClient) => {
  const answer = await sb.call('GET', '/sandbox/clock', { token: client.token });
  expect(answer.status, answer.raw).toBe(200);
  return answer.body.data as { type: string; id: number; attributes: { now: string; offsetSeconds: number } };
};

describe('GET /sandbox/clock', () => {
  it('answers 401 without a token', async () => {
    const answer = await sb.call('GET', '/sandbox/clock');
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
  });

  it("shows a new client's clock at real time, with no offset", async () => {
    const client = await sb.newClient();
    const before = Date.now();
    const clock = await readClock(client);
    expect(clock).toMatchObject({ type: 'clock', id: client.id, attributes: { offsetSeconds: 0 } });
    expect(Date.parse(clock.attributes.now)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(clock.attributes.now)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('shows the moved time after an advance, the same document the advance answered', async () => {
    const client = await sb.newClient();
    const advanced = await sb.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 2 * 86_400 } });
    expect(advanced.status, advanced.raw).toBe(200);
    const clock = await readClock(client);
    expect(clock.attributes.offsetSeconds).toBe(2 * 86_400);
    expect(Object.keys(clock)).toEqual(Object.keys(advanced.body.data));
    expect(Object.keys(clock.attributes)).toEqual(Object.keys(advanced.body.data.attributes));
    expect(Date.parse(clock.attributes.now) - Date.now()).toBeGreaterThan(2 * 86_400_000 - 60_000);
    expect(Date.parse(clock.attributes.now)).toBeGreaterThanOrEqual(Date.parse(advanced.body.data.attributes.now));
  });

  it("leaves another client's clock where it was", async () => {
    const mover = await sb.newClient();
    const other = await sb.newClient();
    await sb.call('POST', '/sandbox/clock/advance', { token: mover.token, body: { seconds: 3600 } });
    expect((await readClock(other)).attributes.offsetSeconds).toBe(0);
    expect((await readClock(mover)).attributes.offsetSeconds).toBe(3600);
  });
});
