import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;
const orders: { id: number; externalOrderNumber: string; shipmentId: number }[] = [];

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['SHIRT', 'MUG']);
  for (let i = 0; i < 3; i++) {
    const externalOrderNumber = uniqueNumber('SHIP');
    const order = (
      await sb.call('POST', '/v3/orders', {
        token: client.token,
        body: orderDocument(client, {
          externalOrderNumber,
          orderTypeId: client.orderTypeIds[i % 2],
          attributes: { reference: `ref-${i}` },
          items: [
            { sku: 'SHIRT', quantity: 2 },
            { sku: 'MUG', quantity: 1 },
          ],
        }),
      })
    ).body.data;
    const shipped = await sb.call('POST', `/sandbox/orders/${order.id}/ship`, { token: client.token });
    orders.push({ id: order.id, externalOrderNumber, shipmentId: shipped.body.data.id });
  }
});
afterAll(() => sb.close());

describe('POST /sandbox/orders/{id}/ship', () => {
  it('creates a SHIPPED shipment with items, tracking and colli, and the order becomes fulfilled', async () => {
    const shipment = await sb.call('GET', `/v3/shipments/${orders[0].shipmentId}?include=shipmentItems`, { token: client.token });
    expect(shipment.status).toBe(200);
    const { attributes, relationships } = shipment.body.data;
    expect(attributes.status).toBe('SHIPPED');
    expect(attributes.warehouseCode).toBe('NR');
    expect(attributes.shippedOn).toEqual(expect.any(String));
    expect(attributes.tracking).toMatchObject({ carrier: expect.any(String), number: expect.any(String), stage: 'LABELLED', status: 'OK' });
    expect(attributes.colli).toEqual([{ number: 1, parcelNumber: attributes.tracking.number, trackingUrl: attributes.tracking.url }]);
    expect(relationships.order.data).toEqual({ type: 'order', id: orders[0].id });
    expect(shipment.body.included.map((i: any) => [i.attributes.sku, i.attributes.quantity])).toEqual([
      ['SHIRT', 2],
      ['MUG', 1],
    ]);
    const [order] = await sb.database.db.select().from(schema.orders).where(eq(schema.orders.id, orders[0].id));
    expect(order.fulfilledAt).not.toBeNull();
  });

  it('refuses to ship an order twice with 422, and an unknown order with 404-5', async () => {
    expect((await sb.call('POST', `/sandbox/orders/${orders[0].id}/ship`, { token: client.token })).status).toBe(422);
    expect((await sb.call('POST', '/sandbox/orders/999999/ship', { token: client.token })).body.errors[0].code).toBe('404-5');
  });
});

describe('GET /v3/shipments', () => {
  it('lists shipments in id order with their items on include', async () => {
    const answer = await sb.call('GET', '/v3/shipments?include=shipmentItems', { token: client.token });
    expect(answer.body.data.map((s: { id: number }) => s.id)).toEqual(orders.map((o) => o.shipmentId));
    expect(answer.body.included).toHaveLength(6);
    expect(answer.body.links.next).toBeUndefined();
  });

  it('pages with page[size] and page[cursor]', async () => {
    const first = await sb.call('GET', '/v3/shipments?page[size]=2', { token: client.token });
    expect(first.body.data).toHaveLength(2);
    const next = await sb.call('GET', first.body.links.next.replace('http://sandbox.test', ''), { token: client.token });
    expect(next.body.data.map((s: { id: number }) => s.id)).toEqual([orders[2].shipmentId]);
  });

  it('filters by status, orderType, orderId, externalOrderNumber and reference', async () => {
    const q = async (query: string) =>
      (await sb.call('GET', `/v3/shipments?${query}`, { token: client.token })).body.data.map((s: { id: number }) => s.id);
    expect(await q('filter[status][in]=SHIPPED')).toHaveLength(3);
    expect(await q('filter[status][in]=READY_TO_PICK,ERROR')).toEqual([]);
    expect(await q(`filter[orderType][in]=${client.orderTypeIds[1]}`)).toEqual([orders[1].shipmentId]);
    expect(await q(`orderId=${orders[2].id}`)).toEqual([orders[2].shipmentId]);
    expect(await q(`externalOrderNumber=${orders[0].externalOrderNumber}`)).toEqual([orders[0].shipmentId]);
    expect(await q('filter[reference][in]=ref-0,ref-2')).toEqual([orders[0].shipmentId, orders[2].shipmentId]);
  });

  it('filters by shippedOn lt and gt', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const q = async (query: string) => (await sb.call('GET', `/v3/shipments?${query}`, { token: client.token })).body.data.length;
    expect(await q(`filter[shippedOn][gt]=${yesterday}`)).toBe(3);
    expect(await q(`filter[shippedOn][gt]=${today}`)).toBe(0);
    expect(await q(`filter[shippedOn][lt]=${tomorrow}`)).toBe(3);
    expect(await q(`filter[shippedOn][lt]=${today}`)).toBe(0);
  });

  it('rejects an unknown status and a non-integer order type', async () => {
    expect((await sb.call('GET', '/v3/shipments?filter[status][in]=LOST', { token: client.token })).status).toBe(400);
    expect((await sb.call('GET', '/v3/shipments?filter[orderType][in]=abc', { token: client.token })).status).toBe(400);
  });

  it('does not return shipments older than 90 days', async () => {
    const old = new Date(Date.now() - 91 * 86_400_000);
    await sb.database.db.update(schema.shipments).set({ createdAt: old }).where(eq(schema.shipments.id, orders[2].shipmentId));
    const list = await sb.call('GET', '/v3/shipments', { token: client.token });
    expect(list.body.data.map((s: { id: number }) => s.id)).not.toContain(orders[2].shipmentId);
    expect((await sb.call('GET', `/v3/shipments/${orders[2].shipmentId}`, { token: client.token })).status).toBe(404);
  });
});
