// The simulated warehouse end to end, driven by the client's clock: goods arrive, orders ship step by step with tracking,
// stock and its ledger stay consistent, returns come back, and a local receiver gets every event in order, signed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { dispatchDue } from '../src/modules/webhooks/dispatcher.ts';
import { webhookEvents } from '@shopapi/contract';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { orderDocument, uniqueNumber } from './support/fixtures.ts';
import { startReceiver, type Receiver } from './support/webhook-receiver.ts';

let sb: TestSandbox;
let client: TestClient;
let receiver: Receiver;
const products: Record<string, number> = {};
const step = 30;

const call = (method: string, url: string, body?: unknown) => sb.call(method, url, { token: client.token, body });
const advance = (seconds: number) => call('POST', '/sandbox/clock/advance', { seconds });
const shipmentsOf = async (orderId: number) => (await call('GET', `/v3/shipments?orderId=${orderId}&include=shipmentItems`)).body;

async function createProduct(sku: string, attributes: Record<string, unknown> = {}, parts?: { id: number; quantity: number }[]) {
  const answer = await call('POST', '/v3/products', {
    data: {
      type: 'product',
      attributes: { sku, name: `Product ${sku}`, ...attributes },
      ...(parts
        ? { relationships: { parts: { data: parts.map((p) => ({ type: 'product', id: p.id, meta: { quantity: p.quantity } })) } } }
        : {}),
    },
  });
  expect(answer.status, answer.raw).toBe(201);
  products[sku] = answer.body.data.id;
}

async function placeOrder(
  items: { sku: string; quantity: number }[],
  opts: { attributes?: Record<string, unknown>; delivery?: Record<string, unknown> } = {},
) {
  const answer = await call('POST', '/v3/orders', orderDocument(client, { externalOrderNumber: uniqueNumber('WH'), items, ...opts }));
  expect(answer.status, answer.raw).toBe(201);
  return answer.body.data.id as number;
}

/** Stock levels in NR, and the invariants every level keeps. */
async function levelsOf(sku: string) {
  const level = (await call('GET', `/v3/stockLevels/${products[sku]}`)).body.data.attributes.levels.find(
    (l: { warehouse: string }) => l.warehouse === 'NR',
  );
  const stockRows = (await call('GET', `/v3/stock?filter[sku][in]=${sku}`)).body.data;
  expect(level.free).toBeGreaterThanOrEqual(0);
  expect(level.physical).toBe(stockRows.reduce((sum: number, s: { attributes: { quantity: number } }) => sum + s.attributes.quantity, 0));
  return level;
}

const mutationsOf = async (sku: string) =>
  (await call('GET', '/v3/stockMutations')).body.data.filter((m: any) => m.attributes.sku === sku).map((m: any) => m.attributes);

beforeAll(async () => {
  sb = await startSandbox({ sandboxStepSeconds: step });
  client = await sb.newClient();
  receiver = await startReceiver();
  // Every event of the spec, each to its own path of the receiver.
  for (const event of [...webhookEvents.shipment, ...webhookEvents.inbound]) {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await sb.database.db
      .insert(schema.webhooks)
      .values({ clientId: client.id, entity: event.split('.')[0], event, targetUrl: receiver.url(`/${event}`), secret });
    receiver.secrets.set(`/${event}`, secret);
  }
  await createProduct('SHIRT', { hasSerialNumber: true });
  await createProduct('MUG', { hasLotNumber: true });
  await createProduct('CHEESE', {
    hasExpirationDate: true,
    expirationDate: 'SCAN_AT_INBOUND',
    expirationDateMargin: 10,
    expirationDateWarning: 30,
  });
  await createProduct('GIFTBOX', { type: 'BUNDLE' }, [
    { id: products.SHIRT, quantity: 1 },
    { id: products.MUG, quantity: 2 },
  ]);
});
afterAll(async () => {
  await receiver.close();
  await sb.close();
});

describe('the warehouse on the client clock', () => {
  let slipId: number;
  let inboundId: number;

  it('receives an announced packing slip on its expected day: inbound CHECKED, stock on locations with INBOUND mutations', async () => {
    const today = (await advance(1)).body.data.attributes.now.slice(0, 10);
    const slip = await call('POST', '/v3/inboundPackingSlips', {
      data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', expectedOn: today, reference: uniqueNumber('SLIP') } },
      included: [
        { type: 'inboundPackingSlipItem', attributes: { sku: 'SHIRT', quantity: 10 } },
        { type: 'inboundPackingSlipItem', attributes: { sku: 'MUG', quantity: 6 } },
        { type: 'inboundPackingSlipItem', attributes: { sku: 'CHEESE', quantity: 5 } },
      ],
    });
    expect(slip.status, slip.raw).toBe(201);
    slipId = slip.body.data.id;
    expect((await levelsOf('SHIRT')).expected).toBe(10);

    await advance(step);
    const inbounds = (await call('GET', '/v3/inbounds?include=inboundItems')).body;
    expect(inbounds.data).toHaveLength(1);
    inboundId = inbounds.data[0].id;
    expect(inbounds.data[0].attributes.status).toBe('CHECKED');
    expect(inbounds.included.find((i: any) => i.attributes.sku === 'MUG').attributes.lotNumber).toEqual(expect.any(String));
    expect(inbounds.included.find((i: any) => i.attributes.sku === 'CHEESE').attributes.expirationDate).toEqual(expect.any(String));
    expect((await call('GET', `/v3/inboundPackingSlips/${slipId}`)).body.data.attributes.status).toBe('CHECKED');
    expect(await levelsOf('SHIRT')).toMatchObject({ physical: 10, stock: 10, free: 10, expected: 0 });
    expect((await mutationsOf('MUG')).map((m: any) => [m.type, m.quantity])).toEqual([['INBOUND', 6]]);
  });

  let orderId: number;
  it('ships an order READY_TO_PICK → READY_TO_SORT → READY_TO_SHIP → SHIPPED, one status per step, with stock reserved then booked out', async () => {
    orderId = await placeOrder([
      { sku: 'SHIRT', quantity: 2 },
      { sku: 'MUG', quantity: 1 },
    ]);
    expect((await levelsOf('SHIRT')).free).toBe(8);

    await advance(1);
    let [shipment] = (await shipmentsOf(orderId)).data;
    expect(shipment.attributes).toMatchObject({ status: 'READY_TO_PICK', warehouseCode: 'NR', readyToShipOn: null, tracking: null });
    expect(shipment.attributes.readyToPickOn).toEqual(expect.any(String));
    // Reserved: counted as outbound, still physically there.
    expect(await levelsOf('SHIRT')).toMatchObject({ physical: 10, outbound: 2, free: 8 });

    const seen = [shipment.attributes.status];
    for (let i = 0; i < 3; i++) {
      await advance(step);
      [shipment] = (await shipmentsOf(orderId)).data;
      seen.push(shipment.attributes.status);
    }
    expect(seen).toEqual(['READY_TO_PICK', 'READY_TO_SORT', 'READY_TO_SHIP', 'SHIPPED']);
    const document = await shipmentsOf(orderId);
    [shipment] = document.data;
    expect(shipment.attributes).toMatchObject({
      weight: expect.any(Number),
      invoicingWeight: expect.any(Number),
      basketPicture: expect.stringMatching(/^https:/),
    });
    expect(shipment.attributes.tracking).toMatchObject({ stage: 'LABELLED', status: 'OK', number: expect.any(String) });
    expect(shipment.attributes.colli).toEqual([
      { number: 1, parcelNumber: shipment.attributes.tracking.number, trackingUrl: shipment.attributes.tracking.url },
    ]);
    const shirt = document.included.find((i: any) => i.attributes.sku === 'SHIRT').attributes;
    const mug = document.included.find((i: any) => i.attributes.sku === 'MUG').attributes;
    expect(shirt.serialNumbers).toHaveLength(2);
    expect(mug.lotNumber).toEqual(expect.any(String));

    expect(await levelsOf('SHIRT')).toMatchObject({ physical: 8, outbound: 0, free: 8 });
    expect((await mutationsOf('SHIRT')).map((m: any) => [m.type, m.quantity])).toEqual([
      ['INBOUND', 10],
      ['SHIPMENT', -2],
    ]);
    const [order] = await sb.database.db.select().from(schema.orders).where(eq(schema.orders.id, orderId));
    expect(order.fulfilledAt).not.toBeNull();
    expect(
      (
        await call('PUT', `/v3/orders/${orderId}`, {
          data: {
            type: 'order',
            id: orderId,
            attributes: { externalOrderNumber: order.externalOrderNumber, locale: 'nl-NL', onHold: false },
          },
        })
      ).status,
    ).toBe(422);
  });

  it('moves the tracking stage after SHIPPED until DELIVERED, and the shipment never changes otherwise', async () => {
    const before = (await shipmentsOf(orderId)).data[0].attributes;
    const stages = [];
    for (let i = 0; i < 5; i++) {
      await advance(step);
      stages.push((await shipmentsOf(orderId)).data[0].attributes.tracking.stage);
    }
    expect(stages).toEqual(['ACCEPTED', 'SORTED', 'IN_DELIVERY', 'DELIVERED', 'DELIVERED']);
    const after = (await shipmentsOf(orderId)).data[0].attributes;
    expect({ ...after, tracking: null }).toEqual({ ...before, tracking: null });
  });

  it('keeps an order on hold, waits for stock without partial delivery, ships what there is with it, and ships bundles as their parts', async () => {
    const onHold = await placeOrder([{ sku: 'SHIRT', quantity: 1 }], { attributes: { onHold: true } });
    const waits = await placeOrder([{ sku: 'CHEESE', quantity: 9 }]);
    const bundle = await placeOrder([{ sku: 'GIFTBOX', quantity: 2 }]);
    const partial = await placeOrder(
      [
        { sku: 'CHEESE', quantity: 3 },
        { sku: 'MUG', quantity: 50 },
      ],
      { attributes: { allowPartialDelivery: true } },
    );
    await advance(1);
    expect((await shipmentsOf(onHold)).data).toEqual([]);
    expect((await shipmentsOf(waits)).data).toEqual([]);
    const partialShipment = await shipmentsOf(partial);
    expect(partialShipment.included.map((i: any) => [i.attributes.sku, i.attributes.quantity])).toEqual([
      ['CHEESE', 3],
      ['MUG', 1],
    ]);
    const bundleShipment = await shipmentsOf(bundle);
    expect(bundleShipment.included.map((i: any) => [i.attributes.sku, i.attributes.quantity])).toEqual([
      ['GIFTBOX', 2],
      ['SHIRT', 2],
      ['MUG', 4],
    ]);
    expect(bundleShipment.included.find((i: any) => i.attributes.sku === 'MUG').relationships.orderItem.data).toBeNull();

    await advance(4 * step);
    expect((await shipmentsOf(partial)).data[0].attributes.status).toBe('SHIPPED');
    expect((await shipmentsOf(bundle)).data[0].attributes.status).toBe('SHIPPED');
    expect(await levelsOf('MUG')).toMatchObject({ physical: 0, free: 0 });
    expect(await levelsOf('SHIRT')).toMatchObject({ physical: 6 });
    // The partly shipped order is not fulfilled and waits for more mugs.
    const [partialOrder] = await sb.database.db.select().from(schema.orders).where(eq(schema.orders.id, partial));
    expect(partialOrder.fulfilledAt).toBeNull();
  });

  it('puts a shipment in ERROR when a NL address has no house number; an operator resolves it with advance', async () => {
    const orderWithoutNumber = await placeOrder([{ sku: 'SHIRT', quantity: 1 }], { delivery: { houseNumber: undefined } });
    await advance(1);
    const [shipment] = (await shipmentsOf(orderWithoutNumber)).data;
    expect(shipment.attributes.status).toBe('ERROR');
    await advance(3 * step);
    expect((await shipmentsOf(orderWithoutNumber)).data[0].attributes.status).toBe('ERROR');
    const resolved = await call('POST', `/sandbox/shipments/${shipment.id}/advance`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.attributes.status).toBe('READY_TO_PICK');
    await advance(3 * step);
    expect((await shipmentsOf(orderWithoutNumber)).data[0].attributes.status).toBe('SHIPPED');
    expect((await call('POST', `/sandbox/shipments/${shipment.id}/error`)).status).toBe(409);
  });

  it('ships an order now whatever the stock, booking the missing goods in with a CORRECTION (ADJUSTMENT)', async () => {
    const id = await placeOrder([{ sku: 'MUG', quantity: 2 }]);
    const shipped = await call('POST', `/sandbox/orders/${id}/ship`);
    expect(shipped.status, shipped.raw).toBe(201);
    expect(shipped.body.data.attributes.status).toBe('SHIPPED');
    const mugs = await mutationsOf('MUG');
    expect(mugs.slice(-2).map((m: any) => [m.type, m.correctionCode, m.quantity])).toEqual([
      ['CORRECTION', 'ADJUSTMENT', 2],
      ['SHIPMENT', null, -2],
    ]);
    expect(await levelsOf('MUG')).toMatchObject({ physical: 0 });
  });

  it('puts a shipment in ERROR when its reserved goods are gone at shipping; advance answers 409 until they are back', async () => {
    const reserved = await placeOrder([{ sku: 'SHIRT', quantity: 1 }]);
    await advance(1);
    const [shipment] = (await shipmentsOf(reserved)).data;
    expect(shipment.attributes.status).toBe('READY_TO_PICK');
    // "Ship now" takes what is on the shelf, reserved or not.
    const physical = (await levelsOf('SHIRT')).physical;
    expect((await call('POST', `/sandbox/orders/${await placeOrder([{ sku: 'SHIRT', quantity: physical }])}/ship`)).status).toBe(201);
    await advance(3 * step);
    expect((await shipmentsOf(reserved)).data[0].attributes.status).toBe('ERROR');
    expect((await call('POST', `/sandbox/shipments/${shipment.id}/advance`)).body.data.attributes.status).toBe('READY_TO_PICK');
    expect((await call('POST', `/sandbox/shipments/${shipment.id}/advance`)).body.data.attributes.status).toBe('READY_TO_SORT');
    expect((await call('POST', `/sandbox/shipments/${shipment.id}/advance`)).body.data.attributes.status).toBe('READY_TO_SHIP');
    const refused = await call('POST', `/sandbox/shipments/${shipment.id}/advance`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].detail).toMatch(/Not enough stock of "SHIRT"/);
    expect(await levelsOf('SHIRT')).toMatchObject({ physical: 0, outbound: 1, free: 0 });
  });

  it('returns goods of a shipment: return items with condition, RETURN mutations, damaged goods in DAMAGED quality', async () => {
    const [shipment] = (await shipmentsOf(orderId)).data;
    const returned = await call('POST', `/sandbox/shipments/${shipment.id}/return`, {
      items: [
        { sku: 'SHIRT', quantity: 1, condition: 'RETURN' },
        { sku: 'MUG', quantity: 1, condition: 'DAMAGED', comment: 'Broken handle' },
      ],
    });
    expect(returned.status, returned.raw).toBe(201);
    expect(returned.body.data.map((r: any) => [r.attributes.sku, r.attributes.condition, r.attributes.restockIn])).toEqual([
      ['SHIRT', 'RETURN', 'NR'],
      ['MUG', 'DAMAGED', null],
    ]);
    const listed = (await call('GET', '/v3/returnItems')).body.data;
    expect(listed.map((r: any) => r.id)).toEqual(returned.body.data.map((r: any) => r.id));
    expect((await mutationsOf('SHIRT')).at(-1)).toMatchObject({ type: 'RETURN', quantity: 1 });
    expect(await levelsOf('MUG')).toMatchObject({ physical: 1, damaged: 1, stock: 0 });
    const notShipped = await placeOrder([{ sku: 'SHIRT', quantity: 1 }], { attributes: { onHold: true } });
    expect(
      (await call('POST', `/sandbox/shipments/${shipment.id}/return`, { items: [{ sku: 'CHEESE', quantity: 1, condition: 'RETURN' }] }))
        .status,
    ).toBe(404);
    expect(notShipped).toBeGreaterThan(0);
  });

  it('completes the CHECKED inbound 2 hours later on the clock, and its packing slip', async () => {
    await advance(2 * 3600);
    const inbound = (await call('GET', `/v3/inbounds/${inboundId}`)).body.data.attributes;
    expect(inbound.status).toBe('COMPLETED');
    expect((await call('GET', `/v3/inboundPackingSlips/${slipId}`)).body.data.attributes.status).toBe('COMPLETED');
  });

  it('sends every event to the receiver, signed, in order per entity, also after the receiver failed for a while', async () => {
    receiver.answer = 500;
    const failed = await dispatchDue(sb.database.db, { allowPrivateTargets: true });
    expect(failed.attempted).toBeGreaterThan(10);
    expect(failed.delivered).toBe(0);
    receiver.answer = 200;
    const retried = await dispatchDue(sb.database.db, { allowPrivateTargets: true }, new Date(Date.now() + 10_000));
    expect(retried).toEqual({ attempted: failed.attempted, delivered: failed.attempted });
    expect(receiver.requests).toHaveLength(2 * failed.attempted);
    const got = receiver.delivered();
    expect(got).toHaveLength(failed.attempted);
    expect(got.every((r) => r.verified)).toBe(true);
    const byEntity = new Map<string, string[]>();
    for (const r of got) byEntity.set(`${r.data.type}:${r.data.id}`, [...(byEntity.get(`${r.data.type}:${r.data.id}`) ?? []), r.type]);
    const [firstShipment] = (await shipmentsOf(orderId)).data;
    expect(byEntity.get(`shipment:${firstShipment.id}`)).toEqual([
      'shipment.created.3',
      'shipment.readyToPick.3',
      'shipment.readyToShip.3',
      'shipment.shipped.3',
    ]);
    expect(byEntity.get(`inbound:${inboundId}`)).toEqual([
      'inbound.processing',
      'inbound.checking',
      'inbound.checked',
      'inbound.processed',
    ]);
    const shipped = got.find((r) => r.type === 'shipment.shipped.3' && r.data.id === firstShipment.id)!;
    expect(shipped.data.attributes.status).toBe('SHIPPED');
    expect(shipped.data.links.self).toBe(`http://sandbox.test/v3/shipments/${firstShipment.id}`);
  });

  it('moves perishable stock OK → WARNING → OVERDUE → EXPIRED as the clock passes the margins', async () => {
    const cheese = (await call('GET', '/v3/stock?filter[sku][in]=CHEESE')).body.data[0].attributes;
    const now = new Date((await advance(1)).body.data.attributes.now);
    const daysLeft = Math.round((Date.parse(cheese.expirationDate) - Date.parse(now.toISOString().slice(0, 10))) / 86_400_000);
    const statuses = [];
    for (const target of [31, 29, 9, 0]) {
      const current = new Date((await advance(1)).body.data.attributes.now);
      const remaining = Math.round((Date.parse(cheese.expirationDate) - Date.parse(current.toISOString().slice(0, 10))) / 86_400_000);
      if (remaining > target) await advance((remaining - target) * 86_400);
      statuses.push((await call('GET', '/v3/stock?filter[sku][in]=CHEESE')).body.data[0].attributes.expirationStatus);
    }
    expect(daysLeft).toBeGreaterThan(31);
    expect(statuses).toEqual(['OK', 'WARNING', 'OVERDUE', 'EXPIRED']);
    expect(await levelsOf('CHEESE')).toMatchObject({ expired: 2, stock: 0 });
  });

  it("moves only the caller's clock", async () => {
    const other = await sb.newClient();
    const [row] = await sb.database.db.select().from(schema.clients).where(eq(schema.clients.id, other.id));
    expect(row.clockOffsetSeconds).toBe(0);
  });
});
