import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts } from './support/fixtures.ts';
import { bodyStyles, sendV2, v2Order } from './support/v2.ts';

let sb: TestSandbox;
let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  other = await sb.newClient();
  await createProducts(sb, client.token, ['V2-MUG', 'V2-SHIRT']);
  await createProducts(sb, other.token, ['V2-MUG']);
});
afterAll(() => sb.close());

/** Adds an order with v2 and ships it through the sandbox helper: the shipment id and the order's external number. */
async function shipped(owner = client, overrides: Record<string, unknown> = {}) {
  const order = v2Order({ orderTypeId: owner.orderTypeIds[0], languageId: owner.languageIds[0], extra1: 'gift', ...overrides });
  const added = await sb.call('POST', '/order/add', { token: owner.token, body: order });
  expect(added.body.messageCode).toBe('OK');
  const ship = await sb.call('POST', `/sandbox/orders/${added.body.result}/ship`, { token: owner.token });
  expect(ship.status).toBe(201);
  return {
    shipmentId: ship.body.data.id as number,
    externalOrderNumber: order.externalOrderNumber as string,
    orderId: added.body.result as number,
  };
}

const get = (url: string, token = client.token) => sb.call('GET', url, { token });
const ids = (answer: { body: { result: { id: number }[] } }) => answer.body.result.map((s) => s.id);

describe('unsynced shipment lists and sync', () => {
  it('lists a shipped order with every v2 field, until it is synced', async () => {
    const { shipmentId, externalOrderNumber, orderId } = await shipped();
    const answer = await get('/v2/shipment/get');
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(`Found ${answer.body.result.length} shipments that match your criteria.`);
    const shipment = answer.body.result.find((s: { id: number }) => s.id === shipmentId);
    expect(shipment).toMatchObject({
      orderNumber: orderId,
      orderType: client.orderTypeIds[0],
      externalOrderNumber,
      numberOfColli: 1,
      totalNumberOfProducts: 2,
      extra1: 'gift',
      currentTrackTraceStatus: 'labelled',
      currentTrackTraceExceptionLevel: 'success',
      warehouseAbbrevation: 'NR',
      mainShippingMethodId: client.mainShippingMethodIds[0],
    });
    expect(shipment.shippedProducts).toEqual([expect.objectContaining({ sku: 'V2-MUG', quantity: 2, serialNrs: [], parts: [] })]);
    expect(shipment.shippedColli[0]).toMatchObject({ colloNr: 1, packageNumber: expect.any(String) });
    expect(ids(await get('/shipment/get'))).toContain(shipmentId);

    for (const style of bodyStyles) {
      const sync = await sendV2(sb, 'POST', '/v2/shipment/sync', { ids: [shipmentId] }, client.token, style);
      expect(sync.body).toEqual({ messageCode: 'OK', message: 'Request processed successfully.', result: null });
    }
    expect(ids(await get('/v2/shipment/get'))).not.toContain(shipmentId);
    // The labeled list has its own flag.
    expect(ids(await get('/v2/shipment/get/labeled'))).toContain(shipmentId);
    await sb.call('POST', '/shipment/sync/labeled', { token: client.token, body: { ids: [shipmentId] } });
    expect(ids(await get('/v2/shipment/get/labeled'))).not.toContain(shipmentId);
  });

  it("syncs nothing when one id is another client's or unknown, and returns the ids not found", async () => {
    const mine = await shipped();
    const theirs = await shipped(other);
    for (const url of ['/v2/shipment/sync', '/v2/shipment/sync/labeled']) {
      const answer = await sb.call('POST', url, { token: client.token, body: { ids: [mine.shipmentId, theirs.shipmentId, 99999] } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ messageCode: 'NOK', message: 'Some Ids were not found', result: [theirs.shipmentId, 99999] });
    }
    const [row] = await sb.database.db.select().from(schema.shipments).where(eq(schema.shipments.id, mine.shipmentId));
    expect(row).toMatchObject({ synced: false, labeledSynced: false });
    const [theirRow] = await sb.database.db.select().from(schema.shipments).where(eq(schema.shipments.id, theirs.shipmentId));
    expect(theirRow.synced).toBe(false);
    expect(ids(await get('/v2/shipment/get', other.token))).toEqual([theirs.shipmentId]);
  });

  it('filters by order type, in every body style', async () => {
    const second = client.orderTypeIds[1];
    const { shipmentId } = await shipped(client, { orderTypeId: second });
    for (const style of bodyStyles) {
      const answer = await sendV2(sb, 'POST', '/v2/shipment/byordertype', { orderTypes: [second] }, client.token, style);
      expect(answer.body.result.map((s: { id: number }) => s.id)).toEqual([shipmentId]);
      const labeled = await sendV2(sb, 'POST', '/shipment/byordertype/labeled', { orderTypes: [second] }, client.token, style);
      expect(labeled.body.result.map((s: { id: number }) => s.id)).toEqual([shipmentId]);
    }
    expect(
      (await sb.call('POST', '/v2/shipment/byordertype', { token: client.token, body: { orderTypes: [client.orderTypeIds[2]] } })).body
        .result,
    ).toEqual([]);
  });

  it('answers at most 100 shipments', async () => {
    const rows = await sb.database.db.select().from(schema.shipments).where(eq(schema.shipments.clientId, client.id));
    const template = rows[0];
    const { id: _id, ...copy } = template;
    const copies = await sb.database.db
      .insert(schema.shipments)
      .values(Array.from({ length: 105 }, () => ({ ...copy, synced: false })))
      .returning({ id: schema.shipments.id });
    expect((await get('/v2/shipment/get')).body.result).toHaveLength(100);
    expect((await get('/v2/shipment/get')).body.message).toBe('Found 100 shipments that match your criteria.');
    // Out of the way of the next tests: synced, and shipped long ago.
    await sb.database.db
      .update(schema.shipments)
      .set({ synced: true, labeledSynced: true, shippedOn: new Date(Date.now() - 3 * 86_400_000), tracking: null })
      .where(
        inArray(
          schema.shipments.id,
          copies.map((c) => c.id),
        ),
      );
  });

  it('refuses an empty or malformed sync body', async () => {
    expect((await sb.call('POST', '/v2/shipment/sync', { token: client.token, body: { ids: [] } })).body.message).toBe(
      'Unable to process request due to malformed contents',
    );
    expect(
      (await sb.call('POST', '/v2/shipment/sync', { token: client.token, payload: '', headers: { 'content-type': 'application/json' } }))
        .body.message,
    ).toBe('We were unable to parse your request, resulting in an empty value. Please check your input.');
  });
});

describe('POST /shipment/search', () => {
  it('finds by id, externalOrderNumber or shipping date, and with no criteria the past 24 hours', async () => {
    const { shipmentId, externalOrderNumber } = await shipped();
    const today = new Date().toISOString().slice(0, 10);
    for (const criteria of [{ id: shipmentId }, { externalOrderNumber }, { shippingDate: today, externalOrderNumber }]) {
      for (const style of bodyStyles) {
        const answer = await sendV2(sb, 'POST', '/shipment/search', criteria, client.token, style);
        expect(answer.body.message).toBe('Found 1 shipments that match your criteria.');
        expect(answer.body.result[0]).toMatchObject({
          id: shipmentId,
          externalOrderNumber,
          numberOfColli: 1,
          totalNumberOfProducts: 2,
          warehouseAbbreviation: 'NR',
          currentTrackTraceStatus: 'labelled',
        });
        expect(answer.body.result[0].shipmentItems).toEqual([
          { shipmentItemId: expect.any(Number), quantity: 2, sku: 'V2-MUG', lotNumber: null },
        ]);
      }
    }
    expect(ids(await sb.call('POST', '/v2/shipment/search', { token: client.token }))).toContain(shipmentId);
    expect((await sb.call('POST', '/shipment/search', { token: client.token, body: { shippingDate: '2020-01-01' } })).body.result).toEqual(
      [],
    );
    // Another client's shipment is not found, nor is a day-old one without criteria.
    expect((await sb.call('POST', '/shipment/search', { token: other.token, body: { id: shipmentId } })).body).toEqual({
      messageCode: 'NOK',
      message: 'Shipment not found.',
      result: null,
    });
    await sb.database.db
      .update(schema.shipments)
      .set({ shippedOn: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(schema.shipments.id, shipmentId));
    expect(ids(await sb.call('POST', '/shipment/search', { token: client.token, body: {} }))).not.toContain(shipmentId);
  });
});

describe('GET /v2/shipment/tracktracestatus', () => {
  it('answers the numeric codes of shipments not yet delivered', async () => {
    const { shipmentId, externalOrderNumber } = await shipped();
    const answer = await get('/v2/shipment/tracktracestatus');
    expect(answer.body.message).toBe('Found track trace status data');
    expect(answer.body.result.find((t: { shipmentId: number }) => t.shipmentId === shipmentId)).toMatchObject({
      externalOrderNumber,
      currentTrackTraceStatus: 1,
      currentTrackTraceExceptionLevel: 1,
      shipmentMethod: expect.any(String),
      currentTrackTraceStatusDateTime: expect.any(String),
    });
    const [row] = await sb.database.db.select().from(schema.shipments).where(eq(schema.shipments.id, shipmentId));
    await sb.database.db
      .update(schema.shipments)
      .set({ tracking: { ...row.tracking!, stage: '1ST_ATTEMPT', status: 'WARNING' } })
      .where(eq(schema.shipments.id, shipmentId));
    expect(
      (await get('/shipment/tracktracestatus')).body.result.find((t: { shipmentId: number }) => t.shipmentId === shipmentId),
    ).toMatchObject({ currentTrackTraceStatus: 10, currentTrackTraceExceptionLevel: 2 });
    await sb.database.db
      .update(schema.shipments)
      .set({ tracking: { ...row.tracking!, stage: 'DELIVERED' } })
      .where(eq(schema.shipments.id, shipmentId));
    expect((await get('/v2/shipment/tracktracestatus')).body.result.map((t: { shipmentId: number }) => t.shipmentId)).not.toContain(
      shipmentId,
    );
    expect(
      (await get('/v2/shipment/tracktracestatus', other.token)).body.result.map(
        (t: { externalOrderNumber: string }) => t.externalOrderNumber,
      ),
    ).not.toContain(externalOrderNumber);
  });
});
