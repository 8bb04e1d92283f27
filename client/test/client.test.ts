// The typed client against a listening sandbox: every group of v3 operations (the tags of the v3 OpenAPI document)
// through fetch, the multipart and image uploads, typed error answers, and the v2 client.
import { createShopApiClient, createShopApiV2Client, type ShopApiClient } from '@shopapi/client';
import { buildOpenApi } from '@shopapi/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onePageA4Pdf } from '../../server/test/support/uploads.ts';
import { startListeningSandbox, type TestClient, type TestSandbox } from '../../server/test/support/sandbox.ts';

let sb: TestSandbox;
let baseUrl: string;
let account: TestClient;
let api: ShopApiClient;

/** The operations the tests called, as `get /v3/orders/{id}`. */
const called = new Set<string>();

beforeAll(async () => {
  ({ sb, baseUrl } = await startListeningSandbox());
  account = await sb.newClient();
  api = createShopApiClient({ baseUrl, username: account.username, password: account.password });
  api.use({
    onResponse({ request, schemaPath }) {
      called.add(`${request.method.toLowerCase()} ${schemaPath}`);
    },
  });
});
afterAll(() => sb?.close());

/** The answer's data after checking its status (with the error document in the message when it differs). */
async function expectStatus<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>, status: number): Promise<D> {
  const { data, error, response } = await call;
  expect(response.status, JSON.stringify(error)).toBe(status);
  return data as D;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

const home = {
  firstName: 'Jane',
  lastName: 'Jansen',
  street1: 'Kerkstraat',
  houseNumber: '12',
  postcode: '4701AB',
  city: 'Roosendaal',
  countryCode: 'NL',
};

async function createProduct(sku = unique('SKU')) {
  return expectStatus(api.POST('/v3/products', { body: { data: { type: 'product', attributes: { sku, name: `Product ${sku}` } } } }), 201);
}

async function createOrder(items: { sku: string; quantity: number }[]) {
  return expectStatus(
    api.POST('/v3/orders', {
      body: {
        data: {
          type: 'order',
          attributes: { externalOrderNumber: unique('SHOP'), locale: 'nl-NL' },
          relationships: {
            orderType: { data: { type: 'orderType', id: account.orderTypeIds[0] } },
            deliveryAddress: { data: { type: 'address', id: 'home' } },
          },
        },
        included: [
          { type: 'address', id: 'home', attributes: home },
          ...items.map((attributes) => ({ type: 'orderItem' as const, attributes })),
        ],
      },
    }),
    201,
  );
}

/** `quantity` units of `sku` in stock: a packing slip announced and received as announced. */
async function receiveStock(sku: string, quantity: number) {
  const slip = await expectStatus(
    api.POST('/v3/inboundPackingSlips', {
      body: {
        data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', expectedOn: '2030-12-01', reference: unique('PO') } },
        included: [{ type: 'inboundPackingSlipItem', attributes: { sku, quantity } }],
      },
    }),
    201,
  );
  return expectStatus(api.POST('/sandbox/inboundPackingSlips/{id}/receive', { params: { path: { id: slip.data.id } }, body: {} }), 201);
}

describe('the v3 operations through the typed client', () => {
  it('Authentication: the status checks and a token requested through the typed client', async () => {
    expect(await expectStatus(api.GET('/status'), 200)).toMatchObject({ messageCode: 'OK' });
    expect(await expectStatus(api.GET('/status/ready'), 200)).toMatchObject({ messageCode: 'OK' });
    const token = await expectStatus(
      api.POST('/token', {
        body: { grant_type: 'password', username: account.username, password: account.password },
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      200,
    );
    expect(token).toMatchObject({ token_type: 'bearer', expires_in: sb.config.tokenLifetimeSeconds, userName: account.username });
    expect(token.access_token).toMatch(/^\S{20,}$/);
  });

  it('Settings: the account settings, return reasons and shipping methods', async () => {
    const settings = await expectStatus(api.GET('/settings/get'), 200);
    expect(settings.messageCode).toBe('OK');
    expect(settings.result.orderTypes.map((orderType) => orderType.id)).toEqual(account.orderTypeIds);

    const reasons = await expectStatus(api.GET('/v3/returnReasons'), 200);
    expect(reasons.data.map((reason) => reason.id)).toEqual(settings.result.returnReasons.map((reason) => reason.id));
    const reason = await expectStatus(api.GET('/v3/returnReasons/{id}', { params: { path: { id: reasons.data[0].id } } }), 200);
    expect(reason.data).toMatchObject({
      type: 'returnReason',
      id: reasons.data[0].id,
      attributes: { code: settings.result.returnReasons[0].code },
    });

    const methods = await expectStatus(api.GET('/v3/shippingMethods'), 200);
    expect(methods.data.length).toBeGreaterThan(0);
    const method = await expectStatus(api.GET('/v3/shippingMethods/{id}', { params: { path: { id: methods.data[0].id } } }), 200);
    expect(method.data).toMatchObject({
      type: 'shippingMethod',
      id: methods.data[0].id,
      attributes: { code: methods.data[0].attributes.code },
    });
  });

  it('Products: create, read, update, look up by sku and upload an image', async () => {
    const sku = unique('MUG');
    const created = await expectStatus(
      api.POST('/v3/products', { body: { data: { type: 'product', attributes: { sku, name: 'Mug', barcode: '8712345678906' } } } }),
      201,
    );
    expect(created.data).toMatchObject({
      type: 'product',
      attributes: { sku, name: 'Mug', barcode: '8712345678906', status: 'AVAILABLE' },
    });
    const id = created.data.id;

    const read = await expectStatus(api.GET('/v3/products/{id}', { params: { path: { id } } }), 200);
    expect(read.data.attributes.sku).toBe(sku);
    const updated = await expectStatus(
      api.PUT('/v3/products/{id}', {
        params: { path: { id } },
        body: { data: { type: 'product', id, attributes: { name: 'Mug, blue', status: 'DISCONTINUED' } } },
      }),
      200,
    );
    expect(updated.data.attributes).toMatchObject({ sku, name: 'Mug, blue', status: 'DISCONTINUED' });
    const found = await expectStatus(api.GET('/v3/products', { params: { query: { 'filter[sku][in]': `${sku},NOT-THERE` } } }), 200);
    expect(found.data.map((product) => product.id)).toEqual([id]);

    // The smallest real PNG: the server accepts an image by its bytes. A Blob goes as it is, with its content type.
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4460000000049454e44ae426082',
      'hex',
    );
    const image = await expectStatus(
      api.POST('/v3/products/{id}/image', {
        params: { path: { id } },
        body: new Blob([png], { type: 'image/png' }),
        headers: { 'content-type': 'image/png' },
      }),
      200,
    );
    expect(image.data.id).toBe(id);
    expect(image.meta).toMatchObject({ code: '200-1', contentType: 'image/png', size: png.length });
  });

  it('Orders: create with included items, addresses and a pick-up point; read with include; list; update; delete', async () => {
    const [mug, shirt] = [(await createProduct()).data.attributes.sku, (await createProduct()).data.attributes.sku];
    const externalOrderNumber = unique('SHOP');
    const created = await expectStatus(
      api.POST('/v3/orders', {
        params: { query: { include: 'orderItems,deliveryAddress,billingAddress,pickUpPoint' } },
        body: {
          data: {
            type: 'order',
            attributes: { externalOrderNumber, locale: 'nl-NL', email: 'jane@example.com', reference: 'first' },
            relationships: {
              orderType: { data: { type: 'orderType', id: account.orderTypeIds[0] } },
              deliveryAddress: { data: { type: 'address', id: 'home' } },
              billingAddress: { data: { type: 'address', id: 'office' } },
              pickUpPoint: { data: { type: 'pickUpPoint', id: 'shop' } },
            },
          },
          included: [
            { type: 'address', id: 'home', attributes: home },
            { type: 'address', id: 'office', attributes: { ...home, company: 'Jansen BV', street1: 'Markt', houseNumber: '1' } },
            { type: 'pickUpPoint', id: 'shop', attributes: { identifier: 'PUP-123', name: 'Tabakszaak', countryCode: 'NL' } },
            { type: 'orderItem', attributes: { sku: mug, quantity: 2, price: 9.95, vat: 0.21 } },
            { type: 'orderItem', attributes: { sku: shirt, quantity: 1, price: 19.95, vat: 0.21 } },
          ],
        },
      }),
      201,
    );
    const order = created.data;
    expect(order.attributes).toMatchObject({
      externalOrderNumber,
      locale: 'nl-NL',
      email: 'jane@example.com',
      reference: 'first',
      onHold: false,
    });
    expect(order.relationships.orderType.data?.id).toBe(account.orderTypeIds[0]);
    const [mugItem, shirtItem] = order.relationships.orderItems.data.map((item) => item.id);
    expect(created.included?.map((resource) => resource.type).sort()).toEqual([
      'address',
      'address',
      'orderItem',
      'orderItem',
      'pickUpPoint',
    ]);

    const read = await expectStatus(
      api.GET('/v3/orders/{id}', { params: { path: { id: order.id }, query: { include: 'orderItems' } } }),
      200,
    );
    expect(read.data.id).toBe(order.id);
    expect(read.included?.map((resource) => resource.type)).toEqual(['orderItem', 'orderItem']);

    const listed = await expectStatus(
      api.GET('/v3/orders', { params: { query: { 'filter[externalOrderNumber][in]': externalOrderNumber } } }),
      200,
    );
    expect(listed.data.map((each) => each.id)).toEqual([order.id]);

    const item = await expectStatus(api.GET('/v3/orderItems/{id}', { params: { path: { id: mugItem } } }), 200);
    expect(item.data.attributes).toMatchObject({ sku: mug, quantity: 2, price: 9.95 });
    const delivery = await expectStatus(
      api.GET('/v3/addresses/{id}', { params: { path: { id: order.relationships.deliveryAddress.data?.id ?? 0 } } }),
      200,
    );
    expect(delivery.data.attributes).toMatchObject({ street1: 'Kerkstraat', postcode: '4701AB', countryCode: 'NL' });
    const pickUpPoint = await expectStatus(
      api.GET('/v3/pickUpPoints/{id}', { params: { path: { id: order.relationships.pickUpPoint.data?.id ?? 0 } } }),
      200,
    );
    expect(pickUpPoint.data.attributes).toMatchObject({ identifier: 'PUP-123', countryCode: 'NL' });

    const updated = await expectStatus(
      api.PUT('/v3/orders/{id}', {
        params: { path: { id: order.id } },
        body: {
          data: { type: 'order', id: order.id, attributes: { externalOrderNumber, locale: 'en-GB', onHold: true, reference: 'second' } },
        },
      }),
      200,
    );
    expect(updated.data.attributes).toMatchObject({ locale: 'en-GB', onHold: true, reference: 'second' });

    // Cancelling sets a quantity to 0 as far as no shipment covers it.
    const cancelledItem = await expectStatus(api.DELETE('/v3/orderItems/{id}', { params: { path: { id: shirtItem } } }), 200);
    expect(cancelledItem.data.attributes).toMatchObject({ sku: shirt, quantity: 0 });
    expect(cancelledItem.meta).toEqual({ modified: true });
    const cancelled = await expectStatus(
      api.DELETE('/v3/orders/{id}', { params: { path: { id: order.id }, query: { include: 'orderItems' } } }),
      200,
    );
    expect(cancelled.meta).toEqual({ modified: true, modifiedItems: [mugItem] });
    expect(cancelled.included?.map((resource) => resource.type === 'orderItem' && resource.attributes.quantity)).toEqual([0, 0]);
  });

  it('Orders: an attachment goes as multipart/form-data, its data part the document as text and its file a Blob', async () => {
    const order = (await createOrder([{ sku: (await createProduct()).data.attributes.sku, quantity: 1 }])).data;
    const pdf = await onePageA4Pdf();
    const document = {
      data: {
        type: 'orderAttachment',
        attributes: { filename: 'invoice.pdf', contentType: 'application/pdf', printStrategy: 'REQUIRED' },
        relationships: { order: { data: { type: 'order', id: order.id } } },
      },
    };
    const created = await expectStatus(
      api.POST('/v3/orderAttachments', {
        body: { data: JSON.stringify(document), file: new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }) },
      }),
      201,
    );
    expect(created.data.attributes).toMatchObject({
      filename: 'invoice.pdf',
      contentType: 'application/pdf',
      printStrategy: 'REQUIRED',
      externalOrderNumber: order.attributes.externalOrderNumber,
    });
    expect(created.data.relationships.order.data?.id).toBe(order.id);
    const read = await expectStatus(api.GET('/v3/orderAttachments/{id}', { params: { path: { id: created.data.id } } }), 200);
    expect(read.data.attributes.filename).toBe('invoice.pdf');
  });

  it('Webhooks and Sandbox: a webhook, its deliveries after a shipment, redelivery, update and delete', async () => {
    const webhook = await expectStatus(
      api.POST('/v3/webhooks', {
        body: {
          data: {
            type: 'webhook',
            attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: 'http://127.0.0.1:9/hooks', isActive: true },
          },
        },
      }),
      201,
    );
    const id = webhook.data.id;
    expect(webhook.data.attributes).toMatchObject({ event: 'shipment.shipped.3', isActive: true });
    expect((await expectStatus(api.GET('/v3/webhooks'), 200)).data.map((each) => each.id)).toContain(id);
    expect((await expectStatus(api.GET('/v3/webhooks/{id}', { params: { path: { id } } }), 200)).data.attributes.targetUrl).toBe(
      'http://127.0.0.1:9/hooks',
    );

    const order = (await createOrder([{ sku: (await createProduct()).data.attributes.sku, quantity: 1 }])).data;
    const shipment = await expectStatus(api.POST('/sandbox/orders/{id}/ship', { params: { path: { id: order.id } } }), 201);
    const deliveries = await expectStatus(api.GET('/sandbox/webhooks/{id}/deliveries', { params: { path: { id } } }), 200);
    const delivery = deliveries.data.find((each) => each.attributes.entityId === shipment.data.id);
    expect(delivery?.attributes).toMatchObject({ event: 'shipment.shipped.3', entity: 'shipment' });
    const deliveryId = delivery?.id ?? 0;
    const one = await expectStatus(
      api.GET('/sandbox/webhooks/{id}/deliveries/{deliveryId}', { params: { path: { id, deliveryId } } }),
      200,
    );
    expect(one.data.relationships.webhook.data?.id).toBe(id);
    const again = await expectStatus(
      api.POST('/sandbox/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } } }),
      201,
    );
    expect(again.data.attributes).toMatchObject({ event: 'shipment.shipped.3', entityId: shipment.data.id });

    const updated = await expectStatus(
      api.PUT('/v3/webhooks/{id}', { params: { path: { id } }, body: { data: { type: 'webhook', id, attributes: { isActive: false } } } }),
      200,
    );
    expect(updated.data.attributes.isActive).toBe(false);
    await expectStatus(api.DELETE('/v3/webhooks/{id}', { params: { path: { id } } }), 204);
    expect((await api.GET('/v3/webhooks/{id}', { params: { path: { id } } })).response.status).toBe(404);
  });

  it('Shipments, Returns and Sandbox: ship, advance, fail and return a shipment; read shipments and return items', async () => {
    const sku = (await createProduct()).data.attributes.sku;
    const order = (await createOrder([{ sku, quantity: 2 }])).data;
    const shipped = await expectStatus(api.POST('/sandbox/orders/{id}/ship', { params: { path: { id: order.id } } }), 201);
    expect(shipped.data.attributes.status).toBe('SHIPPED');
    expect(shipped.data.relationships.order.data?.id).toBe(order.id);
    const shipmentId = shipped.data.id;

    const listed = await expectStatus(api.GET('/v3/shipments', { params: { query: { 'filter[orderId]': String(order.id) } } }), 200);
    expect(listed.data.map((shipment) => shipment.id)).toEqual([shipmentId]);
    const read = await expectStatus(
      api.GET('/v3/shipments/{id}', { params: { path: { id: shipmentId }, query: { include: 'shipmentItems' } } }),
      200,
    );
    const itemId = read.data.relationships.shipmentItems.data[0].id;
    expect(read.included?.map((resource) => resource.id)).toEqual([itemId]);
    const item = await expectStatus(api.GET('/v3/shipmentItems/{id}', { params: { path: { id: itemId } } }), 200);
    expect(item.data.attributes).toMatchObject({ sku, quantity: 2 });

    const labelled = shipped.data.attributes.tracking?.stage;
    const advanced = await expectStatus(api.POST('/sandbox/shipments/{id}/advance', { params: { path: { id: shipmentId } } }), 200);
    expect([labelled, advanced.data.attributes.tracking?.stage]).toEqual(['LABELLED', 'ACCEPTED']);

    const returned = await expectStatus(
      api.POST('/sandbox/shipments/{id}/return', {
        params: { path: { id: shipmentId } },
        body: { items: [{ sku, quantity: 1, condition: 'DAMAGED' }] },
      }),
      201,
    );
    expect(returned.data.map((returnItem) => returnItem.attributes)).toMatchObject([{ sku, quantity: 1, condition: 'DAMAGED' }]);
    const returnItemId = returned.data[0].id;
    const returnItems = await expectStatus(api.GET('/v3/returnItems'), 200);
    expect(returnItems.data.map((returnItem) => returnItem.id)).toContain(returnItemId);
    const returnItem = await expectStatus(api.GET('/v3/returnItems/{id}', { params: { path: { id: returnItemId } } }), 200);
    expect(returnItem.data.attributes).toMatchObject({ sku, quantity: 1 });

    // A shipment the warehouse is still working on: the clock moves, the warehouse picks the order from stock.
    const stocked = (await createProduct()).data.attributes.sku;
    await receiveStock(stocked, 5);
    const waiting = (await createOrder([{ sku: stocked, quantity: 1 }])).data;
    await expectStatus(api.POST('/sandbox/clock/advance', { body: { seconds: 1 } }), 200);
    const picking = await expectStatus(api.GET('/v3/shipments', { params: { query: { 'filter[orderId]': String(waiting.id) } } }), 200);
    expect(picking.data.map((shipment) => shipment.attributes.status)).toEqual(['READY_TO_PICK']);
    const failed = await expectStatus(api.POST('/sandbox/shipments/{id}/error', { params: { path: { id: picking.data[0].id } } }), 200);
    expect(failed.data.attributes.status).toBe('ERROR');
    const resolved = await expectStatus(api.POST('/sandbox/shipments/{id}/advance', { params: { path: { id: picking.data[0].id } } }), 200);
    expect(resolved.data.attributes.status).toBe('READY_TO_PICK');
  });

  it('Inbound, Stock and Sandbox: a packing slip received, its inbound, and the stock, levels and mutations it made', async () => {
    const sku = (await createProduct()).data.attributes.sku;
    const reference = unique('PO');
    const slip = await expectStatus(
      api.POST('/v3/inboundPackingSlips', {
        body: {
          data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', expectedOn: '2030-12-01', reference } },
          included: [{ type: 'inboundPackingSlipItem', attributes: { sku, quantity: 24 } }],
        },
      }),
      201,
    );
    expect(slip.data.attributes).toMatchObject({ reference, expectedIn: 'NR' });
    const slipId = slip.data.id;
    const slipItemId = slip.data.relationships.inboundPackingSlipItems.data[0].id;
    expect((await expectStatus(api.GET('/v3/inboundPackingSlips'), 200)).data.map((each) => each.id)).toContain(slipId);
    expect(
      (await expectStatus(api.GET('/v3/inboundPackingSlips/{id}', { params: { path: { id: slipId } } }), 200)).data.attributes.reference,
    ).toBe(reference);
    const slipItem = await expectStatus(api.GET('/v3/inboundPackingSlipItems/{id}', { params: { path: { id: slipItemId } } }), 200);
    expect(slipItem.data.attributes).toMatchObject({ sku, quantity: 24 });

    const inbound = await expectStatus(
      api.POST('/sandbox/inboundPackingSlips/{id}/receive', { params: { path: { id: slipId } }, body: {} }),
      201,
    );
    expect(inbound.data.attributes.reference).toBe(reference);
    expect((await expectStatus(api.GET('/v3/inbounds'), 200)).data.map((each) => each.id)).toContain(inbound.data.id);
    const readInbound = await expectStatus(api.GET('/v3/inbounds/{id}', { params: { path: { id: inbound.data.id } } }), 200);
    const inboundItemId = readInbound.data.relationships.inboundItems.data[0].id;
    const inboundItem = await expectStatus(api.GET('/v3/inboundItems/{id}', { params: { path: { id: inboundItemId } } }), 200);
    expect(inboundItem.data.attributes).toMatchObject({ sku, quantity: 24 });

    const stock = await expectStatus(api.GET('/v3/stock', { params: { query: { 'filter[sku][in]': sku } } }), 200);
    expect(stock.data.length).toBeGreaterThan(0);
    const stockId = stock.data[0].id;
    expect((await expectStatus(api.GET('/v3/stock/{id}', { params: { path: { id: stockId } } }), 200)).data.id).toBe(stockId);
    const locationId = stock.data[0].relationships.stockLocation.data?.id ?? 0;
    const location = await expectStatus(api.GET('/v3/stockLocations/{id}', { params: { path: { id: locationId } } }), 200);
    expect(location.data.id).toBe(locationId);

    const levels = await expectStatus(api.GET('/v3/stockLevels', { params: { query: { 'filter[sku][in]': sku } } }), 200);
    expect(levels.data).toHaveLength(1);
    const level = await expectStatus(api.GET('/v3/stockLevels/{id}', { params: { path: { id: levels.data[0].id } } }), 200);
    expect(level.data.attributes.sku).toBe(sku);

    const mutations = await expectStatus(api.GET('/v3/stockMutations'), 200);
    expect(mutations.data.length).toBeGreaterThan(0);
    const mutation = await expectStatus(api.GET('/v3/stockMutations/{id}', { params: { path: { id: mutations.data[0].id } } }), 200);
    expect(mutation.data.id).toBe(mutations.data[0].id);
  });

  it("Sandbox: the client's settings, its clock, and the request log", async () => {
    const current = await expectStatus(api.GET('/sandbox/settings'), 200);
    expect(current.data.type).toBe('sandboxSettings');
    const settings = await expectStatus(
      api.PUT('/sandbox/settings', {
        body: {
          data: {
            type: 'sandboxSettings',
            attributes: {
              languages: [
                { code: 'NL', name: 'Nederlands' },
                { code: 'EN', name: 'Engels' },
              ],
            },
          },
        },
      }),
      200,
    );
    expect(settings.data.attributes.languages.map((language) => language.code)).toEqual(['NL', 'EN']);

    const before = (await expectStatus(api.POST('/sandbox/clock/advance', { body: { seconds: 1 } }), 200)).data.attributes;
    const after = (await expectStatus(api.POST('/sandbox/clock/advance', { body: { seconds: 3600 } }), 200)).data.attributes;
    expect(after.offsetSeconds - before.offsetSeconds).toBe(3600);
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3600_000);

    const { response } = await api.GET('/v3/products', { params: { query: { 'page[size]': 1 } } });
    const requestId = response.headers.get('request-id') ?? '';
    expect(requestId).not.toBe('');
    const log = await expectStatus(api.GET('/sandbox/requests', { params: { query: { 'filter[requestId]': requestId } } }), 200);
    expect(log.data.map((entry) => entry.id)).toEqual([requestId]);
    const entry = await expectStatus(api.GET('/sandbox/requests/{id}', { params: { path: { id: requestId } } }), 200);
    expect(entry.data.attributes).toMatchObject({ method: 'GET', status: 200 });
  });
});

describe('typed error answers', () => {
  it('an unknown order is a 404-5, its code in errors[0].code', async () => {
    const { data, error, response } = await api.GET('/v3/orders/{id}', { params: { path: { id: 999_999 } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.errors[0].code).toBe('404-5');
  });

  it('a second order with the same externalOrderNumber is a 409-1', async () => {
    const sku = (await createProduct()).data.attributes.sku;
    const first = (await createOrder([{ sku, quantity: 1 }])).data;
    const { error, response } = await api.POST('/v3/orders', {
      body: {
        data: {
          type: 'order',
          attributes: { externalOrderNumber: first.attributes.externalOrderNumber, locale: 'nl-NL' },
          relationships: {
            orderType: { data: { type: 'orderType', id: account.orderTypeIds[0] } },
            deliveryAddress: { data: { type: 'address', id: 'home' } },
          },
        },
        included: [{ type: 'address', id: 'home', attributes: home }],
      },
    });
    expect(response.status).toBe(409);
    expect(error?.errors[0]).toMatchObject({ code: '409-1', source: { pointer: '/data/attributes/externalOrderNumber' } });
  });

  it('a change to a shipped order is a 422', async () => {
    const order = (await createOrder([{ sku: (await createProduct()).data.attributes.sku, quantity: 1 }])).data;
    await expectStatus(api.POST('/sandbox/orders/{id}/ship', { params: { path: { id: order.id } } }), 201);
    const { error, response } = await api.PUT('/v3/orders/{id}', {
      params: { path: { id: order.id } },
      body: {
        data: {
          type: 'order',
          id: order.id,
          attributes: { externalOrderNumber: order.attributes.externalOrderNumber, locale: 'en-GB', onHold: false },
        },
      },
    });
    expect(response.status).toBe(422);
    expect(error?.errors[0].code).toBe('422');
  });
});

describe('the v2 client', () => {
  it('adds an order with POST /order/add and finds it with GET /v2/order/search', async () => {
    const v2 = createShopApiV2Client({ baseUrl, username: account.username, password: account.password });
    const sku = (await createProduct()).data.attributes.sku;
    const settings = await expectStatus(v2.GET('/settings/get'), 200);
    const externalOrderNumber = unique('V2');
    const added = await expectStatus(
      v2.POST('/order/add', {
        body: {
          externalOrderNumber,
          paymentMethodId: 1,
          languageId: settings.result.languages[0].id,
          orderTypeId: settings.result.orderTypes[0].id,
          deliveryAddressLastName: 'Jansen',
          deliveryAddressStreet: 'Kerkstraat',
          deliveryAddressHouseNumber: 12,
          deliveryAddressPostalCode: '4701AB',
          deliveryAddressCityName: 'Roosendaal',
          deliveryAddressCountryIso: 'NL',
          orderItems: [{ sku, quantity: 2, price: 7.5 }],
        },
      }),
      200,
    );
    expect(added.messageCode).toBe('OK');
    const found = await expectStatus(v2.GET('/v2/order/search', { params: { query: { externalOrderNumber } } }), 200);
    expect(found).toMatchObject({ messageCode: 'OK', result: { orderNumber: added.result, externalOrderNumber } });
    // The same order through v3: the v2 order number is its v3 id.
    const v3 = await expectStatus(api.GET('/v3/orders/{id}', { params: { path: { id: added.result } } }), 200);
    expect(v3.data.attributes.externalOrderNumber).toBe(externalOrderNumber);
  });
});

describe('coverage', () => {
  it('exercised every operation group (tag) of the v3 document', () => {
    const document = buildOpenApi('v3') as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const exercised = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.entries(item).flatMap(([method, operation]) => (called.has(`${method} ${path}`) ? (operation.tags ?? []) : [])),
      ),
    );
    expect(document.tags.map((tag) => tag.name).filter((tag) => !exercised.has(tag))).toEqual([]);
  });
});
