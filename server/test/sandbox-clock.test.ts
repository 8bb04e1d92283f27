// The client's own clock: GET /sandbox/clock reads it, POST /sandbox/clock/advance moves it, and no other client's; a
// long advance answers at once and the warehouse catches up in slices, in clock order, on whichever process is alive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { buildApp } from '../src/app.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';
import { receiveGoods } from './support/inventory.ts';

let sb: TestSandbox;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const readClock = async (client: TestClient, on = sb) => {
  const answer = await on.call('GET', '/sandbox/clock', { token: client.token });
  expect(answer.status, answer.raw).toBe(200);
  return answer.body.data as { type: string; id: number; attributes: ClockAttributes };
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

// ---- advances that take a while: the warehouse catches up in slices while the clock shows how far it got

type ClockAttributes = { now: string; offsetSeconds: number; status: string; advancingTo?: string; progress?: number };

/** GET /sandbox/clock until it is ready (each read checked against the contract). */
async function untilReady(on: TestSandbox, client: TestClient, seen: ClockAttributes[] = []): Promise<ClockAttributes> {
  // Three minutes at most: the catch-up is quick alone, but a loaded machine (CI's 2 cores, test files side by side) slows it.
  for (const until = Date.now() + 180_000; Date.now() < until; ) {
    const answer = await on.call('GET', '/sandbox/clock', { token: client.token });
    expect(answer.status, answer.raw).toBe(200);
    const attributes = answer.body.data.attributes as ClockAttributes;
    seen.push(attributes);
    if (attributes.status === 'ready') return attributes;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the clock did not become ready within three minutes');
}

/** A client with a stocked product and `count` released orders for one of it each. */
async function clientWithOpenOrders(on: TestSandbox, count: number) {
  const client = await on.newClient();
  await createProducts(on, client.token, ['SKU-CLOCK']);
  await receiveGoods(on, client, [{ sku: 'SKU-CLOCK', quantity: count }]);
  const orderIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const order = await on.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: [{ sku: 'SKU-CLOCK', quantity: 1 }] }),
    });
    expect(order.status, order.raw).toBe(201);
    orderIds.push(order.body.data.id);
  }
  return { client, orderIds };
}

const shipmentsOf = async (on: TestSandbox, client: TestClient) =>
  (await on.call('GET', '/v3/shipments?page[size]=100', { token: client.token })).body.data as {
    id: number;
    attributes: { status: string; tracking: { stage: string } | null };
  }[];

describe('POST /sandbox/clock/advance, short', () => {
  it('answers 200 with status ready and no progress once everything due has been done', async () => {
    const { client } = await clientWithOpenOrders(sb, 2);
    const advanced = await sb.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 86_400 } });
    expect(advanced.status, advanced.raw).toBe(200);
    expect(advanced.body.data.attributes).toEqual({ now: expect.any(String), offsetSeconds: 86_400, status: 'ready' });
    const shipments = await shipmentsOf(sb, client);
    expect(shipments.map((s) => [s.attributes.status, s.attributes.tracking?.stage])).toEqual([
      ['SHIPPED', 'DELIVERED'],
      ['SHIPPED', 'DELIVERED'],
    ]);
  });

  it(`refuses with 409 an advance that would take the clock more than ${limits.clockAheadMaxSeconds} seconds ahead`, async () => {
    const client = await sb.newClient();
    const nearTheEnd = limits.clockAheadMaxSeconds - 3600;
    await sb.database.db.update(schema.clients).set({ clockOffsetSeconds: nearTheEnd }).where(eq(schema.clients.id, client.id));
    const refused = await sb.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 3601 } });
    expect(refused.status, refused.raw).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({ code: '409', detail: expect.stringContaining('ahead of real time') });
    expect((await readClock(client)).attributes).toMatchObject({ offsetSeconds: nearTheEnd, status: 'ready' });
    expect((await sb.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 3600 } })).status).toBe(200);
  });
});

describe('POST /sandbox/clock/advance, longer than the wait', { timeout: 240_000 }, () => {
  // No wait: every advance with work to do answers 202 at once.
  let busy: TestSandbox;
  beforeAll(async () => {
    busy = await startSandbox({ sandboxAdvanceWaitMs: 0 });
  });
  afterAll(() => busy.close());

  it('answers 202 advancing with its target and progress; GET /sandbox/clock shows it moving until ready', async () => {
    const { client } = await clientWithOpenOrders(busy, 20);
    const seconds = 30 * 86_400;
    const started = Date.now();
    const advanced = await busy.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds } });
    expect(advanced.status, advanced.raw).toBe(202);
    const attributes = advanced.body.data.attributes as ClockAttributes;
    expect(attributes.status).toBe('advancing');
    expect(attributes.offsetSeconds).toBeLessThan(seconds);
    expect(Date.parse(attributes.advancingTo!) - started).toBeGreaterThanOrEqual(seconds * 1000);
    expect(Date.parse(attributes.advancingTo!) - Date.now()).toBeLessThanOrEqual(seconds * 1000);
    expect(attributes.progress).toBeGreaterThanOrEqual(0);
    expect(attributes.progress).toBeLessThan(1);

    const seen: ClockAttributes[] = [];
    const ready = await untilReady(busy, client, seen);
    expect(ready).toEqual({ now: expect.any(String), offsetSeconds: seconds, status: 'ready' });
    const advancing = seen.filter((clock) => clock.status === 'advancing');
    expect(advancing.length).toBeGreaterThan(0);
    // The clock only moves forward, and shows where it goes.
    const offsets = advancing.map((clock) => clock.offsetSeconds);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(advancing.every((clock) => Math.abs(Date.parse(clock.advancingTo!) - Date.parse(attributes.advancingTo!)) < 60_000)).toBe(true);
    const shipments = await shipmentsOf(busy, client);
    expect(shipments).toHaveLength(20);
    expect(shipments.every((s) => s.attributes.status === 'SHIPPED' && s.attributes.tracking?.stage === 'DELIVERED')).toBe(true);
  });

  it('refuses a second advance and the controls that move the warehouse with 409 while it advances, and changes nothing', async () => {
    const { client, orderIds } = await clientWithOpenOrders(busy, 20);
    const extra = await busy.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { attributes: { onHold: true }, items: [{ sku: 'SKU-CLOCK', quantity: 1 }] }),
    });
    expect(extra.status, extra.raw).toBe(201);
    expect((await busy.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 86_400 } })).status).toBe(202);

    const second = await busy.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 60 } });
    expect(second.status, second.raw).toBe(409);
    expect(second.body.errors[0]).toMatchObject({ code: '409', detail: expect.stringContaining('already advancing') });
    const ship = await busy.call('POST', `/sandbox/orders/${extra.body.data.id}/ship`, { token: client.token });
    expect(ship.status, ship.raw).toBe(409);
    expect(ship.body.errors[0].detail).toContain('GET /sandbox/clock');

    const ready = await untilReady(busy, client);
    expect(ready.offsetSeconds).toBe(86_400);
    const shipments = await shipmentsOf(busy, client);
    expect(shipments).toHaveLength(orderIds.length);
    expect((await busy.call('POST', `/sandbox/orders/${extra.body.data.id}/ship`, { token: client.token })).status).toBe(201);
  });

  it('shares the worker between clients advancing at once: both clocks move before either is ready', async () => {
    const first = await clientWithOpenOrders(busy, 15);
    const second = await clientWithOpenOrders(busy, 15);
    for (const { client } of [first, second])
      expect((await busy.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 86_400 } })).status).toBe(202);
    let bothMoved = false;
    for (let reads = 0; reads < 1200 && !bothMoved; reads++) {
      const clocks = await Promise.all([first, second].map(({ client }) => readClock(client, busy)));
      if (clocks.some((clock) => clock.attributes.status === 'ready')) break;
      bothMoved = clocks.every((clock) => clock.attributes.offsetSeconds > 0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(bothMoved).toBe(true);
    await untilReady(busy, first.client);
    await untilReady(busy, second.client);
  });

  it('finishes an advance that a process left: its lease runs out and another process takes it over', async () => {
    const { client } = await clientWithOpenOrders(busy, 3);
    // What a process killed mid-advance leaves behind: the target set, a lease nobody renews.
    await busy.database.db
      .update(schema.clients)
      .set({
        advanceFromOffsetSeconds: 0,
        advanceToOffsetSeconds: 7200,
        warehouseLeaseOwner: 'a process that died',
        warehouseLeaseUntil: new Date(Date.now() - 1000),
      })
      .where(eq(schema.clients.id, client.id));
    expect((await readClock(client, busy)).attributes).toMatchObject({ status: 'advancing', offsetSeconds: 0 });
    expect((await untilReady(busy, client)).offsetSeconds).toBe(7200);
    const shipments = await shipmentsOf(busy, client);
    expect(shipments.map((s) => s.attributes.tracking?.stage)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
  });

  it('shows an advance on every process of the database, whichever runs it', async () => {
    const { client } = await clientWithOpenOrders(busy, 20);
    const other = await buildApp({ db: busy.database.db, config: busy.config, logger: false });
    try {
      expect((await busy.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 86_400 } })).status).toBe(202);
      const elsewhere = await other.inject({ method: 'GET', url: '/sandbox/clock', headers: { authorization: `Bearer ${client.token}` } });
      expect(elsewhere.statusCode).toBe(200);
      expect(JSON.parse(elsewhere.body).data.attributes).toMatchObject({ status: 'advancing', advancingTo: expect.any(String) });
    } finally {
      await other.close();
    }
    expect((await untilReady(busy, client)).offsetSeconds).toBe(86_400);
  });
});

describe('the events of an advance', () => {
  // One warehouse step an hour: shipments still move while the received inbound completes, 2 hours after its receipt.
  let hourly: TestSandbox;
  beforeAll(async () => {
    hourly = await startSandbox({ sandboxStepSeconds: 3600 });
  });
  afterAll(() => hourly.close());

  it('happen in clock order, each at its own moment: inbounds complete and goods arrive between the shipments moves', async () => {
    const { client } = await clientWithOpenOrders(hourly, 3);
    const received = await receiveGoods(hourly, client, [{ sku: 'SKU-CLOCK', quantity: 5 }]);
    const expectedOn = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const slip = await hourly.call('POST', '/v3/inboundPackingSlips', {
      token: client.token,
      body: {
        data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', expectedOn, reference: uniqueNumber('SLIP') } },
        included: [{ type: 'inboundPackingSlipItem', attributes: { sku: 'SKU-CLOCK', quantity: 2 } }],
      },
    });
    expect(slip.status, slip.raw).toBe(201);
    const advanced = await hourly.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 5 * 86_400 } });
    expect([200, 202], advanced.raw).toContain(advanced.status);
    await untilReady(hourly, client);

    const emitted = await hourly.database.db
      .select({ type: schema.events.type, entityId: schema.events.entityId, occurredOn: schema.events.occurredOn })
      .from(schema.events)
      .where(eq(schema.events.clientId, client.id))
      .orderBy(asc(schema.events.sequence));
    const moments = emitted.map((event) => event.occurredOn.getTime());
    expect(moments).toEqual([...moments].sort((a, b) => a - b));
    // The inbound received before the advance completes 2 hours after its receipt, among the shipments' hourly moves.
    const processed = emitted.findIndex((event) => event.type === 'inbound.processed' && event.entityId === received.inbound.id);
    expect(processed).toBeGreaterThan(0);
    expect(emitted.slice(processed + 1).some((event) => event.type.startsWith('shipment.'))).toBe(true);
    // The announced goods arrive at the start of their expected day, not at the end of the advance.
    const arrival = emitted.filter((event) => event.type === 'inbound.processing').at(-1);
    expect(arrival?.entityId).toBeGreaterThan(received.inbound.id);
    expect(arrival?.occurredOn.toISOString().slice(0, 10)).toBe(expectedOn);
  });
});
