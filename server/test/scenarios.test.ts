// The test scenarios, walked from the catalogue itself: every road is created through v3 and through v2 with its
// marker, the clock moves one warehouse step at a time, and each step's statuses, tracking, v2 codes and webhook events
// must be what GET /sandbox/scenarios says. Also the controls' refusals, and the ordinary road left as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { ordinaryRoad, scenarioMarkerPrefix, scenarios, type Scenario, type ScenarioStep } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProduct, orderDocument, uniqueNumber } from './support/fixtures.ts';
import { receiveGoods } from './support/inventory.ts';
import { v2Order } from './support/v2.ts';

let sb: TestSandbox;
const step = 30;

beforeAll(async () => {
  sb = await startSandbox({ sandboxStepSeconds: step });
});
afterAll(() => sb.close());

const marker = (name: string) => `${scenarioMarkerPrefix}${name}`;
const usAddress = { street1: 'Main Street', houseNumber: '1', postcode: '10001', city: 'New York', countryCode: 'US' };

/** A client with product SKU-A, and `stock` units of it in NR. */
async function clientWithStock(stock: number) {
  const client = await sb.newClient();
  const call = (method: string, url: string, body?: unknown) => sb.call(method, url, { token: client.token, body });
  expect((await call('POST', '/v3/products', { data: { type: 'product', attributes: { sku: 'SKU-A', name: 'A' } } })).status).toBe(201);
  if (stock) await receiveGoods(sb, client, [{ sku: 'SKU-A', quantity: stock }]);
  return { client, call };
}

type Api = 'v3' | 'v2';

/** Creates an order of `quantity` SKU-A through one API, with `extra1` as its first free field. */
async function createOrder(
  client: TestClient,
  api: Api,
  extra1: string | null,
  opts: { quantity?: number; us?: boolean; partial?: boolean } = {},
) {
  const quantity = opts.quantity ?? 2;
  if (api === 'v3') {
    const answer = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, {
        items: [{ sku: 'SKU-A', quantity, price: 10 }],
        attributes: { metadata: { extra1 }, allowPartialDelivery: opts.partial ?? false },
        ...(opts.us ? { delivery: usAddress } : {}),
      }),
    });
    expect(answer.status, answer.raw).toBe(201);
    return { id: answer.body.data.id as number, headers: answer.headers };
  }
  const answer = await sb.call('POST', '/order/add', {
    token: client.token,
    body: v2Order({
      orderTypeId: client.orderTypeIds[0],
      languageId: client.languageIds[0],
      extra1,
      partialDelivery: opts.partial ?? false,
      orderItems: [{ sku: 'SKU-A', quantity, price: 10, vat: 21 }],
      ...(opts.us
        ? {
            deliveryAddressStreet: usAddress.street1,
            deliveryAddressHouseNumber: 1,
            deliveryAddressPostalCode: usAddress.postcode,
            deliveryAddressCityName: usAddress.city,
            deliveryAddressCountryIso: 'US',
          }
        : {}),
    }),
  });
  expect(answer.body.messageCode, answer.raw).toBe('OK');
  return { id: answer.body.result as number, headers: answer.headers };
}

const warningsOf = (headers: Record<string, unknown>) => [headers['sandbox-warning'] ?? []].flat().join('\n');

/** The event types each of these shipments emitted, in emission order. */
async function eventsOf(shipmentIds: number[]) {
  const rows = await sb.database.db
    .select({ type: schema.events.type, entityId: schema.events.entityId })
    .from(schema.events)
    .where(and(eq(schema.events.entity, 'shipment'), inArray(schema.events.entityId, shipmentIds)))
    .orderBy(asc(schema.events.sequence));
  return rows;
}

/** Where the road says shipment `n` is at step `at`: its last step reached, and the events of a step at exactly `at`. */
function expectedAt(steps: readonly ScenarioStep[], n: number, at: number) {
  const own = steps.filter((s) => (s.shipment ?? 1) === n);
  return { state: own.filter((s) => s.at <= at).pop()!, events: own.filter((s) => s.at === at).flatMap((s) => s.events) };
}

/**
 * Walks the order's shipments along `steps` one warehouse step at a time from their creation (the next advance), checking
 * each step against the live API: v3 status and tracking, the v2 track-trace code, and the events emitted at that step.
 */
async function walk(client: TestClient, orderId: number, steps: readonly ScenarioStep[]) {
  const call = (method: string, url: string, body?: unknown) => sb.call(method, url, { token: client.token, body });
  const last = Math.max(...steps.map((s) => s.at));
  const shipmentCount = Math.max(...steps.map((s) => s.shipment ?? 1));
  let seen = 0;
  let ids: number[] = [];
  for (let at = 0; at <= last; at++) {
    expect((await call('POST', '/sandbox/clock/advance', { seconds: at === 0 ? 1 : step })).status).toBe(200);
    const listed = (await call('GET', `/v3/shipments?orderId=${orderId}`)).body.data;
    ids = listed.map((s: { id: number }) => s.id);
    expect(ids.length, `shipments at step ${at}`).toBe(shipmentCount);
    const trackTrace = (await call('GET', '/v2/shipment/tracktracestatus')).body.result as {
      shipmentId: number;
      currentTrackTraceStatus: number;
    }[];
    const events = await eventsOf(ids);
    for (const [index, shipment] of listed.entries()) {
      const { state, events: due } = expectedAt(steps, index + 1, at);
      const where = `shipment ${index + 1} at step ${at} (${state.description})`;
      expect(shipment.attributes.status, where).toBe(state.status);
      expect(shipment.attributes.tracking?.stage ?? undefined, where).toBe(state.trackingStage);
      if (state.trackingStatus) expect(shipment.attributes.tracking.status, where).toBe(state.trackingStatus);
      const code = trackTrace.find((t) => t.shipmentId === shipment.id)?.currentTrackTraceStatus;
      // A delivered parcel leaves the v2 track-trace list (it is no longer in transit).
      expect(code, where).toBe(state.trackingStage === 'DELIVERED' ? undefined : state.trackTraceCode);
      expect(
        events
          .slice(seen)
          .filter((e) => e.entityId === shipment.id)
          .map((e) => e.type),
        where,
      ).toEqual(due);
    }
    seen = events.length;
  }
  return ids;
}

const walked = scenarios.filter((s) => s.subject === 'order' && s.trigger.marker);

describe.each(['v3', 'v2'] as const)('an order created through %s with a sandbox-scenario marker', (api) => {
  it.each(walked.map((s) => [s.name, s] as [string, Scenario]))('walks the %s road step by step', async (_name, scenario) => {
    const { client, call } = await clientWithStock(10);
    const order = await createOrder(client, api, marker(scenario.name), { us: scenario.name === 'customs' });
    expect(warningsOf(order.headers)).toContain(`the order follows the test scenario ${scenario.name}`);
    expect(order.headers['sandbox-scenario']).toBe(scenario.name);
    expect((await call('GET', `/sandbox/orders/${order.id}/scenario`)).body.data.attributes).toMatchObject({
      name: scenario.name,
      setBy: 'marker',
      waitingForStock: [],
    });
    const ids = await walk(client, order.id, scenario.steps);

    const mutations = (await call('GET', '/v3/stockMutations')).body.data.map((m: any) => m.attributes.type);
    for (const type of new Set(scenario.steps.flatMap((s) => s.stockMutations ?? []))) expect(mutations).toContain(type);
    if (scenario.name === 'split') {
      const shipments = (await call('GET', `/v3/shipments?orderId=${order.id}&include=shipmentItems`)).body;
      const numbers = shipments.data.map((s: any) => s.attributes.tracking.number);
      expect(new Set(numbers).size).toBe(2);
      expect(shipments.included.map((i: any) => i.attributes.quantity)).toEqual([1, 1]);
    }
    if (scenario.name === 'lots-and-serials') {
      const items = (await call('GET', `/v3/shipments/${ids[0]}?include=shipmentItems`)).body.included;
      for (const item of items) {
        expect(item.attributes.lotNumber).toMatch(/^LOT-/);
        expect(item.attributes.expirationDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(item.attributes.serialNumbers).toHaveLength(item.attributes.quantity);
      }
    }
    if (scenario.name === 'refused-returned' || scenario.name === 'damaged-return') {
      const items = (await call('GET', '/v3/returnItems')).body.data;
      expect(items.map((i: any) => i.attributes.condition)).toEqual([scenario.name === 'damaged-return' ? 'DAMAGED' : 'RETURN']);
      // Refused goods go back to stock: 10 received, 2 shipped, 2 back.
      if (scenario.name === 'refused-returned') {
        const levels = (await call('GET', '/v3/stockLevels')).body.data[0].attributes.levels;
        expect(levels.find((l: any) => l.warehouse === 'NR').physical).toBe(10);
      }
    }
  });

  it('walks the waits-for-stock road: no shipment until an inbound brings the goods', async () => {
    const { client, call } = await clientWithStock(0);
    const order = await createOrder(client, api, null);
    expect(order.headers['sandbox-scenario']).toBe('waits-for-stock; not in free stock in NR: SKU-A 2');
    // Said at once, in the answer and the request log: the order is accepted and waits for its goods.
    expect(warningsOf(order.headers)).toContain('scenario: not in free stock in NR: SKU-A 2; the order waits until goods arrive');
    await call('POST', '/sandbox/clock/advance', { seconds: 10 * step });
    expect((await call('GET', `/v3/shipments?orderId=${order.id}`)).body.data).toEqual([]);
    expect((await call('GET', `/sandbox/orders/${order.id}/scenario`)).body.data.attributes).toMatchObject({
      name: 'waits-for-stock',
      setBy: 'condition',
      waitingForStock: [{ sku: 'SKU-A', quantity: 2 }],
      reached: [],
    });
    await receiveGoods(sb, client, [{ sku: 'SKU-A', quantity: 2 }]);
    const road = scenarios.find((s) => s.name === 'waits-for-stock')!.steps.filter((s) => s.after === 'goodsReceived');
    await walk(client, order.id, road);
  });

  it('walks the partial-delivery road: what is in stock first, the rest in a second shipment', async () => {
    const { client, call } = await clientWithStock(1);
    const order = await createOrder(client, api, null, { quantity: 3, partial: true });
    expect(order.headers['sandbox-scenario']).toBe('partial-delivery; not in free stock in NR: SKU-A 2');
    expect(warningsOf(order.headers)).toContain(
      'not in free stock in NR: SKU-A 2; the order ships what is in stock and the rest when goods arrive',
    );
    const road = scenarios.find((s) => s.name === 'partial-delivery')!.steps;
    await walk(
      client,
      order.id,
      road.filter((s) => !s.after),
    );
    expect((await call('GET', `/sandbox/orders/${order.id}/scenario`)).body.data.attributes).toMatchObject({
      name: 'partial-delivery',
      waitingForStock: [{ sku: 'SKU-A', quantity: 2 }],
    });
    await receiveGoods(sb, client, [{ sku: 'SKU-A', quantity: 2 }]);
    // The first shipment is delivered; the second walks its road from its creation.
    const second = road.filter((s) => s.after).map((s) => ({ ...s, shipment: 1 }));
    const before = (await call('GET', `/v3/shipments?orderId=${order.id}`)).body.data.length;
    expect(before).toBe(1);
    await call('POST', '/sandbox/clock/advance', { seconds: 1 });
    const listed = (await call('GET', `/v3/shipments?orderId=${order.id}&include=shipmentItems`)).body;
    expect(listed.data.map((s: any) => s.attributes.status)).toEqual(['SHIPPED', second[0].status]);
    expect(listed.included.map((i: any) => i.attributes.quantity)).toEqual([1, 2]);
  });

  it('takes the ordinary road without a marker, and a warning but the ordinary road with an unknown name', async () => {
    const { client, call } = await clientWithStock(10);
    const plain = await createOrder(client, api, null);
    expect(warningsOf(plain.headers)).not.toContain('scenario');
    expect(plain.headers['sandbox-scenario']).toBeUndefined();
    await walk(client, plain.id, ordinaryRoad);
    const unknown = await createOrder(client, api, marker('no-such-road'));
    expect(warningsOf(unknown.headers)).toContain('"no-such-road" is not a scenario');
    expect((await call('GET', `/sandbox/orders/${unknown.id}/scenario`)).body.data.attributes.name).toBeNull();
    const customsInEu = await createOrder(client, api, marker('customs'));
    expect(warningsOf(customsInEu.headers)).toContain('customs needs a destination outside the EU');
  });
});

describe.each(['inbound-short', 'inbound-over'] as const)('a packing slip with the %s marker', (name) => {
  it('receives one unit less or more of each item on its expected day', async () => {
    const { call } = await clientWithStock(0);
    const today = (await call('GET', '/sandbox/clock')).body.data.attributes.now.slice(0, 10);
    const slip = await call('POST', '/v3/inboundPackingSlips', {
      data: {
        type: 'inboundPackingSlip',
        attributes: { expectedIn: 'NR', expectedOn: today, reference: uniqueNumber('PS'), metadata: { extra2: marker(name) } },
      },
      included: [{ type: 'inboundPackingSlipItem', attributes: { sku: 'SKU-A', quantity: 5 } }],
    });
    expect(slip.status, slip.raw).toBe(201);
    await call('POST', '/sandbox/clock/advance', { seconds: 1 });
    const [expected] = scenarios.find((s) => s.name === name)!.steps;
    const read = (await call('GET', `/v3/inboundPackingSlips/${slip.body.data.id}?include=inboundPackingSlipItems`)).body;
    expect(read.data.attributes.status).toBe(expected.packingSlipStatus);
    expect(read.included[0].attributes.received).toBe(name === 'inbound-short' ? 4 : 6);
    const inbounds = (await call('GET', '/v3/inbounds')).body.data;
    expect(inbounds.map((i: any) => i.attributes.status)).toEqual([expected.inboundStatus]);
    const events = await sb.database.db
      .select({ type: schema.events.type })
      .from(schema.events)
      .where(and(eq(schema.events.entity, 'inbound'), eq(schema.events.entityId, inbounds[0].id)))
      .orderBy(asc(schema.events.sequence));
    expect(events.map((e) => e.type)).toEqual(expected.events);
    const levels = (await call('GET', '/v3/stockLevels')).body.data[0].attributes.levels;
    expect(levels.find((l: any) => l.warehouse === 'NR').physical).toBe(name === 'inbound-short' ? 4 : 6);
  });
});

describe('PUT /sandbox/orders/{id}/scenario', () => {
  it('puts an order on a road before it ships, and answers 404, 422 and 409 as documented', async () => {
    const { client } = await clientWithStock(10);
    const order = await createOrder(client, 'v3', null);
    const put = (id: number, name: unknown, token = client.token) =>
      sb.call('PUT', `/sandbox/orders/${id}/scenario`, { token, body: { data: { type: 'orderScenario', attributes: { name } } } });

    const set = await put(order.id, 'first-attempt-failed');
    expect(set.status, set.raw).toBe(200);
    expect(set.body.data).toMatchObject({
      type: 'orderScenario',
      id: order.id,
      attributes: { name: 'first-attempt-failed', setBy: 'control' },
    });

    const other = await sb.newClient();
    expect((await put(order.id, 'split', other.token)).status).toBe(404);
    expect((await sb.call('GET', `/sandbox/orders/${order.id}/scenario`, { token: other.token })).status).toBe(404);

    const unknown = await put(order.id, 'no-such-road');
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source).toEqual({ pointer: '/data/attributes/name' });
    expect((await put(order.id, 'waits-for-stock')).status).toBe(422);
    expect((await put(order.id, 'customs')).status).toBe(422);

    await walk(client, order.id, scenarios.find((s) => s.name === 'first-attempt-failed')!.steps);
    expect((await put(order.id, null)).status).toBe(409);
  });

  it('resolves a warehouse problem at once by the operator control, which skips the rest of the wait', async () => {
    const { client, call } = await clientWithStock(10);
    const order = await createOrder(client, 'v3', marker('warehouse-problem'));
    await call('POST', '/sandbox/clock/advance', { seconds: 1 + step });
    const [shipment] = (await call('GET', `/v3/shipments?orderId=${order.id}`)).body.data;
    expect(shipment.attributes.status).toBe('ERROR');
    expect((await call('GET', `/sandbox/orders/${order.id}/scenario`)).body.data.attributes.problem).toMatch(/warehouse-problem/);
    const resolved = await call('POST', `/sandbox/shipments/${shipment.id}/advance`);
    expect(resolved.body.data.attributes.status).toBe('READY_TO_PICK');
  });
});

describe('an order for goods not all in free stock', () => {
  it("names on create what GET .../scenario says it waits for: a bundle's parts, no service, stock others reserved", async () => {
    const { client, call } = await clientWithStock(0);
    const product = (sku: string, attributes: Record<string, unknown> = {}, parts?: { id: number; quantity: number }[]) =>
      createProduct(sb, client.token, sku, attributes, parts);
    const shirt = await product('SHIRT');
    const mug = await product('MUG');
    await product('GIFTBOX', { type: 'BUNDLE' }, [
      { id: shirt, quantity: 1 },
      { id: mug, quantity: 2 },
    ]);
    await product('WRAPPING', { type: 'SERVICE' });
    await receiveGoods(sb, client, [
      { sku: 'SHIRT', quantity: 5 },
      { sku: 'MUG', quantity: 3 },
      { sku: 'SKU-A', quantity: 1 },
    ]);
    // Another order takes the SKU-A there is and ships: its shipment holds it.
    const first = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: [{ sku: 'SKU-A', quantity: 1 }] }),
    });
    expect(first.status, first.raw).toBe(201);
    await call('POST', '/sandbox/clock/advance', { seconds: step });

    const answer = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, {
        items: [
          { sku: 'GIFTBOX', quantity: 2 },
          { sku: 'WRAPPING', quantity: 1 },
          { sku: 'SKU-A', quantity: 1 },
          { sku: 'MUG', quantity: 1 },
        ],
      }),
    });
    expect(answer.status, answer.raw).toBe(201);
    // Two gift boxes need 2 shirts (5 there) and 4 mugs, one more mug besides: 5 mugs of 3; SKU-A is held by the first order.
    expect(answer.headers['sandbox-scenario']).toBe('waits-for-stock; not in free stock in NR: MUG 2, SKU-A 1');
    const road = await call('GET', `/sandbox/orders/${answer.body.data.id}/scenario`);
    expect(road.body.data.attributes.waitingForStock).toEqual([
      { sku: 'MUG', quantity: 2 },
      { sku: 'SKU-A', quantity: 1 },
    ]);
    // The order's own warehouse counts, not the client's default one: the shirts are in NR, none in DD.
    const elsewhere = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { attributes: { fulfillFrom: 'DD' }, items: [{ sku: 'SHIRT', quantity: 1 }] }),
    });
    expect(elsewhere.status, elsewhere.raw).toBe(201);
    expect(elsewhere.headers['sandbox-scenario']).toBe('waits-for-stock; not in free stock in DD: SHIRT 1');
    // What is in stock gives no warning and no header.
    const covered = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: [{ sku: 'SHIRT', quantity: 5 }] }),
    });
    expect(covered.status, covered.raw).toBe(201);
    expect(covered.headers['sandbox-scenario']).toBeUndefined();
  });
});
