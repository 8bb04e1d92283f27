// The reproductions of the hardening issue, as their users and attackers sent them: each gets the documented 400,
// writes nothing, and leaves the server answering. The generated suites (hostile-bodies, bad-input) hold the same
// rules for every operation; these keep the original requests readable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { schema } from '../../src/platform/db/index.ts';
import { startSandbox, type Answer, type TestClient, type TestSandbox } from '../support/sandbox.ts';
import { createProducts, dutchAddress, orderDocument, uniqueNumber } from '../support/fixtures.ts';
import { fingerprint } from '../support/fingerprint.ts';
import { v2Order } from '../support/v2.ts';

let sb: TestSandbox;
let client: TestClient;
const sku = 'HARD-SKU';

beforeAll(async () => {
  sb = await startSandbox({ rateLimitPerHour: 1_000_000 });
  client = await sb.newClient();
  await createProducts(sb, client.token, [sku]);
});
afterAll(() => sb.close());

const form = (url: string, body: string) =>
  sb.call('POST', url, { token: client.token, payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const json = (url: string, body: unknown) => sb.call('POST', url, { token: client.token, body });

async function expectAlive() {
  expect((await sb.call('GET', '/status')).status).toBe(200);
  // prom-client walked the polluted prototype and threw: the metrics must still render (not an API operation).
  expect((await sb.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  expect(({} as Record<string, unknown>).pwned).toBeUndefined();
}

describe('v2 form keys cannot reach Object.prototype', () => {
  it.each([
    '__proto__[pwned]=yes&ExternalOrderNumber=X',
    'ExternalOrderNumber.__proto__.pwned=yes',
    'ExternalOrderNumber[__proto__][pwned]=yes',
    'constructor[prototype][pwned]=yes&ExternalOrderNumber=X',
  ])('POST /order/search with %s', async (body) => {
    const answer = await form('/order/search', body);
    expect(answer.status).toBeLessThan(500);
    await expectAlive();
  });
});

describe('lists are bounded before they are built', () => {
  it('refuses Ids[2000000]=1 at once, with a short answer', async () => {
    const started = Date.now();
    const answer = await form('/v2/shipment/sync', 'Ids[2000000]=1');
    expect(answer.status).toBe(400);
    expect(answer.body.messageCode).toBe('NOK');
    expect(answer.raw.length).toBeLessThan(2_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    await expectAlive();
  });

  it.each(['/v2/shipment/sync', '/v2/stockmutation/sync'])(`refuses 70,000 ids to %s (at most ${limits.syncIdsMax})`, async (url) => {
    const ids = Array.from({ length: 70_000 }, (_, i) => i + 1);
    for (const body of [{ Ids: ids }, { Ids: ids.slice(0, limits.syncIdsMax + 1) }]) {
      const answer = await json(url, body);
      expect(answer.status).toBe(400);
      expect(answer.body.messageCode).toBe('NOK');
      expect(answer.raw).toMatch(`must NOT have more than ${limits.syncIdsMax} items`);
    }
    // As many as allowed pass validation: the answer is about the ids (none of them exist), not their number.
    const allowed = await json(url, { Ids: ids.slice(0, limits.syncIdsMax) });
    expect(allowed.status).toBeLessThan(500);
    expect(allowed.raw).not.toMatch('must NOT have more than');
  });

  it(`refuses orders with more than ${limits.orderItemsMax} items (v3 and v2), writing nothing`, async () => {
    const before = await fingerprint(sb.database.db);
    for (const count of [limits.orderItemsMax + 1, 8_000]) {
      const items = Array.from({ length: count }, () => ({ sku, quantity: 1 }));
      const v3 = await json('/v3/orders', orderDocument(client, { items }));
      expect(v3.status).toBe(400);
      expect(v3.body.errors[0].status).toBe('400');
      const v2 = await json(
        '/order/add',
        v2Order({ orderTypeId: client.orderTypeIds[0], languageId: client.languageIds[0], orderItems: items }),
      );
      expect(v2.status).toBe(400);
      expect(v2.body.messageCode).toBe('NOK');
    }
    expect(await fingerprint(sb.database.db)).toBe(before);
  });

  it("keeps the widest multi-row inserts within PostgreSQL's 65,535 bind parameters", () => {
    const widest = (table: Parameters<typeof getTableColumns>[0], rows: number) => Object.keys(getTableColumns(table)).length * rows;
    expect(widest(schema.orderItems, limits.orderItemsMax)).toBeLessThan(65_535);
    expect(widest(schema.shipmentItems, limits.orderItemsMax)).toBeLessThan(65_535);
    expect(widest(schema.inboundPackingSlipItems, limits.packingSlipItemsMax)).toBeLessThan(65_535);
  });

  it(`takes an order of exactly ${limits.orderItemsMax} items, reads it back and ships it`, async () => {
    const items = Array.from({ length: limits.orderItemsMax }, () => ({ sku, quantity: 1 }));
    const created = await json('/v3/orders', orderDocument(client, { items }));
    expect(created.status).toBe(201);
    const read = await sb.call('GET', `/v3/orders/${created.body.data.id}?include=orderItems`, { token: client.token });
    expect(read.body.included).toHaveLength(limits.orderItemsMax);
    const shipped = await sb.call('POST', `/sandbox/orders/${created.body.data.id}/ship`, { token: client.token });
    expect(shipped.status).toBeLessThan(300);
  });

  it(`lists at most ${limits.errorsMax} problems, the last saying how many more there were`, async () => {
    // Three broken fields in each of 300 items: a negative quantity, a one-character sku and a price that is text.
    const items = Array.from({ length: 300 }, () => ({ sku: 'x', quantity: -1, price: 'free' as unknown as number }));
    const v3 = await json('/v3/orders', orderDocument(client, { items }));
    expect(v3.status).toBe(400);
    expect(v3.body.errors).toHaveLength(limits.errorsMax);
    expect(v3.body.errors.at(-1).detail).toMatch(/^\d+ more problems were found/);
    const v2 = await json(
      '/order/add',
      v2Order({
        orderTypeId: client.orderTypeIds[0],
        languageId: client.languageIds[0],
        orderItems: items.map((i) => ({ ...i, quantity: 'many' })),
      }),
    );
    expect(v2.status).toBe(400);
    expect(v2.body.result).toHaveLength(limits.errorsMax);
    expect(v2.body.result.at(-1)).toMatch(/^\d+ more problems were found/);
  });
});

describe('text and numbers PostgreSQL cannot store are refused before the database', () => {
  it('refuses a lone surrogate in product, order and RMA metadata', async () => {
    const before = await fingerprint(sb.database.db);
    const product = await json('/v3/products', {
      data: { type: 'product', attributes: { sku: 'SURROGATE', name: 'x', metadata: { extra1: '\udfff' } } },
    });
    expect(product.status).toBe(400);
    expect(product.body.errors[0].source.pointer).toBe('/data/attributes/metadata/extra1');
    const order = await json(
      '/v3/orders',
      orderDocument(client, { items: [{ sku, quantity: 1 }], attributes: { metadata: { extra1: 'ok\udfff' } } }),
    );
    expect(order.status).toBe(400);
    const rma = await json('/rma/add', {
      shipmentId: 1,
      rmaItems: [{ shipmentItemId: 1, quantity: 1, returnReasonId: 1, metadata: { note: '\ud800' } }],
    });
    expect(rma.status).toBe(400);
    expect(rma.body.messageCode).toBe('NOK');
    expect(await fingerprint(sb.database.db)).toBe(before);
  });

  it('refuses a NUL character inside a member name', async () => {
    const answer = await sb.call('POST', '/v3/products', {
      token: client.token,
      payload: '{"data":{"type":"product","attributes":{"sku":"NULKEY","name":"x","metadata":{"ext\\u0000ra1":"y"}}}}',
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].detail).toMatch(/NUL/);
  });

  it('refuses a v2 CostPrice of 400 digits instead of storing 0', async () => {
    const huge = '9'.repeat(400);
    const asForm = await form('/product/add', `Sku=HUGE-1&Name=Huge&CostPrice=${huge}`);
    expect(asForm.status).toBe(400);
    expect(asForm.body.messageCode).toBe('NOK');
    const asJson = await sb.call('POST', '/product/add', {
      token: client.token,
      payload: `{"sku":"HUGE-2","name":"Huge","costPrice":${huge}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(asJson.status).toBe(400);
    for (const name of ['HUGE-1', 'HUGE-2']) expect((await json('/product/search', { sku: name })).body.messageCode).not.toBe('OK');
  });
});

describe('one answer stays bounded', () => {
  it(`ends a list page early rather than include more than ${limits.includedItemsMaxPerPage} items, and pages on to the rest`, async () => {
    const big = Math.floor(limits.includedItemsMaxPerPage * 0.4);
    const numbers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const externalOrderNumber = uniqueNumber('BIG');
      numbers.push(externalOrderNumber);
      const items = Array.from({ length: big }, () => ({ sku, quantity: 1 }));
      expect((await json('/v3/orders', orderDocument(client, { externalOrderNumber, items, delivery: dutchAddress }))).status).toBe(201);
    }
    const seen: number[] = [];
    let url: string | undefined = `/v3/orders?include=orderItems&filter[externalOrderNumber][in]=${numbers.join(',')}&page[size]=100`;
    let pages = 0;
    while (url && pages < 10) {
      const answer: Answer = await sb.call('GET', url, { token: client.token });
      expect(answer.status).toBe(200);
      expect(answer.body.included.length).toBeLessThanOrEqual(limits.includedItemsMaxPerPage);
      seen.push(...answer.body.data.map((o: { id: number }) => o.id));
      url = answer.body.links.next?.replace('http://sandbox.test', '');
      pages++;
    }
    // 4 orders of 400 items: two fit on a page.
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(new Set(seen).size).toBe(4);
    expect(seen).toHaveLength(4);
  });
});
