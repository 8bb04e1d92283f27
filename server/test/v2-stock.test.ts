import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { orderDocument, uniqueNumber } from './support/fixtures.ts';
import { bodyStyles, sendV2 } from './support/v2.ts';

let sb: TestSandbox;
let client: TestClient;
let other: TestClient;
const ids: Record<string, number> = {};

const get = (url: string, token = client.token) => sb.call('GET', url, { token });
const post = (url: string, body: unknown, token = client.token) => sb.call('POST', url, { token, body });

async function purchaseOrder(items: { sku: string; quantity: number }[], token = client.token) {
  const answer = await post(
    '/purchaseorder/add',
    { reference: uniqueNumber('PO'), comment: 'Remark', warehouseId: 1, purchaseOrderItems: items },
    token,
  );
  if (answer.body.messageCode !== 'OK') throw new Error(answer.raw);
  return answer.body.result as number;
}
const receive = (id: number, items?: { sku: string; quantity: number }[], token = client.token) =>
  sb.call('POST', `/sandbox/inboundPackingSlips/${id}/receive`, { token, body: items ? { items } : undefined });

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  other = await sb.newClient();
  for (const product of [
    { sku: 'V2S-A', name: 'Available stock' },
    { sku: 'V2S-E', name: 'Economic stock', useEconomicStock: true },
    { sku: 'V2S-L', name: 'Lots', hasLotNumber: true },
    { sku: 'V2S-N', name: 'Never stocked' },
  ])
    ids[product.sku] = (await post('/product/add', product)).body.result;
  await post('/product/add', { sku: 'V2S-A', name: "Another client's" }, other.token);
  ids.po = await purchaseOrder([
    { sku: 'V2S-A', quantity: 20 },
    { sku: 'V2S-E', quantity: 10 },
    { sku: 'V2S-L', quantity: 3 },
  ]);
  await receive(ids.po, [
    { sku: 'V2S-A', quantity: 12 },
    { sku: 'V2S-E', quantity: 4 },
    { sku: 'V2S-L', quantity: 3 },
  ]);
  // 3 units of A ordered; 2 of A on a location excluded from fulfilment.
  await post('/v3/orders', orderDocument(client, { items: [{ sku: 'V2S-A', quantity: 3 }] }));
  const [row] = await sb.database.db
    .select()
    .from(schema.stock)
    .where(and(eq(schema.stock.clientId, client.id), eq(schema.stock.sku, 'V2S-A')));
  await sb.database.db
    .update(schema.stock)
    .set({ quantity: row.quantity - 2 })
    .where(eq(schema.stock.id, row.id));
  await sb.database.db
    .insert(schema.stock)
    .values({ ...row, id: undefined, quantity: 2, locationType: 'RETURN', locationCode: 'NR-RET-1' } as never);
  await receive(await purchaseOrder([{ sku: 'V2S-A', quantity: 1 }], other.token), undefined, other.token);
});
afterAll(() => sb.close());

/** The v3 levels of a product summed over its warehouses. */
async function v3Totals(productId: number) {
  const levels: Record<string, number>[] = (await get(`/v3/stockLevels/${productId}`)).body.data.attributes.levels;
  const sum = (key: string) => levels.reduce((total, level) => total + level[key], 0);
  return {
    physical: sum('physical'),
    expected: sum('expected'),
    outbound: sum('outbound'),
    stock: sum('stock'),
    unavailable: sum('unavailable'),
    free: sum('free'),
    economic: sum('economic'),
    available: sum('available'),
  };
}

describe('GET /v2/stock/get/{sku}', () => {
  it('answers every stock figure, equal to the v3 stock levels of the same product', async () => {
    const answer = await get('/v2/stock/get/V2S-A');
    expect(answer.status).toBe(200);
    const v3 = await v3Totals(ids['V2S-A']);
    expect(answer.body).toEqual({
      messageCode: 'OK',
      message: 'Request processed successfully.',
      result: {
        name: 'Available stock',
        sku: 'V2S-A',
        productId: ids['V2S-A'],
        useEconomicStock: false,
        physicalStock: v3.physical,
        expectedStock: v3.expected,
        orderedStock: v3.stock - v3.free,
        unavailableStock: v3.unavailable,
        freeStock: v3.free,
        economicStock: v3.economic,
        availableStock: v3.available,
        thts: [],
      },
    });
    // 12 received, 3 ordered, 8 still expected, 2 on a RETURN location: available is free minus those 2.
    expect(answer.body.result).toMatchObject({
      physicalStock: 12,
      expectedStock: 8,
      orderedStock: 3,
      freeStock: 9,
      economicStock: 17,
      availableStock: 7,
    });
  });

  it('lists lots and best-before dates, and zeroes for a product never stocked', async () => {
    const lots = (await get('/v2/stock/get/V2S-L')).body.result;
    expect(lots.thts).toEqual([{ quantity: 3, tht: null, lotNumber: expect.stringMatching(/^LOT-/) }]);
    expect((await get('/v2/stock/get/V2S-N')).body.result).toMatchObject({ physicalStock: 0, freeStock: 0, availableStock: 0, thts: [] });
  });
});

describe('GET /stock/get/{sku}', () => {
  it('answers one integer: available stock, or economic stock for a product that uses it', async () => {
    expect((await get('/stock/get/V2S-A')).body).toEqual({ messageCode: 'OK', message: 'Request processed successfully.', result: 7 });
    expect((await get('/stock/get/V2S-E')).body.result).toBe((await v3Totals(ids['V2S-E'])).economic);
    expect((await get('/stock/get/V2S-E')).body.result).toBe(10);
  });
});

describe("unknown and another client's skus", () => {
  it('answer the same 200 NOK on both stock calls, never a 404', async () => {
    for (const url of ['/stock/get/NOPE', '/v2/stock/get/NOPE', '/stock/get/V2S-E', '/v2/stock/get/V2S-L']) {
      const answer = await get(url, other.token);
      expect(answer.status, url).toBe(200);
      expect(answer.body, url).toEqual({ messageCode: 'NOK', message: 'Product not found.', result: null });
    }
    expect((await get('/v2/stock/get/V2S-A', other.token)).body.result).toMatchObject({ productId: expect.any(Number), physicalStock: 1 });
  });
});

describe('GET /stock/bulk/{all}', () => {
  it('true: every product; false: those with a mutation in the past day; anything else: NOK', async () => {
    const all = await get('/stock/bulk/true');
    expect(all.body.result.map((s: any) => s.sku)).toEqual(['V2S-A', 'V2S-E', 'V2S-L', 'V2S-N']);
    expect(all.body.result[0]).toMatchObject({ sku: 'V2S-A', availableStock: 7, stock: 7 });
    expect(all.body.result[1]).toMatchObject({ sku: 'V2S-E', useEconomicStock: true, stock: 10 });
    expect((await get('/stock/bulk/FALSE')).body.result.map((s: any) => s.sku)).toEqual(['V2S-A', 'V2S-E', 'V2S-L']);
    const wrong = await get('/stock/bulk/maybe');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ messageCode: 'NOK', message: 'Unable to process request due to malformed contents' });
    expect((await get('/stock/bulk/true', other.token)).body.result.map((s: any) => s.sku)).toEqual(['V2S-A']);
  });
});

describe('GET /v2/stock/bulk', () => {
  it('answers the period and the products mutated in it; its to is the next from', async () => {
    const first = await get('/v2/stock/bulk');
    const { from, to } = first.body.result.stockMutationPeriod;
    expect(Date.parse(to) - Date.parse(from)).toBe(86_400_000);
    expect(first.body.result.stock.map((s: any) => s.sku)).toEqual(['V2S-A', 'V2S-E', 'V2S-L']);
    expect((await get(`/v2/stock/bulk?from=${encodeURIComponent(to)}`)).body.result.stock).toEqual([]);
    await receive(ids.po, [{ sku: 'V2S-E', quantity: 1 }]);
    const next = await get(`/v2/stock/bulk?from=${encodeURIComponent(to)}`);
    expect(next.body.result.stockMutationPeriod.from).toBe(to);
    expect(next.body.result.stock.map((s: any) => [s.sku, s.stock])).toEqual([['V2S-E', 10]]);
  });

  it('all_products=true has priority over from; a from that is not a date-time is NOK', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await get(`/v2/stock/bulk?all_products=true&from=${encodeURIComponent(future)}`)).body.result.stock).toHaveLength(4);
    expect((await get(`/v2/stock/bulk?All_Products=false&from=${encodeURIComponent(future)}`)).body.result.stock).toEqual([]);
    const wrong = await get('/v2/stock/bulk?from=yesterday');
    expect(wrong.status).toBe(400);
    expect(wrong.body.messageCode).toBe('NOK');
  });
});

describe('stock mutations', () => {
  let shipmentId: number;

  beforeAll(async () => {
    // A shipment (not a v2 mutation) and its return: one unit restocked, one damaged (not listed either).
    const order = (await post('/v3/orders', orderDocument(client, { items: [{ sku: 'V2S-L', quantity: 2 }] }))).body.data;
    shipmentId = (await post(`/sandbox/orders/${order.id}/ship`, undefined)).body.data.id;
    const reasonId = (await get('/settings/get')).body.result.returnReasons[0].id;
    const returned = await post(`/sandbox/shipments/${shipmentId}/return`, {
      items: [
        { sku: 'V2S-L', quantity: 1, condition: 'RETURN', returnReasonId: reasonId },
        { sku: 'V2S-L', quantity: 1, condition: 'DAMAGED' },
      ],
    });
    expect(returned.status, returned.raw).toBe(201);
    ids.orderId = order.id;
  });

  it('lists unsynced received and returned goods with v2 types, purchase-order and return references; no shipments, no damaged returns', async () => {
    const answer = await get('/v2/stockmutation/get');
    expect(answer.status).toBe(200);
    const mutations = answer.body.result;
    expect(mutations.map((m: any) => [m.sku, m.type, m.quantity])).toEqual([
      ['V2S-A', 1, 12],
      ['V2S-E', 1, 4],
      ['V2S-L', 1, 3],
      ['V2S-E', 1, 1],
      ['V2S-L', 3, 1],
    ]);
    const reference = (await get(`/v3/inboundPackingSlips/${ids.po}`)).body.data.attributes.reference;
    expect(mutations[0]).toMatchObject({
      warehouseCode: 'NR',
      locationType: 'PICKABLE',
      supplierId: null,
      shippingId: null,
      orderNumber: null,
      returnReason: null,
      purchaseOrders: [{ purchaseOrderId: ids.po, purchaseOrderReference: reference, purchaseOrderRemark: 'Remark' }],
    });
    expect(mutations[4]).toMatchObject({
      shippingId: shipmentId,
      orderNumber: ids.orderId,
      externalOrderNumber: expect.any(String),
      returnReason: expect.any(String),
      purchaseOrders: [],
    });
    expect((await get('/stockmutation/get', other.token)).body.result.map((m: any) => m.sku)).toEqual(['V2S-A']);
  });

  it.each(bodyStyles)('syncs all or nothing: an id of another client leaves every mutation unsynced (%s)', async (style) => {
    const mine = (await get('/v2/stockmutation/get')).body.result.map((m: any) => m.id);
    const theirs = (await get('/v2/stockmutation/get', other.token)).body.result.map((m: any) => m.id);
    if (!mine.length) return;
    const refused = await sendV2(sb, 'POST', '/v2/stockmutation/sync', { ids: [mine[0], ...theirs, 2147483647] }, client.token, style);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ messageCode: 'NOK', message: 'Some Ids were not found', result: [...theirs, 2147483647] });
    expect((await get('/v2/stockmutation/get')).body.result.map((m: any) => m.id)).toEqual(mine);
    const done = await sendV2(sb, 'POST', '/v2/stockmutation/sync', { ids: [mine[0]] }, client.token, style);
    expect(done.body).toEqual({ messageCode: 'OK', message: 'Request processed successfully.', result: null });
    expect((await get('/v2/stockmutation/get')).body.result.map((m: any) => m.id)).toEqual(mine.slice(1));
    const v3 = (await get(`/v3/stockMutations?filter[synced]=true`)).body.data.map((m: any) => m.id);
    expect(v3).toContain(mine[0]);
  });

  it('only lists the last 7 days on the client clock', async () => {
    await sb.database.db
      .update(schema.clients)
      .set({ clockOffsetSeconds: 8 * 86_400 })
      .where(eq(schema.clients.id, client.id));
    expect((await get('/v2/stockmutation/get')).body.result).toEqual([]);
    await sb.database.db.update(schema.clients).set({ clockOffsetSeconds: 0 }).where(eq(schema.clients.id, client.id));
  });
});
