// Transactions of one app racing for the last units of a product: however many start orders, step shipments or ship
// an order now at the same moment, no unit is promised or booked out twice and none of them fails. On PGlite the
// transactions take turns; on PostgreSQL they overlap (stock-processes.postgres.test.ts races whole server processes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { findShipment, ordersToStart, startOrder, stepShipment } from '../src/modules/shipments/service.ts';
import { runNextShipmentStep, scheduleFirstMove } from '../src/warehouse/outbound.ts';
import type { Client } from '../src/modules/clients/client.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';
import { domainClient, receiveGoods } from './support/inventory.ts';

const sku = 'LAST-UNITS';
const units = 10;
const orderCount = 50;
/** As many transactions at once as the test database's pool holds connections. */
const racers = 5;

let sb: TestSandbox;
let client: TestClient;
let domain: Client;
let productId: number;

const call = (method: string, url: string) => sb.call(method, url, { token: client.token });

async function shipmentsOfTheSku() {
  const answer = await call('GET', `/v3/shipments?page[size]=100&include=shipmentItems`);
  expect(answer.status, answer.raw).toBe(200);
  const items = answer.body.included.filter((i: any) => i.attributes.sku === sku);
  return answer.body.data.filter((s: any) => items.some((i: any) => i.relationships.shipment.data.id === s.id));
}

async function levelOfTheSku() {
  const answer = await call('GET', `/v3/stockLevels/${productId}`);
  expect(answer.status, answer.raw).toBe(200);
  return answer.body.data.attributes.levels.find((l: { warehouse: string }) => l.warehouse === 'NR');
}

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  [productId] = await createProducts(sb, client.token, [sku]);
  await receiveGoods(sb, client, [{ sku, quantity: units }]);
  for (let n = 0; n < orderCount; n++) {
    const answer = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { externalOrderNumber: uniqueNumber('RACE'), items: [{ sku, quantity: 1 }] }),
    });
    expect(answer.status, answer.raw).toBe(201);
  }
  domain = await domainClient(sb, client);
});
afterAll(() => sb.close());

describe(`${units} units of a sku, ${orderCount} orders of one unit`, () => {
  it(`starts exactly ${units} shipments when ${racers} transactions start orders at once; the other orders wait`, async () => {
    const now = new Date();
    // Each racer walks the orders as a warehouse round does: every order that may start, one transaction each.
    const startEverything = async () => {
      for (const id of (await ordersToStart(sb.database.db, client.id)).ids)
        await sb.database.db.transaction((tx) => startOrder(tx, sb.services.eventPayloads, domain, id, now));
    };
    await Promise.all(Array.from({ length: racers }, startEverything));

    const shipments = await shipmentsOfTheSku();
    expect(shipments).toHaveLength(units);
    expect(shipments.map((s: any) => s.attributes.status)).toEqual(Array(units).fill('READY_TO_PICK'));
    expect(await levelOfTheSku()).toMatchObject({ physical: units, stock: units, outbound: units, free: 0 });
  });

  it('ships each of them once, whether a warehouse step or "ship now" gets there first, booking out exactly what was there', async () => {
    const shipments = await shipmentsOfTheSku();
    // A warehouse step at a time, each in its own transaction on the locked shipment, until the shipment is SHIPPED.
    const walk = async (id: number) => {
      for (;;) {
        const shipped = await sb.database.db.transaction(async (tx) => {
          const shipment = (await findShipment(tx, domain, id, { lock: true }))!;
          if (shipment.status === 'SHIPPED') return true;
          await stepShipment(tx, sb.services.eventPayloads, domain, shipment, new Date(), { correctShortage: false });
          return false;
        });
        if (shipped) return;
      }
    };
    const [shipNow] = await Promise.all([
      Promise.all(shipments.map((s: any) => call('POST', `/sandbox/orders/${s.relationships.order.data.id}/ship`))),
      Promise.all(shipments.map((s: any) => walk(Number(s.id)))),
    ]);

    // 201 when "ship now" shipped it; 422 when the steps had, and the order was fulfilled already.
    for (const answer of shipNow) expect([201, 422], answer.raw).toContain(answer.status);
    const after = await shipmentsOfTheSku();
    expect(after.map((s: any) => s.attributes.status)).toEqual(Array(units).fill('SHIPPED'));
    const mutations = (await call('GET', '/v3/stockMutations?page[size]=100')).body.data
      .map((m: any) => m.attributes)
      .filter((m: any) => m.sku === sku);
    expect(mutations.filter((m: any) => m.type === 'CORRECTION')).toEqual([]);
    expect(mutations.filter((m: any) => m.type === 'SHIPMENT').reduce((sum: number, m: any) => sum + m.quantity, 0)).toBe(-units);
    expect(await levelOfTheSku()).toMatchObject({ physical: 0, stock: 0, outbound: 0, free: 0 });
    expect((await call('GET', `/v3/stock?filter[sku][in]=${sku}`)).body.data).toEqual([]);
  });
});

describe('a shipment whose reserved goods are gone', () => {
  it('goes to ERROR once when several warehouse rounds reach its shipping step at once, and none of them fails', async () => {
    const [goneId] = await createProducts(sb, client.token, ['GONE']);
    await receiveGoods(sb, client, [{ sku: 'GONE', quantity: 1 }]);
    const place = async () => {
      const answer = await sb.call('POST', '/v3/orders', {
        token: client.token,
        body: orderDocument(client, { externalOrderNumber: uniqueNumber('GONE'), items: [{ sku: 'GONE', quantity: 1 }] }),
      });
      expect(answer.status, answer.raw).toBe(201);
      return answer.body.data.id as number;
    };
    const reserving = await place();
    const now = new Date();
    const shipment = (await sb.database.db.transaction(async (tx) => {
      const started = await startOrder(tx, sb.services.eventPayloads, domain, reserving, now);
      if (started) await scheduleFirstMove(tx, started, now, 1);
      return started;
    }))!;
    // "Ship now" takes what is on the shelf, reserved or not: the reserved unit leaves with another order.
    expect((await call('POST', `/sandbox/orders/${await place()}/ship`)).status).toBe(201);

    // Several rounds keep running the due moves; each move is one transaction, and the shipping one runs short.
    const until = new Date(now.getTime() + 3_600_000);
    const round = async () => {
      for (let n = 0; n < 10; n++) await runNextShipmentStep(sb.database.db, sb.services.eventPayloads, domain, until, 1);
    };
    await Promise.all(Array.from({ length: racers }, round));

    const after = (await call('GET', `/v3/shipments/${shipment.id}`)).body.data.attributes;
    expect(after.status).toBe('ERROR');
    const levels = (await call('GET', `/v3/stockLevels/${goneId}`)).body.data.attributes.levels;
    expect(levels).toEqual([expect.objectContaining({ warehouse: 'NR', physical: 0, outbound: 1, free: 0 })]);
  });
});

describe('a stock row', () => {
  it('never holds less than one unit, however it is written: the database refuses it', async () => {
    await receiveGoods(sb, client, [{ sku, quantity: 2 }]);
    const { stock } = schema;
    const mine = and(eq(stock.clientId, client.id), eq(stock.sku, sku));
    const quantities = async () =>
      (await sb.database.db.select({ quantity: stock.quantity }).from(stock).where(mine)).map((r) => r.quantity);
    const before = await quantities();
    for (const quantity of [0, -1]) {
      await expect(sb.database.db.update(stock).set({ quantity }).where(mine)).rejects.toMatchObject({
        cause: expect.objectContaining({ constraint: 'stock_quantity_positive' }),
      });
    }
    expect(await quantities()).toEqual(before);
    expect(before).toContain(2);
  });
});
