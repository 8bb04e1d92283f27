// The client's token flow against a listening sandbox: one POST /token for many requests, renewal before expiry, a
// revoked token replaced and the request sent once more with its body, and the errors of POST /token as TokenError.
import { createShopApiClient, TokenError, TokenSource } from '@shopapi/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeToken } from '../../server/src/modules/clients/tokens.ts';
import { startListeningSandbox, type TestClient, type TestSandbox } from '../../server/test/support/sandbox.ts';
import { countingFetch } from './support.ts';

/** Failed sign-ins one username may make from one address before POST /token answers 429. */
const failuresAllowed = 3;
/** The throttle's window: it counts failures in fixed windows, so attempts that straddle a window's end count anew. */
const throttleWindowSeconds = 900;

let sb: TestSandbox;
let baseUrl: string;
let account: TestClient;

beforeAll(async () => {
  ({ sb, baseUrl } = await startListeningSandbox({
    tokenFailuresPerUsernameAndAddress: failuresAllowed,
    tokenThrottleWindowSeconds: throttleWindowSeconds,
  }));
  account = await sb.newClient();
});
afterAll(() => sb?.close());

const credentials = () => ({ baseUrl, username: account.username, password: account.password });

describe('the token flow', () => {
  it('requests one token for many requests made at the same moment, and reuses it afterwards', async () => {
    const counts = new Map<string, number>();
    const api = createShopApiClient({ ...credentials(), fetch: countingFetch(counts) });
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.GET('/v3/products')));
    expect(answers.map((answer) => answer.response.status)).toEqual(Array(10).fill(200));
    await api.GET('/settings/get');
    expect(counts.get('POST /token')).toBe(1);
    expect(counts.get('GET /v3/products')).toBe(10);
  });

  it('renews the token a margin before it expires, not earlier', async () => {
    let now = Date.parse('2030-01-01T00:00:00Z');
    const counts = new Map<string, number>();
    const api = createShopApiClient({ ...credentials(), fetch: countingFetch(counts), refreshMarginSeconds: 60, now: () => now });
    await api.GET('/v3/products');
    const first = await api.tokens?.get();
    const renewAt = now + (sb.config.tokenLifetimeSeconds - 60) * 1000;

    now = renewAt - 1;
    await api.GET('/v3/products');
    expect(counts.get('POST /token')).toBe(1);
    expect(await api.tokens?.get()).toBe(first);

    now = renewAt;
    expect((await api.GET('/v3/products')).response.status).toBe(200);
    expect(counts.get('POST /token')).toBe(2);
    expect(await api.tokens?.get()).not.toBe(first);
  });

  it('drops a revoked token, fetches a new one and sends the request once more, body and all', async () => {
    const counts = new Map<string, number>();
    const api = createShopApiClient({ ...credentials(), fetch: countingFetch(counts) });
    const revoked = (await api.tokens?.get()) ?? '';
    expect(await revokeToken(sb.database.db, sb.services.tokenCache, revoked)).toBe(true);

    const sku = `REVOKED-${Date.now()}`;
    const { data, response } = await api.POST('/v3/products', {
      body: { data: { type: 'product', attributes: { sku, name: 'Sent twice' } } },
    });
    expect(response.status).toBe(201);
    expect(data?.data.attributes).toMatchObject({ sku, name: 'Sent twice' });
    expect(counts.get('POST /v3/products')).toBe(2);
    expect(counts.get('POST /token')).toBe(2);
    expect(await api.tokens?.get()).not.toBe(revoked);
  });

  it('answers a second 401 to the caller instead of retrying in a loop', async () => {
    const counts = new Map<string, number>();
    const refusing: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname === '/token') return fetch(request);
      return Response.json({ errors: [{ code: '401', title: 'Unauthorized', detail: 'No.' }] }, { status: 401 });
    };
    const api = createShopApiClient({ ...credentials(), fetch: countingFetch(counts, refusing) });
    const { error, response } = await api.GET('/v3/orders');
    expect(response.status).toBe(401);
    expect(error?.errors[0].code).toBe('401');
    expect(counts.get('GET /v3/orders')).toBe(2);
    expect(counts.get('POST /token')).toBe(2);
  });

  it('rejects wrong credentials with a TokenError carrying the status and the OAuth code', async () => {
    const api = createShopApiClient({ baseUrl, username: account.username, password: 'not-the-password' });
    const failure = await api.GET('/v3/orders').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TokenError);
    expect(failure).toMatchObject({
      status: 400,
      code: 'invalid_grant',
      message: expect.stringContaining('The user name or password is incorrect'),
    });
  });

  it('rejects a throttled sign-in with a TokenError of status 429 that says when to try again', async () => {
    const username = `throttled-${Date.now()}`;
    const tokens = new TokenSource({ baseUrl, username, password: 'wrong-password' });
    // Within one window: a run that began in the last seconds of one (it happened, at 03:45:00) waits for the next.
    const left = throttleWindowSeconds * 1000 - (Date.now() % (throttleWindowSeconds * 1000));
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    for (let attempt = 0; attempt < failuresAllowed; attempt++) await expect(tokens.get()).rejects.toMatchObject({ status: 400 });
    const throttled = await tokens.get().catch((error: unknown) => error);
    expect(throttled).toBeInstanceOf(TokenError);
    expect(throttled).toMatchObject({ status: 429, code: 'invalid_request', message: expect.stringMatching(/retry after \d+ s/) });
  });
});
