import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['SHIRT', 'MUG']);
});
afterAll(() => sb.close());

async function newOrder(opts: Parameters<typeof orderDocument>[1] = {}) {
  const answer = await sb.call('POST', '/v3/orders', {
    token: client.token,
    body: orderDocument(client, {
      items: [
        { sku: 'SHIRT', quantity: 3 },
        { sku: 'MUG', quantity: 1 },
      ],
      ...opts,
    }),
  });
  if (answer.status !== 201) throw new Error(answer.raw);
  return answer.body.data;
}

const put = (id: number, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  sb.call('PUT', `/v3/orders/${id}`, { token: client.token, body: { data: { type: 'order', id, attributes, ...extra } } });

describe('PUT /v3/orders/{id}', () => {
  it('replaces the mutable attributes and answers 200 with the full order and its related resources', async () => {
    const order = await newOrder({ attributes: { reference: 'old', metadata: { extra1: 'a', extra2: 'b' } } });
    const answer = await put(order.id, {
      externalOrderNumber: order.attributes.externalOrderNumber,
      locale: 'en-GB',
      onHold: true,
      reference: 'new',
      phoneNumber: '+31 (0)6-1234.5678',
      metadata: { extra3: 'c' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.attributes).toMatchObject({
      locale: 'en-GB',
      onHold: true,
      reference: 'new',
      phoneNumber: '+31 (0)6-1234.5678',
      metadata: { extra1: null, extra2: null, extra3: 'c' },
    });
    expect(answer.body.included.map((r: any) => r.type)).toContain('orderItem');
  });

  it('an empty string erases reference, consumerReference and promotionCode; omitted metadata erases metadata', async () => {
    const order = await newOrder({ attributes: { reference: 'r', consumerReference: 'c', promotionCode: 'p', metadata: { extra1: 'x' } } });
    const answer = await put(order.id, {
      externalOrderNumber: order.attributes.externalOrderNumber,
      locale: 'nl-NL',
      onHold: false,
      reference: '',
      consumerReference: '',
      promotionCode: '',
    });
    expect(answer.body.data.attributes).toMatchObject({
      reference: null,
      consumerReference: null,
      promotionCode: null,
      metadata: { extra1: null },
    });
  });

  it('a null email falls back to the no-reply address', async () => {
    const order = await newOrder({ attributes: { email: 'jane@example.com' } });
    const answer = await put(order.id, {
      externalOrderNumber: order.attributes.externalOrderNumber,
      locale: 'nl-NL',
      onHold: false,
      email: null,
    });
    expect(answer.body.data.attributes.email).toMatch(/^no-reply@/);
  });

  it('a null allowPartialDelivery takes the order type default', async () => {
    const b2b = client.orderTypeIds[1];
    const order = await newOrder({ orderTypeId: b2b, attributes: { allowPartialDelivery: false } });
    const answer = await put(order.id, {
      externalOrderNumber: order.attributes.externalOrderNumber,
      locale: 'nl-NL',
      onHold: false,
      allowPartialDelivery: null,
    });
    expect(answer.body.data.attributes.allowPartialDelivery).toBe(true);
  });

  it('refuses changes to currency and channelIdentifier, and accepts them unchanged', async () => {
    const order = await newOrder({ attributes: { channelIdentifier: 'shop-nl', currency: 'EUR' } });
    const base = { externalOrderNumber: order.attributes.externalOrderNumber, locale: 'nl-NL', onHold: false };
    const changed = await put(order.id, { ...base, currency: 'USD', channelIdentifier: 'shop-be' });
    expect(changed.status).toBe(400);
    expect(changed.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
      '/data/attributes/channelIdentifier',
      '/data/attributes/currency',
    ]);
    expect((await put(order.id, { ...base, currency: 'EUR', channelIdentifier: 'shop-nl' })).status).toBe(200);
  });

  it('requires the non-nullable externalOrderNumber, locale and onHold', async () => {
    const order = await newOrder();
    const answer = await put(order.id, { externalOrderNumber: null, locale: null });
    expect(answer.status).toBe(400);
    const pointers = answer.body.errors.map((e: any) => e.source.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining(['/data/attributes/externalOrderNumber', '/data/attributes/locale', '/data/attributes/onHold']),
    );
  });

  it('preferredShippingDate must be today or later', async () => {
    const order = await newOrder();
    const base = { externalOrderNumber: order.attributes.externalOrderNumber, locale: 'nl-NL', onHold: false };
    expect((await put(order.id, { ...base, preferredShippingDate: '2020-01-01' })).status).toBe(400);
    const today = new Date().toISOString().slice(0, 10);
    expect((await put(order.id, { ...base, preferredShippingDate: today })).body.data.attributes.preferredShippingDate).toBe(today);
  });

  it("a new fulfillFrom must be a warehouse of the order's shipping method", async () => {
    const express = client.mainShippingMethodIds[2]; // DHL_EXPRESS: NR, NN, BW, DD
    const order = await newOrder({ shippingMethodId: express });
    const base = { externalOrderNumber: order.attributes.externalOrderNumber, locale: 'nl-NL', onHold: false };
    const answer = await put(order.id, { ...base, fulfillFrom: 'GN' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].source.pointer).toBe('/data/attributes/fulfillFrom');
    expect((await put(order.id, { ...base, fulfillFrom: 'DD' })).body.data.attributes.fulfillFrom).toBe('DD');
  });

  it('changing externalOrderNumber to one in use is 409-1', async () => {
    const first = await newOrder();
    const second = await newOrder();
    const answer = await put(second.id, { externalOrderNumber: first.attributes.externalOrderNumber, locale: 'nl-NL', onHold: false });
    expect(answer.status).toBe(409);
    expect(answer.body.errors[0].code).toBe('409-1');
  });

  it('an id in the document that differs from the path is a 409', async () => {
    const order = await newOrder();
    const answer = await sb.call('PUT', `/v3/orders/${order.id}`, {
      token: client.token,
      body: { data: { type: 'order', id: order.id + 1000, attributes: { externalOrderNumber: 'x', locale: 'nl-NL', onHold: false } } },
    });
    expect(answer.status).toBe(409);
  });

  it('an unknown order is 404-5', async () => {
    const answer = await put(987654, { externalOrderNumber: uniqueNumber(), locale: 'nl-NL', onHold: false });
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0].code).toBe('404-5');
  });

  it('a fulfilled order refuses changes with 422 and stays as it was', async () => {
    const order = await newOrder({ attributes: { reference: 'before' } });
    expect((await sb.call('POST', `/sandbox/orders/${order.id}/ship`, { token: client.token })).status).toBe(201);
    const answer = await put(order.id, {
      externalOrderNumber: order.attributes.externalOrderNumber,
      locale: 'nl-NL',
      onHold: false,
      reference: 'after',
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].code).toBe('422');
    const read = await sb.call('GET', `/v3/orders/${order.id}`, { token: client.token });
    expect(read.body.data.attributes.reference).toBe('before');
  });
});

describe('cancelling', () => {
  it('DELETE /v3/orders/{id} cancels every item completely when nothing is shipped', async () => {
    const order = await newOrder();
    const answer = await sb.call('DELETE', `/v3/orders/${order.id}?include=orderItems`, { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.modified).toBe(true);
    expect(answer.body.meta.modifiedItems).toEqual(order.relationships.orderItems.data.map((i: { id: number }) => i.id));
    expect(answer.body.included.map((i: any) => i.attributes.quantity)).toEqual([0, 0]);
    const again = await sb.call('DELETE', `/v3/orders/${order.id}`, { token: client.token });
    expect(again.body.meta).toEqual({ modified: false, modifiedItems: [] });
  });

  it('cancels nothing of a shipped order', async () => {
    const order = await newOrder();
    await sb.call('POST', `/sandbox/orders/${order.id}/ship`, { token: client.token });
    const answer = await sb.call('DELETE', `/v3/orders/${order.id}`, { token: client.token });
    expect(answer.body.meta).toEqual({ modified: false, modifiedItems: [] });
  });

  it('cancels partly what a shipment covers partly', async () => {
    const order = await newOrder();
    const [shirt] = order.relationships.orderItems.data;
    // The warehouse picked 2 of the 3 shirts into a shipment that has not shipped yet.
    const [shipment] = await sb.database.db
      .insert(schema.shipments)
      .values({
        clientId: client.id,
        orderId: order.id,
        orderTypeId: client.orderTypeIds[0],
        shippingMethodId: client.mainShippingMethodIds[0],
        status: 'READY_TO_PICK',
        warehouseCode: 'NR',
      })
      .returning();
    const [shirtRow] = await sb.database.db.select().from(schema.orderItems).where(eq(schema.orderItems.id, shirt.id));
    await sb.database.db.insert(schema.shipmentItems).values({
      clientId: client.id,
      shipmentId: shipment.id,
      orderItemId: shirt.id,
      productId: shirtRow.productId,
      sku: 'SHIRT',
      quantity: 2,
    });
    const answer = await sb.call('DELETE', `/v3/orders/${order.id}?include=orderItems`, { token: client.token });
    expect(answer.body.meta.modified).toBe(true);
    const quantities = Object.fromEntries(answer.body.included.map((i: any) => [i.attributes.sku, i.attributes.quantity]));
    expect(quantities).toEqual({ SHIRT: 2, MUG: 0 });
  });

  it('DELETE /v3/orderItems/{id} cancels one item and says whether it changed', async () => {
    const order = await newOrder();
    const [shirt, mug] = order.relationships.orderItems.data;
    const answer = await sb.call('DELETE', `/v3/orderItems/${shirt.id}`, { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toEqual({ modified: true });
    expect(answer.body.data.attributes.quantity).toBe(0);
    expect((await sb.call('GET', `/v3/orderItems/${mug.id}`, { token: client.token })).body.data.attributes.quantity).toBe(1);
    expect((await sb.call('DELETE', `/v3/orderItems/${shirt.id}`, { token: client.token })).body.meta).toEqual({ modified: false });
  });

  it('order item paths match case-insensitively (/v3/orderitems as well as /v3/orderItems)', async () => {
    const order = await newOrder();
    const [shirt] = order.relationships.orderItems.data;
    const answer = await sb.call('GET', `/v3/orderitems/${shirt.id}`, { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      type: 'orderItem',
      id: shirt.id,
      attributes: { sku: 'SHIRT', quantity: 3 },
      relationships: { order: { data: { type: 'order', id: order.id } } },
    });
  });

  it('an unknown order item is 404', async () => {
    expect((await sb.call('GET', '/v3/orderItems/424242', { token: client.token })).status).toBe(404);
    expect((await sb.call('DELETE', '/v3/orderItems/424242', { token: client.token })).status).toBe(404);
  });
});
