// Two clients, one database: client B's token on client A's ids answers 404 exactly like an id that does not exist,
// and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { storedFile } from '../src/platform/file-parts.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';

let sb: TestSandbox;
let a: TestClient;
let b: TestClient;
const ids: Record<string, number> = {};

beforeAll(async () => {
  sb = await startSandbox();
  a = await sb.newClient();
  b = await sb.newClient();
  [ids.product] = await createProducts(sb, a.token, ['A-ONLY']);
  await createProducts(sb, b.token, ['A-ONLY']);
  const order = (
    await sb.call('POST', '/v3/orders', { token: a.token, body: orderDocument(a, { items: [{ sku: 'A-ONLY', quantity: 2 }] }) })
  ).body.data;
  ids.order = order.id;
  ids.orderItem = order.relationships.orderItems.data[0].id;
  const shippedOrder = (
    await sb.call('POST', '/v3/orders', { token: a.token, body: orderDocument(a, { items: [{ sku: 'A-ONLY', quantity: 1 }] }) })
  ).body.data;
  ids.shippedOrder = shippedOrder.id;
  ids.shipment = (await sb.call('POST', `/sandbox/orders/${shippedOrder.id}/ship`, { token: a.token })).body.data.id;
  ids.webhook = (
    await sb.call('POST', '/v3/webhooks', {
      token: a.token,
      body: {
        data: { type: 'webhook', attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: 'https://a.example.com/hook' } },
      },
    })
  ).body.data.id;
  const settings = (await sb.call('GET', '/settings/get', { token: a.token })).body.result;
  ids.returnReason = settings.returnReasons[0].id;
  ids.shippingMethod = settings.mainShippingMethods[0].id;
});
afterAll(() => sb.close());

/** Every route with an id: method, path, the id it takes, and a body where it needs one. */
const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4460000000049454e44ae426082',
  'hex',
);
const routes: { method: string; path: (id: number) => string; id: string; body?: (id: number) => unknown; image?: Buffer }[] = [
  { method: 'GET', path: (id) => `/v3/orders/${id}`, id: 'order' },
  {
    method: 'PUT',
    path: (id) => `/v3/orders/${id}`,
    id: 'order',
    body: (id) => ({ data: { type: 'order', id, attributes: { externalOrderNumber: 'TAKEN-BY-B', locale: 'en-GB', onHold: true } } }),
  },
  { method: 'DELETE', path: (id) => `/v3/orders/${id}`, id: 'order' },
  { method: 'GET', path: (id) => `/v3/orderItems/${id}`, id: 'orderItem' },
  { method: 'DELETE', path: (id) => `/v3/orderItems/${id}`, id: 'orderItem' },
  { method: 'GET', path: (id) => `/v3/shipments/${id}`, id: 'shipment' },
  { method: 'GET', path: (id) => `/v3/products/${id}`, id: 'product' },
  {
    method: 'PUT',
    path: (id) => `/v3/products/${id}`,
    id: 'product',
    body: (id) => ({ data: { type: 'product', id, attributes: { name: 'Renamed by B' } } }),
  },
  { method: 'POST', path: (id) => `/v3/products/${id}/image`, id: 'product', image: png },
  { method: 'GET', path: (id) => `/v3/webhooks/${id}`, id: 'webhook' },
  {
    method: 'PUT',
    path: (id) => `/v3/webhooks/${id}`,
    id: 'webhook',
    body: (id) => ({ data: { type: 'webhook', id, attributes: { targetUrl: 'https://b.example.com/steal', isActive: false } } }),
  },
  { method: 'DELETE', path: (id) => `/v3/webhooks/${id}`, id: 'webhook' },
  { method: 'GET', path: (id) => `/v3/returnReasons/${id}`, id: 'returnReason' },
  { method: 'GET', path: (id) => `/v3/shippingMethods/${id}`, id: 'shippingMethod' },
  { method: 'POST', path: (id) => `/sandbox/orders/${id}/ship`, id: 'order' },
];

describe("client B on client A's ids", () => {
  it.each(routes.map((r) => [`${r.method} ${r.path(0).replace('/0', '/{id}')}`, r] as const))(
    '%s answers 404 like a missing id',
    async (_name, route) => {
      const id = ids[route.id];
      const image = route.image ? { payload: route.image, headers: { 'content-type': 'image/png' } } : {};
      const theirs = await sb.call(route.method, route.path(id), { token: b.token, body: route.body?.(id), ...image });
      const missing = await sb.call(route.method, route.path(2_000_000_000), {
        token: b.token,
        body: route.body?.(2_000_000_000),
        ...image,
      });
      expect(theirs.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(theirs.body.errors.map((e: { code: string }) => e.code)).toEqual(missing.body.errors.map((e: { code: string }) => e.code));
    },
  );

  it('changed nothing of client A', async () => {
    const order = await sb.call('GET', `/v3/orders/${ids.order}?include=orderItems`, { token: a.token });
    expect(order.body.data.attributes.externalOrderNumber).not.toBe('TAKEN-BY-B');
    expect(order.body.data.attributes.onHold).toBe(false);
    expect(order.body.included[0].attributes.quantity).toBe(2);
    const shipments = await sb.call('GET', '/v3/shipments', { token: a.token });
    expect(shipments.body.data).toHaveLength(1);
    expect((await sb.call('GET', `/v3/products/${ids.product}`, { token: a.token })).body.data.attributes.name).not.toBe('Renamed by B');
    const [product] = await sb.database.db
      .select({ imageContentType: schema.products.imageContentType })
      .from(schema.products)
      .where(eq(schema.products.id, ids.product));
    expect(product.imageContentType).toBeNull();
    expect(await storedFile(sb.database.db, 'productImage', ids.product)).toBeUndefined();
    const webhook = await sb.call('GET', `/v3/webhooks/${ids.webhook}`, { token: a.token });
    expect(webhook.body.data.attributes).toMatchObject({ targetUrl: 'https://a.example.com/hook', isActive: true });
  });

  it('lists show each client only its own resources', async () => {
    for (const path of ['/v3/orders', '/v3/shipments', '/v3/products', '/v3/webhooks', '/v3/returnReasons', '/v3/shippingMethods']) {
      const listed = await sb.call('GET', path, { token: b.token });
      const theirIds = listed.body.data.map((r: { id: number }) => r.id);
      expect(theirIds).not.toContain(ids.order);
      expect(theirIds).not.toContain(ids.shipment);
      expect(theirIds).not.toContain(ids.product);
      if (path !== '/v3/orders' && path !== '/v3/shipments')
        for (const key of ['webhook', 'returnReason', 'shippingMethod']) expect(theirIds).not.toContain(ids[key]);
    }
  });
});
