// Orders and shipments are written as JSON text by the database (src/representation/sql.ts); the list pages send that
// text as it is. These tests hold it to what a client sends and to the other ways the same resources are read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['TRICKY-1']);
});
afterAll(() => sb.close());

// Quotes, backslashes, control characters, markup, Latin-1, astral-plane characters and a lone JSON-looking text.
const tricky = 'He said "hi" \\ C:\\path\n\ttab </script> ünïcödé 𝄞😀 {"a":1} \u0001 \u2028';

describe('resources written as JSON by the database', () => {
  it('gives back every string exactly as sent, in the create answer, the single read and the list page', async () => {
    const created = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, {
        attributes: {
          reference: tricky.slice(0, 40),
          consumerReference: tricky,
          orderedOn: '2026-03-15T10:11:12.345Z',
          metadata: { extra1: tricky, extra5: '' },
        },
        delivery: { firstName: tricky.slice(0, 50), street1: 'Kerkstraat "oud"', city: 'Roosendaal\\Oost' },
        pickUpPoint: { identifier: 'PUP\\"1', name: tricky.slice(0, 60), countryCode: 'NL' },
        items: [{ sku: 'TRICKY-1', quantity: 2, price: 12.5, vat: 0.09, name: tricky.slice(0, 80), metadata: { extra6: tricky } }],
      }),
    });
    expect(created.status).toBe(201);
    const order = created.body.data;
    expect(order.attributes).toMatchObject({
      reference: tricky.slice(0, 40),
      consumerReference: tricky,
      orderedOn: '2026-03-15T10:11:12.345Z',
      metadata: { extra1: tricky, extra2: null, extra3: null, extra4: null, extra5: '' },
    });
    expect(order.attributes.createdOn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const byType = (type: string) => created.body.included.filter((r: { type: string }) => r.type === type);
    expect(byType('address')[0].attributes).toMatchObject({
      firstName: tricky.slice(0, 50),
      street1: 'Kerkstraat "oud"',
      city: 'Roosendaal\\Oost',
      prefix: null,
    });
    expect(byType('pickUpPoint')[0].attributes).toMatchObject({ identifier: 'PUP\\"1', name: tricky.slice(0, 60), street1: null });
    expect(byType('orderItem')[0].attributes).toEqual({
      sku: 'TRICKY-1',
      quantity: 2,
      channelIdentifier: null,
      fulfillFrom: null,
      price: 12.5,
      vat: 0.09,
      name: tricky.slice(0, 80),
      metadata: { extra6: tricky, extra7: null },
    });

    const all = 'include=orderItems,deliveryAddress,billingAddress,pickUpPoint';
    const single = await sb.call('GET', `/v3/orders/${order.id}?${all}`, { token: client.token });
    const page = await sb.call('GET', `/v3/orders?${all}&filter[externalOrderNumber][in]=${order.attributes.externalOrderNumber}`, {
      token: client.token,
    });
    expect(single.status).toBe(200);
    expect(page.status).toBe(200);
    expect(single.body.data).toEqual(order);
    expect(page.body.data).toEqual([order]);
    // The billing address is the delivery address: included once.
    expect(single.body.included).toEqual(created.body.included);
    expect(page.body.included).toEqual(created.body.included);
    expect(page.raw).not.toMatch(/": /); // compact, as the serializer writes it
  });

  it('reads a shipment the same on its list page, on its own and in the sandbox answer', async () => {
    const created = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: [{ sku: 'TRICKY-1', quantity: 1 }] }),
    });
    const shipped = await sb.call('POST', `/sandbox/orders/${created.body.data.id}/ship`, { token: client.token });
    expect(shipped.status).toBe(201);
    const shipment = shipped.body.data;
    expect(shipment.relationships.shipmentItems.data).toHaveLength(1);
    const single = await sb.call('GET', `/v3/shipments/${shipment.id}?include=shipmentItems`, { token: client.token });
    const page = await sb.call('GET', `/v3/shipments?include=shipmentItems&orderId=${created.body.data.id}`, { token: client.token });
    expect(single.body).toEqual({ data: shipment, included: shipped.body.included });
    expect(page.body.data).toEqual([shipment]);
    expect(page.body.included).toEqual(shipped.body.included);
    expect(shipped.body.included[0].attributes).toMatchObject({ sku: 'TRICKY-1', quantity: 1, serialNumbers: [] });
    // The webhook payload of the last event is the resource as GET returns it now.
    const { events } = schema;
    const [last] = await sb.database.db
      .select()
      .from(events)
      .where(and(eq(events.entity, 'shipment'), eq(events.entityId, shipment.id)))
      .orderBy(desc(events.sequence))
      .limit(1);
    expect(last.type).toBe('shipment.shipped.3');
    expect(last.payload).toEqual(single.body.data);
  });

  it('writes tracking, colli, serial numbers and prices with the same bytes on the list page as in the single read', async () => {
    // jsonb's text form orders keys by length and spaces them, numeric keeps trailing zeros: neither is what the
    // serializer writes for a single read. The list page must carry the single read's bytes exactly.
    const created = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: [{ sku: 'TRICKY-1', quantity: 1, price: 19.9, vat: 0.2 }] }),
    });
    const shipped = await sb.call('POST', `/sandbox/orders/${created.body.data.id}/ship`, { token: client.token });
    const id = shipped.body.data.id;
    expect(shipped.body.data.attributes.tracking).not.toBeNull();
    expect(shipped.body.data.attributes.colli.length).toBeGreaterThan(0);
    const single = await sb.call('GET', `/v3/shipments/${id}?include=shipmentItems`, { token: client.token });
    const page = await sb.call('GET', `/v3/shipments?include=shipmentItems&orderId=${created.body.data.id}`, { token: client.token });
    const bytes = (value: unknown) => JSON.stringify(value);
    expect(single.raw).toContain(
      `"tracking":${bytes(single.body.data.attributes.tracking)},"colli":${bytes(single.body.data.attributes.colli)}`,
    );
    expect(page.raw).toContain(bytes(single.body.data));
    expect(page.raw).toContain(bytes(single.body.included[0]));
    expect(Object.keys(single.body.data.attributes.tracking)).toEqual(['carrier', 'number', 'stage', 'status', 'url']);
    const items = await sb.call(
      'GET',
      `/v3/orders?include=orderItems&filter[externalOrderNumber][in]=${created.body.data.attributes.externalOrderNumber}`,
      { token: client.token },
    );
    expect(items.raw).toContain('"price":19.9,"vat":0.2,');
  });

  it('answers an empty page with empty arrays, and another client sees nothing of these orders', async () => {
    const other = await sb.newClient();
    const orders = await sb.call('GET', '/v3/orders?include=orderItems', { token: other.token });
    const shipments = await sb.call('GET', '/v3/shipments?include=shipmentItems', { token: other.token });
    expect(orders.body.data).toEqual([]);
    expect(orders.body.included).toEqual([]);
    expect(shipments.body.data).toEqual([]);
    expect(orders.body.links.next).toBeUndefined();
  });
});
