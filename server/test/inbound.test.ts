import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, uniqueNumber } from './support/fixtures.ts';
import { inboundEvents, inboundTransitions, packingSlipTransitions, pathBetween } from '../src/modules/inbound/lifecycle.ts';

let sb: TestSandbox;
let client: TestClient;
let productIds: number[];

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  productIds = await createProducts(sb, client.token, ['IN-SHIRT', 'IN-MUG', 'IN-CHEESE']);
  // The cheese is perishable and tracked by lot (set directly: the product rules are not this file's subject).
  await sb.database.db
    .update(schema.products)
    .set({ hasLotNumber: true, hasExpirationDate: true, expirationDateMargin: 10, expirationDateWarning: 20 })
    .where(eq(schema.products.id, productIds[2]));
});
afterAll(() => sb.close());

const slipDocument = (items: { sku: string; quantity: number }[], attributes: Record<string, unknown> = {}) => ({
  data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', reference: uniqueNumber('PS'), ...attributes } },
  included: items.map((attributes) => ({ type: 'inboundPackingSlipItem', attributes })),
});
const announce = (items: { sku: string; quantity: number }[], attributes: Record<string, unknown> = {}, token = client.token) =>
  sb.call('POST', '/v3/inboundPackingSlips', { token, body: slipDocument(items, attributes) });
const receive = (id: number, body?: unknown, token = client.token) =>
  sb.call('POST', `/sandbox/inboundPackingSlips/${id}/receive`, { token, body });

describe('POST /v3/inboundPackingSlips', () => {
  it('announces goods: 201 with the items included, EXPECTED, nothing received', async () => {
    const answer = await announce(
      [
        { sku: 'IN-SHIRT', quantity: 10 },
        { sku: 'IN-MUG', quantity: 4 },
      ],
      { expectedOn: '2030-01-15', comments: 'two boxes', metadata: { extra1: 'supplier' } },
    );
    expect(answer.status).toBe(201);
    expect(answer.body.data.attributes).toMatchObject({
      expectedIn: 'NR',
      expectedOn: '2030-01-15',
      status: 'EXPECTED',
      comments: 'two boxes',
      receivedOn: null,
      completedOn: null,
      metadata: { extra1: 'supplier', extra2: null },
    });
    expect(answer.body.data.relationships.inbound.data).toBeNull();
    expect(answer.body.included.map((i: any) => i.attributes)).toEqual([
      { sku: 'IN-SHIRT', quantity: 10, received: 0 },
      { sku: 'IN-MUG', quantity: 4, received: 0 },
    ]);
    expect(answer.body.data.links.self).toBe(`http://sandbox.test/v3/inboundPackingSlips/${answer.body.data.id}`);
  });

  it('merges a repeated sku by summing its quantities', async () => {
    const answer = await announce([
      { sku: 'IN-SHIRT', quantity: 3 },
      { sku: 'IN-MUG', quantity: 1 },
      { sku: 'IN-SHIRT', quantity: 4 },
    ]);
    expect(answer.status).toBe(201);
    expect(answer.body.included.map((i: any) => [i.attributes.sku, i.attributes.quantity])).toEqual([
      ['IN-SHIRT', 7],
      ['IN-MUG', 1],
    ]);
  });

  it('requires expectedIn, a known warehouse', async () => {
    const missing: any = slipDocument([{ sku: 'IN-SHIRT', quantity: 1 }]);
    delete missing.data.attributes.expectedIn;
    expect((await sb.call('POST', '/v3/inboundPackingSlips', { token: client.token, body: missing })).status).toBe(400);
    expect((await announce([{ sku: 'IN-SHIRT', quantity: 1 }], { expectedIn: 'XX' })).status).toBe(400);
  });

  it('refuses a quantity below 1', async () => {
    const answer = await announce([{ sku: 'IN-SHIRT', quantity: 0 }]);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].source.pointer).toBe('/included/0/attributes/quantity');
  });

  it('answers 404-1 for every unknown sku together', async () => {
    const answer = await announce([
      { sku: 'NOPE-1', quantity: 1 },
      { sku: 'IN-MUG', quantity: 1 },
      { sku: 'NOPE-2', quantity: 2 },
    ]);
    expect(answer.status).toBe(404);
    expect(answer.body.errors.map((e: any) => [e.code, e.source.pointer])).toEqual([
      ['404-1', '/included/0/attributes/sku'],
      ['404-1', '/included/2/attributes/sku'],
    ]);
  });

  it('refuses a reference that is already used with 409, and writes nothing', async () => {
    const reference = uniqueNumber('DUP');
    expect((await announce([{ sku: 'IN-MUG', quantity: 1 }], { reference })).status).toBe(201);
    const again = await announce([{ sku: 'IN-MUG', quantity: 1 }], { reference });
    expect(again.status).toBe(409);
    const rows = await sb.database.db.select().from(schema.inboundPackingSlips).where(eq(schema.inboundPackingSlips.reference, reference));
    expect(rows).toHaveLength(1);
  });

  it('lets another client use the same reference', async () => {
    const other = await sb.newClient();
    await createProducts(sb, other.token, ['IN-MUG']);
    const reference = uniqueNumber('SHARED');
    expect((await announce([{ sku: 'IN-MUG', quantity: 1 }], { reference })).status).toBe(201);
    expect((await announce([{ sku: 'IN-MUG', quantity: 1 }], { reference }, other.token)).status).toBe(201);
  });
});

describe('GET /v3/inboundPackingSlips', () => {
  it('lists by id with include and status filter, and reads one', async () => {
    const created = await announce([{ sku: 'IN-MUG', quantity: 2 }]);
    const id = created.body.data.id;
    const list = await sb.call('GET', '/v3/inboundPackingSlips?filter[status][in]=EXPECTED&include=inboundPackingSlipItems', {
      token: client.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.some((s: any) => s.id === id)).toBe(true);
    expect(list.body.included.some((i: any) => i.relationships.inboundPackingSlip.data.id === id)).toBe(true);
    const ids = list.body.data.map((s: any) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const none = await sb.call('GET', '/v3/inboundPackingSlips?filter[status][in]=COMPLETED', { token: client.token });
    expect(none.body.data.every((s: any) => s.attributes.status === 'COMPLETED')).toBe(true);
    expect((await sb.call('GET', '/v3/inboundPackingSlips?filter[status][in]=LOST', { token: client.token })).status).toBe(400);
    const one = await sb.call('GET', `/v3/inboundPackingSlips/${id}`, { token: client.token });
    expect(one.body.data.id).toBe(id);
    expect(one.body.included).toBeUndefined();
  });

  it('does not return packing slips older than 90 days', async () => {
    const created = await announce([{ sku: 'IN-MUG', quantity: 2 }]);
    const id = created.body.data.id;
    await sb.database.db
      .update(schema.inboundPackingSlips)
      .set({ createdOn: new Date(Date.now() - 91 * 86_400_000) })
      .where(eq(schema.inboundPackingSlips.id, id));
    expect((await sb.call('GET', `/v3/inboundPackingSlips/${id}`, { token: client.token })).status).toBe(404);
    const list = await sb.call('GET', '/v3/inboundPackingSlips', { token: client.token });
    expect(list.body.data.some((s: any) => s.id === id)).toBe(false);
  });
});

describe('POST /sandbox/inboundPackingSlips/{id}/receive', () => {
  it('receives everything expected: a CHECKED inbound with items, stock, INBOUND mutations, received quantities, measured products', async () => {
    const slip = (
      await announce([
        { sku: 'IN-SHIRT', quantity: 5 },
        { sku: 'IN-CHEESE', quantity: 3 },
      ])
    ).body.data;
    const answer = await receive(slip.id);
    expect(answer.status).toBe(201);
    const inbound = answer.body.data;
    expect(inbound.attributes).toMatchObject({
      reference: slip.attributes.reference,
      status: 'CHECKED',
      receivedIn: 'NR',
      completedOn: null,
    });
    expect(inbound.attributes.checkingOn).not.toBeNull();
    expect(inbound.relationships.inboundPackingSlip.data.id).toBe(slip.id);
    const items = answer.body.included;
    expect(items.map((i: any) => [i.attributes.sku, i.attributes.quantity])).toEqual([
      ['IN-SHIRT', 5],
      ['IN-CHEESE', 3],
    ]);
    const shirt = items[0];
    const cheese = items[1];
    expect(shirt.attributes).toMatchObject({ lotNumber: null, expirationDate: null });
    expect(cheese.attributes.lotNumber).toMatch(/^LOT-/);
    expect(cheese.attributes.expirationDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const after = await sb.call('GET', `/v3/inboundPackingSlips/${slip.id}?include=inboundPackingSlipItems`, { token: client.token });
    expect(after.body.data.attributes.status).toBe('CHECKED');
    expect(after.body.data.attributes.receivedOn).not.toBeNull();
    expect(after.body.data.relationships.inbound.data.id).toBe(inbound.id);
    expect(after.body.included.map((i: any) => i.attributes.received)).toEqual([5, 3]);

    const stock = await sb.call('GET', '/v3/stock?filter[sku][in]=IN-CHEESE&include=stockLocation', { token: client.token });
    const row = stock.body.data.find((s: any) => s.relationships.inboundItem.data?.id === cheese.id);
    expect(row.attributes).toMatchObject({
      quantity: 3,
      quality: 'OK',
      status: 'OK',
      lotNumber: cheese.attributes.lotNumber,
      expirationDate: cheese.attributes.expirationDate,
      locationType: 'PICKABLE',
    });
    expect(stock.body.included.find((l: any) => l.id === row.relationships.stockLocation.data.id).attributes).toMatchObject({
      warehouseCode: 'NR',
      locationType: 'PICKABLE',
      locationCode: row.attributes.locationCode,
    });

    const mutations = await sb.call('GET', '/v3/stockMutations?filter[type][in]=INBOUND', { token: client.token });
    const booked = mutations.body.data.filter((m: any) => [shirt.id, cheese.id].includes(m.relationships.inboundItem.data?.id));
    expect(booked.map((m: any) => [m.attributes.sku, m.attributes.quantity, m.attributes.warehouseCode])).toEqual([
      ['IN-SHIRT', 5, 'NR'],
      ['IN-CHEESE', 3, 'NR'],
    ]);

    const product = await sb.database.db.select().from(schema.products).where(eq(schema.products.id, productIds[0]));
    expect(product[0].weight).toBeGreaterThan(0);
    expect(product[0].length).toBeGreaterThan(0);
  });

  it('keeps the weight and dimensions a product already has', async () => {
    await sb.database.db
      .update(schema.products)
      .set({ weight: 321, length: 10, width: 20, height: 30 })
      .where(eq(schema.products.id, productIds[1]));
    const slip = (await announce([{ sku: 'IN-MUG', quantity: 1 }])).body.data;
    expect((await receive(slip.id)).status).toBe(201);
    const [mug] = await sb.database.db.select().from(schema.products).where(eq(schema.products.id, productIds[1]));
    expect([mug.weight, mug.length, mug.width, mug.height]).toEqual([321, 10, 20, 30]);
  });

  it('receives fewer (IN_PROGRESS), then the rest and more (CHECKED), and skus not on the slip', async () => {
    const slip = (
      await announce([
        { sku: 'IN-SHIRT', quantity: 10 },
        { sku: 'IN-MUG', quantity: 2 },
      ])
    ).body.data;
    const first = await receive(slip.id, { items: [{ sku: 'IN-SHIRT', quantity: 4 }] });
    expect(first.status).toBe(201);
    let read = await sb.call('GET', `/v3/inboundPackingSlips/${slip.id}?include=inboundPackingSlipItems`, { token: client.token });
    expect(read.body.data.attributes.status).toBe('IN_PROGRESS');
    expect(read.body.included.map((i: any) => i.attributes.received)).toEqual([4, 0]);

    const second = await receive(slip.id, {
      items: [
        { sku: 'IN-SHIRT', quantity: 3 },
        { sku: 'IN-SHIRT', quantity: 4 },
        { sku: 'IN-MUG', quantity: 2 },
        { sku: 'IN-CHEESE', quantity: 1 },
      ],
    });
    expect(second.status).toBe(201);
    const extra = second.body.included.find((i: any) => i.attributes.sku === 'IN-CHEESE');
    expect(extra.relationships.inboundPackingSlipItem.data).toBeNull();
    read = await sb.call('GET', `/v3/inboundPackingSlips/${slip.id}?include=inboundPackingSlipItems`, { token: client.token });
    expect(read.body.data.attributes.status).toBe('CHECKED');
    expect(read.body.included.map((i: any) => [i.attributes.sku, i.attributes.quantity, i.attributes.received])).toEqual([
      ['IN-SHIRT', 10, 11],
      ['IN-MUG', 2, 2],
    ]);
    expect(read.body.data.relationships.inbound.data.id).toBe(second.body.data.id);
  });

  it('answers 404-1 for a sku that is not a product, and 409 once the slip is fully received', async () => {
    const slip = (await announce([{ sku: 'IN-MUG', quantity: 1 }])).body.data;
    const unknown = await receive(slip.id, { items: [{ sku: 'NOT-A-PRODUCT', quantity: 1 }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ code: '404-1', source: { pointer: '/items/0/sku' } });
    expect((await receive(slip.id, { items: [{ sku: 'IN-MUG', quantity: 0 }] })).status).toBe(400);
    expect((await receive(slip.id)).status).toBe(201);
    expect((await receive(slip.id)).status).toBe(409);
  });

  it('completes a CHECKED inbound and its packing slip 2 hours later on the client clock', async () => {
    const fresh = await sb.newClient();
    await createProducts(sb, fresh.token, ['IN-MUG']);
    const slip = (await announce([{ sku: 'IN-MUG', quantity: 1 }], {}, fresh.token)).body.data;
    const inbound = (await receive(slip.id, undefined, fresh.token)).body.data;
    const setClock = (seconds: number) =>
      sb.database.db.update(schema.clients).set({ clockOffsetSeconds: seconds }).where(eq(schema.clients.id, fresh.id));
    await setClock(2 * 3600 - 60);
    expect((await sb.call('GET', `/v3/inbounds/${inbound.id}`, { token: fresh.token })).body.data.attributes.status).toBe('CHECKED');
    await setClock(2 * 3600 + 60);
    const done = await sb.call('GET', `/v3/inbounds/${inbound.id}`, { token: fresh.token });
    expect(done.body.data.attributes.status).toBe('COMPLETED');
    expect(Date.parse(done.body.data.attributes.completedOn) - Date.parse(inbound.attributes.createdOn)).toBe(2 * 3600_000);
    const slipAfter = await sb.call('GET', `/v3/inboundPackingSlips/${slip.id}`, { token: fresh.token });
    expect(slipAfter.body.data.attributes).toMatchObject({ status: 'COMPLETED', completedOn: done.body.data.attributes.completedOn });
    const completed = await sb.call('GET', '/v3/inboundPackingSlips?filter[status][in]=COMPLETED', { token: fresh.token });
    expect(completed.body.data.map((s: any) => s.id)).toEqual([slip.id]);
    expect((await receive(slip.id, undefined, fresh.token)).status).toBe(409);
  });
});

describe('GET /v3/inbounds and /v3/inboundItems', () => {
  it('lists inbounds with their items and filters by status; reads one inbound item', async () => {
    const slip = (await announce([{ sku: 'IN-MUG', quantity: 2 }])).body.data;
    const inbound = (await receive(slip.id)).body.data;
    const list = await sb.call('GET', '/v3/inbounds?filter[status][in]=CHECKED&include=inboundItems', { token: client.token });
    expect(list.status).toBe(200);
    expect(list.body.data.every((i: any) => i.attributes.status === 'CHECKED')).toBe(true);
    const mine = list.body.data.find((i: any) => i.id === inbound.id);
    const itemId = mine.relationships.inboundItems.data[0].id;
    expect(list.body.included.some((i: any) => i.id === itemId)).toBe(true);
    expect((await sb.call('GET', '/v3/inbounds?filter[status][in]=COMPLETED', { token: client.token })).body.data).toEqual([]);
    const item = await sb.call('GET', `/v3/inboundItems/${itemId}`, { token: client.token });
    expect(item.body.data.attributes).toMatchObject({ sku: 'IN-MUG', quantity: 2 });
    expect(item.body.data.relationships.inbound.data.id).toBe(inbound.id);
  });
});

describe('tenancy', () => {
  it("another client's packing slip, inbound and inbound item answer 404", async () => {
    const slip = (await announce([{ sku: 'IN-MUG', quantity: 1 }])).body.data;
    const received = await receive(slip.id);
    const other = await sb.newClient();
    for (const url of [
      `/v3/inboundPackingSlips/${slip.id}`,
      `/v3/inbounds/${received.body.data.id}`,
      `/v3/inboundItems/${received.body.included[0].id}`,
    ]) {
      expect((await sb.call('GET', url, { token: other.token })).status).toBe(404);
    }
    expect((await receive(slip.id, undefined, other.token)).status).toBe(404);
    expect((await sb.call('GET', '/v3/inbounds', { token: other.token })).body.data).toEqual([]);
  });
});

describe('lifecycles', () => {
  it('walk EXPECTED → IN_PROGRESS → CHECKING → CHECKED → COMPLETED and PROCESSING → CHECKING → CHECKED → COMPLETED, never back from COMPLETED', () => {
    expect(pathBetween(packingSlipTransitions, 'EXPECTED', 'COMPLETED')).toEqual(['IN_PROGRESS', 'CHECKING', 'CHECKED', 'COMPLETED']);
    expect(pathBetween(inboundTransitions, 'PROCESSING', 'COMPLETED')).toEqual(['CHECKING', 'CHECKED', 'COMPLETED']);
    expect(() => pathBetween(inboundTransitions, 'COMPLETED', 'CHECKED')).toThrow();
    expect(() => pathBetween(packingSlipTransitions, 'COMPLETED', 'EXPECTED')).toThrow();
  });

  it('name the webhook event of every inbound status', () => {
    expect(inboundEvents).toEqual({
      PROCESSING: 'inbound.processing',
      CHECKING: 'inbound.checking',
      CHECKED: 'inbound.checked',
      COMPLETED: 'inbound.processed',
    });
  });
});
