import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts } from './support/fixtures.ts';
import { receiveGoods } from './support/inventory.ts';

let sb: TestSandbox;
let client: TestClient;
let stockIds: number[];
let mutationIds: number[];

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['ST-A', 'ST-B', 'ST-C']);
  await receiveGoods(sb, client, [
    { sku: 'ST-A', quantity: 5 },
    { sku: 'ST-B', quantity: 2 },
  ]);
  await receiveGoods(sb, client, [{ sku: 'ST-C', quantity: 7 }], { expectedIn: 'BW' });
  stockIds = (await sb.database.db.select({ id: schema.stock.id }).from(schema.stock).where(eq(schema.stock.clientId, client.id)))
    .map((r) => r.id)
    .sort((a, b) => a - b);
  mutationIds = (
    await sb.database.db
      .select({ id: schema.stockMutations.id })
      .from(schema.stockMutations)
      .where(eq(schema.stockMutations.clientId, client.id))
  )
    .map((r) => r.id)
    .sort((a, b) => a - b);
});
afterAll(() => sb.close());

const get = (url: string, token = client.token) => sb.call('GET', url, { token });
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('GET /v3/stock', () => {
  it('lists stock per location with every attribute, and includes the stock locations', async () => {
    const answer = await get('/v3/stock?include=stockLocation');
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((s: any) => s.id)).toEqual(stockIds);
    const c = answer.body.data.find((s: any) => s.attributes.sku === 'ST-C');
    expect(c.attributes).toMatchObject({
      quantity: 7,
      locationType: 'PICKABLE',
      quality: 'OK',
      status: 'OK',
      expirationDate: null,
      expirationStatus: 'OK',
      lotNumber: null,
      quarantined: false,
    });
    expect(Date.parse(c.attributes.receivedOn)).toBeGreaterThan(Date.now() - 60_000);
    const location = answer.body.included.find((l: any) => l.id === c.relationships.stockLocation.data.id);
    expect(location).toMatchObject({
      type: 'stockLocation',
      attributes: { warehouseCode: 'BW', locationType: 'PICKABLE', locationCode: c.attributes.locationCode },
    });
    expect((await get('/v3/stock')).body.included).toBeUndefined();
  });

  it('filters by sku, location type, modifiedOn and expiration status', async () => {
    expect((await get('/v3/stock?filter[sku][in]=ST-A,ST-C')).body.data.map((s: any) => s.attributes.sku)).toEqual(['ST-A', 'ST-C']);
    expect((await get('/v3/stock?filter[locationType][in]=PICKABLE')).body.data).toHaveLength(3);
    expect((await get('/v3/stock?filter[locationType][in]=PALLET,COOLED')).body.data).toEqual([]);
    expect((await get(`/v3/stock?filter[modifiedOn][gt]=${dayOffset(-1)}`)).body.data).toHaveLength(3);
    expect((await get(`/v3/stock?filter[modifiedOn][gt]=${today()}`)).body.data).toEqual([]);
    expect((await get(`/v3/stock?filter[modifiedOn][lt]=${today()}`)).body.data).toEqual([]);
    expect((await get(`/v3/stock?filter[modifiedOn][lt]=${dayOffset(1)}`)).body.data).toHaveLength(3);
    await sb.database.db.update(schema.stock).set({ expirationStatus: 'WARNING' }).where(eq(schema.stock.id, stockIds[1]));
    expect((await get('/v3/stock?filter[expirationStatus][in]=WARNING,EXPIRED')).body.data.map((s: any) => s.id)).toEqual([stockIds[1]]);
    expect((await get('/v3/stock?filter[expirationStatus][in]=SOON')).status).toBe(400);
    expect((await get('/v3/stock?filter[locationType][in]=PICKABLE,PICKABLE')).status).toBe(400);
    expect((await get('/v3/stock?include=product')).status).toBe(400);
  });

  it('pages by id', async () => {
    const first = await get('/v3/stock?page[size]=2');
    expect(first.body.data.map((s: any) => s.id)).toEqual(stockIds.slice(0, 2));
    const next = new URL(first.body.links.next);
    expect((await get(next.pathname + next.search)).body.data.map((s: any) => s.id)).toEqual(stockIds.slice(2));
  });

  it('reads one stock row with its location', async () => {
    const answer = await get(`/v3/stock/${stockIds[0]}?include=stockLocation`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.id).toBe(stockIds[0]);
    expect(answer.body.included).toHaveLength(1);
  });
});

describe('GET /v3/stockMutations', () => {
  it('lists the INBOUND mutations of the receipts, signed, with their inbound items', async () => {
    const answer = await get('/v3/stockMutations');
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((m: any) => m.id)).toEqual(mutationIds);
    const c = answer.body.data.find((m: any) => m.attributes.sku === 'ST-C');
    expect(c.attributes).toMatchObject({
      type: 'INBOUND',
      quantity: 7,
      warehouseCode: 'BW',
      locationType: 'PICKABLE',
      quality: 'OK',
      status: 'OK',
      correctionCode: null,
    });
    expect(c.relationships.inboundItem.data).toEqual({ type: 'inboundItem', id: expect.any(Number) });
    expect(c.relationships.returnItem.data).toBeNull();
  });

  it('filters by type, createdOn and synced (legacy: false = not yet synced)', async () => {
    expect((await get('/v3/stockMutations?filter[type][in]=INBOUND')).body.data).toHaveLength(3);
    expect((await get('/v3/stockMutations?filter[type][in]=SHIPMENT,RETURN')).body.data).toEqual([]);
    expect((await get('/v3/stockMutations?filter[type][in]=GIFT')).status).toBe(400);
    expect((await get(`/v3/stockMutations?filter[createdOn][gt]=${dayOffset(-1)}`)).body.data).toHaveLength(3);
    expect((await get(`/v3/stockMutations?filter[createdOn][lt]=${today()}`)).body.data).toEqual([]);
    await sb.database.db.update(schema.stockMutations).set({ synced: true }).where(eq(schema.stockMutations.id, mutationIds[0]));
    expect((await get('/v3/stockMutations?filter[synced]=false')).body.data.map((m: any) => m.id)).toEqual(mutationIds.slice(1));
    expect((await get('/v3/stockMutations?filter[synced]=true')).body.data.map((m: any) => m.id)).toEqual([mutationIds[0]]);
  });

  it('pages with page[number] as a cursor: that id is not repeated, too-low values count as omitted', async () => {
    expect((await get(`/v3/stockMutations?page[number]=${mutationIds[0]}`)).body.data.map((m: any) => m.id)).toEqual(mutationIds.slice(1));
    for (const low of ['0', '-3'])
      expect((await get(`/v3/stockMutations?page[number]=${low}`)).body.data.map((m: any) => m.id)).toEqual(mutationIds);
    const first = await get('/v3/stockMutations?page[number]=1&page[size]=1');
    const next = new URL(first.body.links.next);
    expect(next.searchParams.get('page[number]')).toBeNull();
    expect(next.searchParams.get('page[cursor]')).toBe(String(first.body.data[0].id));
    expect((await get(`/v3/stockMutations?page[cursor]=${mutationIds[1]}`)).body.data.map((m: any) => m.id)).toEqual([mutationIds[2]]);
  });

  it('does not return mutations older than 7 days on the client clock', async () => {
    await sb.database.db
      .update(schema.stockMutations)
      .set({ createdOn: new Date(Date.now() - 8 * 86_400_000) })
      .where(eq(schema.stockMutations.id, mutationIds[2]));
    expect((await get('/v3/stockMutations')).body.data.map((m: any) => m.id)).toEqual(mutationIds.slice(0, 2));
    // Six days further on the client's clock, the two recent ones are still within the window...
    await sb.database.db
      .update(schema.clients)
      .set({ clockOffsetSeconds: 6 * 86_400 })
      .where(eq(schema.clients.id, client.id));
    expect((await get('/v3/stockMutations')).body.data).toHaveLength(2);
    // ...and after eight days none is.
    await sb.database.db
      .update(schema.clients)
      .set({ clockOffsetSeconds: 8 * 86_400 })
      .where(eq(schema.clients.id, client.id));
    expect((await get('/v3/stockMutations')).body.data).toEqual([]);
    await sb.database.db.update(schema.clients).set({ clockOffsetSeconds: 0 }).where(eq(schema.clients.id, client.id));
  });
});

describe('tenancy', () => {
  it("another client sees none of this client's stock or mutations, and its stock ids answer 404", async () => {
    const other = await sb.newClient();
    for (const id of stockIds) expect((await get(`/v3/stock/${id}`, other.token)).status).toBe(404);
    expect((await get('/v3/stock', other.token)).body.data).toEqual([]);
    expect((await get('/v3/stockMutations', other.token)).body.data).toEqual([]);
    expect((await get('/v3/stockLevels', other.token)).body.data).toEqual([]);
    const rows = await sb.database.db.select().from(schema.stock).where(inArray(schema.stock.id, stockIds));
    expect(rows.every((r) => r.clientId === client.id)).toBe(true);
  });
});
