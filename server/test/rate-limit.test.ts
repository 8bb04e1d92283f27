// The hourly request limit on the products and stock-levels endpoints, in one server process.
// Two processes sharing one limit: rate-limit.postgres.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '@shopapi/contract';
import { startSandbox, type TestSandbox } from './support/sandbox.ts';
import { expectLimitHeaders, withinOneWindow } from './support/rate-limit.ts';

describe('one server process', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ rateLimitPerHour: 5 });
  });
  afterAll(() => sb.close());

  it("counts each client's requests to the products endpoints and refuses the one after the limit with 429 and the rate-limit headers", async () => {
    const client = await sb.newClient();
    await withinOneWindow();
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
    const post = await sb.call('POST', '/v3/products', {
      token: client.token,
      body: { data: { type: 'product', attributes: { sku: 'LIMITED', name: 'x' } } },
    });
    expect(post.status).toBe(429);
  });

  it('keeps separate counts per client, and for stock levels apart from products; other endpoints are not limited', async () => {
    const [a, b] = [await sb.newClient(), await sb.newClient()];
    await withinOneWindow();
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
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it(`is ${limits.rateLimitPerHour} requests per hour: the ${limits.rateLimitPerHour + 1}st is refused`, async () => {
    const client = await sb.newClient();
    await withinOneWindow();
    for (let i = 1; i <= limits.rateLimitPerHour; i++) {
      const answer = await sb.call('GET', '/v3/products?page[size]=1', { token: client.token });
      if (answer.status !== 200) throw new Error(`request ${i} answered ${answer.status}`);
    }
    const refused = await sb.call('GET', '/v3/products?page[size]=1', { token: client.token });
    expect(refused.status).toBe(429);
    expectLimitHeaders(refused.headers, limits.rateLimitPerHour, 0);
  });
});
