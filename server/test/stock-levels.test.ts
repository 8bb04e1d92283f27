import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { pickLocation, putStock } from '../src/modules/inventory/service.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { announce, domainClient, receiveGoods } from './support/inventory.ts';

let sb: TestSandbox;
let client: TestClient;
let ids: number[];

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  ids = await createProducts(sb, client.token, ['LV-A', 'LV-B', 'LV-C', 'LV-D']);
});
afterAll(() => sb.close());

const levelOf = async (productId: number, token = client.token) => sb.call('GET', `/v3/stockLevels/${productId}`, { token });
const warehouseLevel = async (productId: number, warehouse = 'NR') =>
  (await levelOf(productId)).body.data.attributes.levels.find((l: any) => l.warehouse === warehouse);
const order = (items: { sku: string; quantity: number; fulfillFrom?: string }[], attributes: Record<string, unknown> = {}) =>
  sb.call('POST', '/v3/orders', { token: client.token, body: orderDocument(client, { items, attributes }) });

/** The agreements every level keeps, checked against the stock rows themselves. */
async function expectConsistent(productId: number, sku: string) {
  const stock = await sb.call('GET', `/v3/stock?filter[sku][in]=${sku}&include=stockLocation`, { token: client.token });
  const levels = (await levelOf(productId)).body.data.attributes.levels;
  for (const level of levels) {
    const rows = stock.body.data.filter(
      (s: any) =>
        stock.body.included.find((l: any) => l.id === s.relationships.stockLocation.data.id).attributes.warehouseCode === level.warehouse,
    );
    expect(level.physical).toBe(rows.reduce((sum: number, s: any) => sum + s.attributes.quantity, 0));
    expect(level.stock).toBe(level.physical - level.unavailable);
    expect(level.free).toBeGreaterThanOrEqual(0);
    expect(level.free).toBeLessThanOrEqual(level.stock);
    expect(level.available).toBeLessThanOrEqual(level.free);
    expect(level.economic).toBeGreaterThanOrEqual(level.free);
  }
  return levels;
}

describe('GET /v3/stockLevels/{id}', () => {
  it('after a partial receipt: physical and stock are what arrived, expected what is still announced', async () => {
    await receiveGoods(sb, client, [{ sku: 'LV-A', quantity: 10 }], { received: [{ sku: 'LV-A', quantity: 6 }] });
    const answer = await levelOf(ids[0]);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      type: 'stockLevel',
      id: ids[0],
      attributes: { sku: 'LV-A' },
      relationships: { product: { data: { type: 'product', id: ids[0] } } },
    });
    expect(answer.body.data.attributes.mutatedOn).not.toBeNull();
    expect(answer.body.data.attributes.levels).toEqual([
      {
        warehouse: 'NR',
        stock: 6,
        free: 6,
        economic: 10,
        available: 6,
        physical: 6,
        quarantined: 0,
        unavailable: 0,
        expected: 4,
        damaged: 0,
        toScrap: 0,
        overdue: 0,
        expired: 0,
        outbound: 0,
      },
    ]);
    await expectConsistent(ids[0], 'LV-A');
  });

  it('open orders lower free and economic; orders on hold do not; free never goes below 0', async () => {
    expect((await order([{ sku: 'LV-A', quantity: 4 }])).status).toBe(201);
    expect((await order([{ sku: 'LV-A', quantity: 100 }], { onHold: true })).status).toBe(201);
    expect(await warehouseLevel(ids[0])).toMatchObject({ physical: 6, stock: 6, free: 2, economic: 6, available: 2, expected: 4 });
    expect((await order([{ sku: 'LV-A', quantity: 9 }])).status).toBe(201);
    expect(await warehouseLevel(ids[0])).toMatchObject({ physical: 6, stock: 6, free: 0, economic: 0, available: 0 });
    await expectConsistent(ids[0], 'LV-A');
  });

  it('orders for another warehouse give that warehouse a level of its own', async () => {
    expect((await order([{ sku: 'LV-B', quantity: 3, fulfillFrom: 'NN' }])).status).toBe(201);
    const levels = (await levelOf(ids[1])).body.data.attributes.levels;
    expect(levels).toEqual([expect.objectContaining({ warehouse: 'NN', physical: 0, stock: 0, free: 0, economic: 0 })]);
    expect((await levelOf(ids[1])).body.data.attributes.mutatedOn).toBeNull();
  });

  it('damaged, quarantined and not yet matched goods are unavailable; goods on excluded locations are free but not available', async () => {
    await receiveGoods(sb, client, [{ sku: 'LV-C', quantity: 10 }]);
    const db = sb.database.db;
    const domain = await domainClient(sb, client);
    const now = new Date();
    await db.transaction(async (t) => {
      const goods = { productId: ids[2], sku: 'LV-C' };
      await putStock(
        t,
        domain.id,
        pickLocation('NR', ids[2], 'DAMAGED'),
        { ...goods, quantity: 2, quality: 'DAMAGED' },
        { type: 'CORRECTION', correctionCode: 'DAMAGED' },
        now,
      );
      await putStock(
        t,
        domain.id,
        pickLocation('NR', ids[2], 'PALLET'),
        { ...goods, quantity: 3, quality: 'TO_SCRAP' },
        { type: 'QUALITY' },
        now,
      );
      await putStock(
        t,
        domain.id,
        pickLocation('NR', ids[2], 'INBOUND'),
        { ...goods, quantity: 4, status: 'INBOUND' },
        { type: 'INBOUND' },
        now,
      );
      await putStock(t, domain.id, pickLocation('NR', ids[2], 'RETURN'), { ...goods, quantity: 5 }, { type: 'RETURN' }, now);
      await putStock(
        t,
        domain.id,
        pickLocation('NR', ids[2], 'SECURED'),
        { ...goods, quantity: 1, quality: 'EXPIRED' },
        { type: 'EXPIRATION_DATE' },
        now,
      );
    });
    const [row] = await db.select().from(schema.stock).where(eq(schema.stock.locationType, 'PALLET'));
    await db.update(schema.stock).set({ quarantined: true }).where(eq(schema.stock.id, row.id));
    expect(await warehouseLevel(ids[2])).toEqual({
      warehouse: 'NR',
      physical: 25,
      quarantined: 3,
      damaged: 2,
      toScrap: 0,
      overdue: 0,
      expired: 1,
      unavailable: 10,
      stock: 15,
      outbound: 0,
      free: 15,
      available: 10,
      expected: 0,
      economic: 15,
    });
    await expectConsistent(ids[2], 'LV-C');
  });

  it('shipping books the goods out with SHIPMENT mutations, after a visible correction for what was missing', async () => {
    await receiveGoods(sb, client, [{ sku: 'LV-D', quantity: 5 }]);
    const placed = await order([{ sku: 'LV-D', quantity: 7 }]);
    expect(await warehouseLevel(ids[3])).toMatchObject({ physical: 5, free: 0 });
    const shipped = await sb.call('POST', `/sandbox/orders/${placed.body.data.id}/ship`, { token: client.token });
    expect(shipped.status).toBe(201);
    expect((await levelOf(ids[3])).body.data.attributes.levels).toEqual([]);
    const mutations = (
      await sb.call('GET', '/v3/stockMutations?filter[type][in]=SHIPMENT,CORRECTION', { token: client.token })
    ).body.data.filter((m: any) => m.attributes.sku === 'LV-D');
    expect(mutations.map((m: any) => [m.attributes.type, m.attributes.quantity, m.attributes.correctionCode])).toEqual([
      ['SHIPMENT', -5, null],
      ['CORRECTION', 2, 'ADJUSTMENT'],
      ['SHIPMENT', -2, null],
    ]);
    expect(mutations[0].relationships.shipmentItem.data.id).toBe(shipped.body.included[0].id);
  });

  it("answers 404 for another client's product and for an unknown id", async () => {
    const other = await sb.newClient();
    expect((await levelOf(ids[0], other.token)).status).toBe(404);
    expect((await levelOf(2_000_000_000)).status).toBe(404);
  });
});

describe('GET /v3/stockLevels', () => {
  it('lists every product by id, filters by sku, and pages with page[cursor]', async () => {
    const all = await sb.call('GET', '/v3/stockLevels', { token: client.token });
    expect(all.status).toBe(200);
    expect(all.body.data.map((l: any) => l.id)).toEqual(ids);
    const some = await sb.call('GET', '/v3/stockLevels?filter[sku][in]=LV-C,LV-A', { token: client.token });
    expect(some.body.data.map((l: any) => l.attributes.sku)).toEqual(['LV-A', 'LV-C']);
    const first = await sb.call('GET', '/v3/stockLevels?page[size]=2', { token: client.token });
    expect(first.body.data.map((l: any) => l.id)).toEqual(ids.slice(0, 2));
    const next = new URL(first.body.links.next);
    const second = await sb.call('GET', `${next.pathname}${next.search}`, { token: client.token });
    expect(second.body.data.map((l: any) => l.id)).toEqual(ids.slice(2, 4));
  });

  it('sorts by mutatedOn,id and pages through that order without skipping or repeating', async () => {
    // Mutations in the order C, then A, then D, with B never mutated.
    const db = sb.database.db;
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    for (const [productId, minutes] of [
      [ids[2], 30],
      [ids[0], 20],
      [ids[3], 10],
    ] as const) {
      await db
        .update(schema.stockMutations)
        .set({ createdOn: at(minutes) })
        .where(eq(schema.stockMutations.productId, productId));
    }
    const expected = [ids[1], ids[2], ids[0], ids[3]];
    const sorted = await sb.call('GET', '/v3/stockLevels?sort=mutatedOn,id', { token: client.token });
    expect(sorted.body.data.map((l: any) => l.id)).toEqual(expected);
    const seen: number[] = [];
    let url: string | undefined = '/v3/stockLevels?sort=mutatedOn,id&page[size]=1';
    while (url) {
      const page: any = await sb.call('GET', url, { token: client.token });
      seen.push(...page.body.data.map((l: any) => l.id));
      url = page.body.links.next ? new URL(page.body.links.next).pathname + new URL(page.body.links.next).search : undefined;
    }
    expect(seen).toEqual(expected);
    const since = encodeURIComponent(at(25).toISOString());
    const recent = await sb.call('GET', `/v3/stockLevels?filter[mutatedOn][gte]=${since}&sort=mutatedOn,id`, { token: client.token });
    expect(recent.body.data.map((l: any) => l.id)).toEqual([ids[0], ids[3]]);
    expect((await sb.call('GET', '/v3/stockLevels?sort=sku', { token: client.token })).status).toBe(400);
    expect((await sb.call('GET', '/v3/stockLevels?filter[mutatedOn][gte]=yesterday', { token: client.token })).status).toBe(400);
  });

  it('counts goods announced to a warehouse as expected there until received', async () => {
    const other = await sb.newClient();
    const [id] = await createProducts(sb, other.token, ['LV-E']);
    await announce(sb, other, [{ sku: 'LV-E', quantity: 8 }], 'GN');
    const levels = (await sb.call('GET', `/v3/stockLevels/${id}`, { token: other.token })).body.data.attributes.levels;
    expect(levels).toEqual([expect.objectContaining({ warehouse: 'GN', expected: 8, physical: 0, free: 0, economic: 8 })]);
    expect((await sb.call('GET', '/v3/stockLevels', { token: other.token })).body.data.map((l: any) => l.id)).toEqual([id]);
  });
});
