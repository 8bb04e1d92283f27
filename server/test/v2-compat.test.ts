// What public v2 client libraries and shop plugins rely on: a search that misses is a 200 NOK (but GET /v2/order/search, a
// 404), the statuses of the adds, the legacy field names of purchase orders and returns, and an order item VAT sent as a
// fraction or as a percentage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, uniqueNumber } from './support/fixtures.ts';
import { bodyStyles, sendV2, v2Order } from './support/v2.ts';

let sb: TestSandbox;
let client: TestClient;
let other: TestClient;
let damagedReasonId: number;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  other = await sb.newClient();
  await createProducts(sb, client.token, ['CO-MUG', 'CO-SHIRT']);
  const settings = (await sb.call('GET', '/settings/get', { token: client.token })).body.result;
  damagedReasonId = settings.returnReasons.find((r: { code: string }) => r.code === 'DAMAGED').id;
});
afterAll(() => sb.close());

const nok = (message: string) => ({ messageCode: 'NOK', message, result: null });

async function addOrder(items: Record<string, unknown>[] = [{ sku: 'CO-MUG', quantity: 2, price: 7.5 }], style = bodyStyles[0]) {
  const order = v2Order({ orderTypeId: client.orderTypeIds[0], languageId: client.languageIds[0], orderItems: items });
  const answer = await sendV2(sb, 'POST', '/order/add', order, client.token, style);
  expect(answer.body.messageCode, answer.raw).toBe('OK');
  return { orderId: answer.body.result as number, externalOrderNumber: order.externalOrderNumber as string };
}

async function shippedOrder(items?: Record<string, unknown>[]) {
  const order = await addOrder(items);
  const ship = await sb.call('POST', `/sandbox/orders/${order.orderId}/ship`, { token: client.token });
  expect(ship.status, ship.raw).toBe(201);
  return { ...order, shipmentId: Number(ship.body.data.id) };
}

/** A second shipment of the same order, as a split delivery makes: a copy of the shipment row, then items moved or copied in. */
async function secondShipment(shipmentId: number) {
  const db = sb.database.db;
  const [{ id: _id, ...row }] = await db.select().from(schema.shipments).where(eq(schema.shipments.id, shipmentId));
  const [copy] = await db.insert(schema.shipments).values(row).returning({ id: schema.shipments.id });
  return copy.id;
}

const itemsOf = (shipmentId: number) =>
  sb.database.db
    .select()
    .from(schema.shipmentItems)
    .where(eq(schema.shipmentItems.shipmentId, shipmentId))
    .orderBy(asc(schema.shipmentItems.id));
const returnItemsOf = (returnId: number) =>
  sb.database.db.select().from(schema.returnItems).where(eq(schema.returnItems.returnId, returnId)).orderBy(asc(schema.returnItems.id));
const returnCount = async () => (await sb.database.db.select().from(schema.returns).where(eq(schema.returns.clientId, client.id))).length;

// The same client reads an order with GET /v2/order/search and maps its 404 to "not found": v2-orders.test.ts.
describe('the statuses a public PHP client requires', () => {
  it.each(bodyStyles)('/product/add answers 201 and /order/add 200 (%s)', async (style) => {
    const product = await sendV2(sb, 'POST', '/product/add', { sku: uniqueNumber('CO-PHP'), name: 'New' }, client.token, style);
    expect(product.status, product.raw).toBe(201);
    const order = v2Order({
      orderTypeId: client.orderTypeIds[0],
      languageId: client.languageIds[0],
      orderItems: [{ sku: 'CO-MUG', quantity: 1, price: 7.5 }],
    });
    expect((await sendV2(sb, 'POST', '/order/add', order, client.token, style)).status).toBe(200);
  });
});

describe('a v2 search by POST or by key that finds nothing answers 200 NOK, never a 404', () => {
  it.each(bodyStyles)('product search (%s): NOK for a new sku, then OK once added, as "save()" in the PHP clients does', async (style) => {
    const sku = uniqueNumber('CO-NEW');
    const search = () => sendV2(sb, 'POST', '/product/search', { sku }, client.token, style);
    const miss = await search();
    expect(miss.status).toBe(200);
    expect(miss.body).toEqual(nok('Product not found.'));
    expect((await sendV2(sb, 'POST', '/product/add', { sku, name: 'New' }, client.token, style)).body.messageCode).toBe('OK');
    expect((await search()).body).toMatchObject({ messageCode: 'OK', message: 'Product found.', result: { sku } });
    // Another client's sku reads exactly like a missing one.
    expect((await sendV2(sb, 'POST', '/v2/product/search', { sku }, other.token, style)).raw).toBe(miss.raw);
    expect((await sb.call('GET', `/v2/product/search?sku=${sku}`, { token: other.token })).raw).toBe(miss.raw);
    expect((await sb.call('GET', '/product/search?Barcode=0000000', { token: client.token })).body).toEqual(nok('Product not found.'));
  });

  it.each(bodyStyles)("order search by POST (%s): the same NOK for an unknown number and another client's", async (style) => {
    const { externalOrderNumber } = await addOrder();
    const answers = [
      await sendV2(sb, 'POST', '/order/search', { externalOrderNumber: 'CO-NO-SUCH-ORDER' }, client.token, style),
      await sendV2(sb, 'POST', '/v2/order/search', { externalOrderNumber }, other.token, style),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(nok('Order not found.'));
    }
    expect((await sendV2(sb, 'POST', '/order/search', { externalOrderNumber }, client.token, style)).body).toMatchObject({
      messageCode: 'OK',
      result: { externalOrderNumber },
    });
  });

  it.each(bodyStyles)('shipment search (%s): NOK by id or externalOrderNumber; by date alone an OK list, maybe empty', async (style) => {
    const { shipmentId, externalOrderNumber } = await shippedOrder();
    for (const [criteria, token] of [
      [{ id: 2_000_000_000 }, client.token],
      [{ externalOrderNumber: 'CO-NO-SUCH-ORDER' }, client.token],
      [{ id: shipmentId }, other.token],
      [{ externalOrderNumber }, other.token],
      // A not-yet-shipped order has no shipment: the same NOK.
      [{ externalOrderNumber: (await addOrder()).externalOrderNumber }, client.token],
    ] as const) {
      const answer = await sendV2(sb, 'POST', '/shipment/search', criteria, token, style);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(nok('Shipment not found.'));
    }
    expect((await sendV2(sb, 'POST', '/shipment/search', { id: shipmentId }, client.token, style)).body.result).toEqual([
      expect.objectContaining({ id: shipmentId }),
    ]);
    expect((await sendV2(sb, 'POST', '/shipment/search', { shippingDate: '2020-01-01' }, client.token, style)).body).toEqual({
      messageCode: 'OK',
      message: 'Found 0 shipments that match your criteria.',
      result: [],
    });
  });

  it("stock per sku: NOK for an unknown sku and another client's, on both paths", async () => {
    for (const url of ['/stock/get/CO-NOPE', '/v2/stock/get/CO-NOPE']) {
      const miss = await sb.call('GET', url, { token: client.token });
      expect(miss.status, url).toBe(200);
      expect(miss.body, url).toEqual(nok('Product not found.'));
      expect((await sb.call('GET', url.replace('CO-NOPE', 'CO-MUG'), { token: other.token })).raw, url).toBe(miss.raw);
      expect((await sb.call('GET', url.replace('CO-NOPE', 'CO-MUG'), { token: client.token })).body.messageCode, url).toBe('OK');
    }
  });

  it('keeps the documented 404 body for unknown routes and for calls that are not searches', async () => {
    const unknown = await sb.call('GET', '/v2/no/such/route', { token: client.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: '404 Not Found', error_description: 'The requested resource could not be found' });
    expect(
      (await sb.call('POST', '/order/release', { token: client.token, body: { externalOrderNumber: 'CO-NO-SUCH-ORDER' } })).status,
    ).toBe(404);
    expect((await sb.call('GET', '/v2/returnlabel/get/2000000000', { token: client.token })).status).toBe(404);
  });
});

describe('purchase orders: ApiPurchaseOrderItemViewModels, the deprecated name of purchaseOrderItems', () => {
  const slipItems = async (id: number) =>
    sb.database.db
      .select()
      .from(schema.inboundPackingSlipItems)
      .where(eq(schema.inboundPackingSlipItems.inboundPackingSlipId, id))
      .orderBy(asc(schema.inboundPackingSlipItems.id));

  it.each(bodyStyles)('adds and edits with the legacy item list (%s), ExpectedDeliveryDate as the item date', async (style) => {
    const added = await sendV2(
      sb,
      'POST',
      '/purchaseorder/add',
      {
        reference: uniqueNumber('CO-PO'),
        apiPurchaseOrderItemViewModels: [
          { sku: 'CO-MUG', quantity: 10, expectedDeliveryDate: '2026-12-03' },
          { sku: 'CO-SHIRT', quantity: 4 },
        ],
      },
      client.token,
      style,
    );
    expect(added.body, added.raw).toEqual({ messageCode: 'OK', message: 'PurchaseOrder added successfully.', result: expect.any(Number) });
    expect((await slipItems(added.body.result)).map((i) => [i.sku, i.quantity, i.expectedDate])).toEqual([
      ['CO-MUG', 10, '2026-12-03'],
      ['CO-SHIRT', 4, null],
    ]);

    const edited = await sendV2(
      sb,
      'POST',
      '/purchaseorder/edit',
      {
        purchaseOrderId: added.body.result,
        apiPurchaseOrderItemViewModels: [
          { sku: 'CO-MUG', quantity: 12 },
          { sku: 'CO-SHIRT', quantity: 0 },
        ],
      },
      client.token,
      style,
    );
    expect(edited.body, edited.raw).toMatchObject({ messageCode: 'OK', result: added.body.result });
    expect((await slipItems(added.body.result)).map((i) => [i.sku, i.quantity])).toEqual([['CO-MUG', 12]]);
  });

  it('validates the legacy list like the documented one, and refuses both lists or neither', async () => {
    const validation = 'Input did not pass validation. Check result for errors.';
    const add = (body: Record<string, unknown>) =>
      sb.call('POST', '/purchaseorder/add', { token: client.token, body: { reference: uniqueNumber('CO-PO'), ...body } });
    const item = { sku: 'CO-MUG', quantity: 1 };
    expect((await add({ apiPurchaseOrderItemViewModels: [item], purchaseOrderItems: [item] })).body).toEqual({
      messageCode: 'NOK',
      message: validation,
      result: ['Send purchaseOrderItems or ApiPurchaseOrderItemViewModels, not both.'],
    });
    expect((await add({})).body).toEqual({ messageCode: 'NOK', message: validation, result: ['purchaseOrderItems is required.'] });
    for (const bad of [[], [{ sku: 'CO-MUG', quantity: 0 }], [{ sku: 'CO-MUG', quantity: 1.5 }], [{ sku: 'x'.repeat(81), quantity: 1 }]]) {
      const answer = await add({ apiPurchaseOrderItemViewModels: bad });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.message, JSON.stringify(bad)).toBe(validation);
    }
    const badDate = await add({ apiPurchaseOrderItemViewModels: [{ ...item, expectedDeliveryDate: 'soon' }] });
    expect(badDate.body).toEqual({
      messageCode: 'NOK',
      message: validation,
      result: ["The value 'soon' is not valid for ExpectedDeliveryDate."],
    });
  });
});

describe('rma/add: ExternalOrderNumber with ApiRmaNotificationItemViewModels, the deprecated shape', () => {
  const rma = (body: Record<string, unknown>, style = bodyStyles[0]) => sendV2(sb, 'POST', '/rma/add', body, client.token, style);
  const legacy = (externalOrderNumber: string, lines: Record<string, unknown>[]) => ({
    externalOrderNumber,
    apiRmaNotificationItemViewModels: lines,
  });

  it.each(bodyStyles)('registers the return on the shipment that carried the sku (%s), IsDamaged as the DAMAGED reason', async (style) => {
    const { externalOrderNumber, shipmentId } = await shippedOrder([
      { sku: 'CO-MUG', quantity: 2, price: 7.5 },
      { sku: 'CO-SHIRT', quantity: 1, price: 20 },
    ]);
    const answer = await rma(
      {
        ...legacy(externalOrderNumber, [
          { productSku: 'CO-MUG', quantity: 2, isDamaged: 1 },
          { productSku: 'CO-SHIRT', quantity: 1, isDamaged: 0 },
        ]),
        remark: 'legacy',
      },
      style,
    );
    expect(answer.body, answer.raw).toEqual({ messageCode: 'OK', message: 'RMA created.', result: expect.any(Number) });
    const [row] = await sb.database.db.select().from(schema.returns).where(eq(schema.returns.id, answer.body.result));
    expect(row).toMatchObject({ shipmentId, remark: 'legacy' });
    const shipped = await itemsOf(shipmentId);
    expect((await returnItemsOf(row.id)).map((i) => [i.shipmentItemId, i.sku, i.quantity, i.returnReasonId])).toEqual([
      [shipped.find((i) => i.sku === 'CO-MUG')!.id, 'CO-MUG', 2, damagedReasonId],
      [shipped.find((i) => i.sku === 'CO-SHIRT')!.id, 'CO-SHIRT', 1, null],
    ]);
  });

  it("spreads a quantity over the shipment's items with the same sku, and refuses more than was shipped", async () => {
    const { externalOrderNumber, shipmentId } = await shippedOrder([
      { sku: 'CO-MUG', quantity: 2, price: 7.5 },
      { sku: 'CO-MUG', quantity: 1, price: 7 },
    ]);
    const shipped = await itemsOf(shipmentId);
    expect(shipped.map((i) => i.quantity)).toEqual([2, 1]);
    const before = await returnCount();
    expect((await rma(legacy(externalOrderNumber, [{ productSku: 'CO-MUG', quantity: 4 }]))).body).toEqual(
      nok(`More of SKU "CO-MUG" is returned than the 3 shipped in shipment ${shipmentId}.`),
    );
    expect(await returnCount()).toBe(before);
    const answer = await rma(legacy(externalOrderNumber, [{ productSku: 'CO-MUG', quantity: 3, isDamaged: true }]));
    expect(answer.body.messageCode, answer.raw).toBe('OK');
    expect((await returnItemsOf(answer.body.result)).map((i) => [i.shipmentItemId, i.quantity, i.returnReasonId])).toEqual([
      [shipped[0].id, 2, damagedReasonId],
      [shipped[1].id, 1, damagedReasonId],
    ]);
  });

  it('answers a clear NOK, writing nothing, for an unknown order, a sku not shipped, and skus that do not name one shipment', async () => {
    const single = await shippedOrder();
    const notShippedYet = await addOrder();
    const split = await shippedOrder([
      { sku: 'CO-MUG', quantity: 1, price: 7.5 },
      { sku: 'CO-SHIRT', quantity: 1, price: 20 },
    ]);
    const splitSecond = await secondShipment(split.shipmentId);
    await sb.database.db
      .update(schema.shipmentItems)
      .set({ shipmentId: splitSecond })
      .where(and(eq(schema.shipmentItems.shipmentId, split.shipmentId), eq(schema.shipmentItems.sku, 'CO-SHIRT')));
    const twice = await shippedOrder();
    const twiceSecond = await secondShipment(twice.shipmentId);
    const [{ id: _id, ...mug }] = await itemsOf(twice.shipmentId);
    await sb.database.db.insert(schema.shipmentItems).values({ ...mug, shipmentId: twiceSecond });

    const before = await returnCount();
    const mug1 = { productSku: 'CO-MUG', quantity: 1 };
    for (const [body, message] of [
      [legacy('CO-NO-SUCH-ORDER', [mug1]), 'Order "CO-NO-SUCH-ORDER" not found.'],
      [
        legacy(single.externalOrderNumber, [{ productSku: 'CO-SHIRT', quantity: 1 }]),
        `SKU "CO-SHIRT" was not shipped for order "${single.externalOrderNumber}".`,
      ],
      [legacy(notShippedYet.externalOrderNumber, [mug1]), `SKU "CO-MUG" was not shipped for order "${notShippedYet.externalOrderNumber}".`],
      [
        legacy(split.externalOrderNumber, [mug1, { productSku: 'CO-SHIRT', quantity: 1 }]),
        `No single shipment of order "${split.externalOrderNumber}" carries every SKU ("CO-MUG" in shipment ${split.shipmentId}; "CO-SHIRT" in shipment ${splitSecond}): register one return per shipment with shipmentId and rmaItems.`,
      ],
      [
        legacy(twice.externalOrderNumber, [mug1]),
        `Several shipments of order "${twice.externalOrderNumber}" carry these SKUs ("CO-MUG" in shipment ${twice.shipmentId}, ${twiceSecond}): register the return with shipmentId and rmaItems.`,
      ],
    ] as const) {
      for (const style of bodyStyles) {
        const answer = await rma(body, style);
        expect(answer.status, message).toBe(400);
        expect(answer.body, message).toEqual(nok(message));
      }
    }
    // Another client's order reads like a missing one.
    expect((await sendV2(sb, 'POST', '/rma/add', legacy(single.externalOrderNumber, [mug1]), other.token)).body).toEqual(
      nok(`Order "${single.externalOrderNumber}" not found.`),
    );
    expect(await returnCount()).toBe(before);
    // Split deliveries are returned per shipment: one sku alone finds its shipment.
    const shirt = await rma(legacy(split.externalOrderNumber, [{ productSku: 'CO-SHIRT', quantity: 1 }]));
    expect(shirt.body.messageCode, shirt.raw).toBe('OK');
    expect((await sb.database.db.select().from(schema.returns).where(eq(schema.returns.id, shirt.body.result)))[0].shipmentId).toBe(
      splitSecond,
    );
  });

  it('refuses a mix of the two shapes, and names what is missing', async () => {
    const { externalOrderNumber, shipmentId } = await shippedOrder();
    const [item] = await itemsOf(shipmentId);
    const documented = { shipmentId, rmaItems: [{ shipmentItemId: item.id, quantity: 1, returnReasonId: damagedReasonId }] };
    const lines = [{ productSku: 'CO-MUG', quantity: 1 }];
    const malformed = (problem: string) => ({
      messageCode: 'NOK',
      message: 'Unable to process request due to malformed contents',
      result: [problem],
    });
    for (const [body, problem] of [
      [{ ...documented, apiRmaNotificationItemViewModels: lines }, 'Send rmaItems or ApiRmaNotificationItemViewModels, not both.'],
      [
        { shipmentId, externalOrderNumber, apiRmaNotificationItemViewModels: lines },
        'shipmentId goes with rmaItems; with ApiRmaNotificationItemViewModels send ExternalOrderNumber.',
      ],
      [{ apiRmaNotificationItemViewModels: lines }, 'ExternalOrderNumber is required with ApiRmaNotificationItemViewModels.'],
      [{ rmaItems: documented.rmaItems }, 'shipmentId is required.'],
      [{ shipmentId, remark: 'no items' }, 'rmaItems is required.'],
    ] as const) {
      const answer = await rma(body);
      expect(answer.status, problem).toBe(400);
      expect(answer.body, problem).toEqual(malformed(problem));
    }
    // The documented shape still works, and an ExternalOrderNumber sent along with it changes nothing.
    expect((await rma({ ...documented, externalOrderNumber })).body.messageCode).toBe('OK');
  });
});

describe('v2 order item vat: below 1 a fraction, from 1 up a percentage', () => {
  it.each(bodyStyles)('stores 0.21 and 21 alike as the fraction 0.21 (%s)', async (style) => {
    const { orderId } = await addOrder(
      [
        { sku: 'CO-MUG', quantity: 1, price: 7.5, vat: 0.21 },
        { sku: 'CO-SHIRT', quantity: 1, price: 20, vat: 21 },
        { sku: 'CO-MUG', quantity: 1, price: 7.5, vat: 0.09 },
        { sku: 'CO-SHIRT', quantity: 1, price: 20, vat: 9 },
        { sku: 'CO-MUG', quantity: 1, price: 7.5, vat: 0 },
      ],
      style,
    );
    const read = await sb.call('GET', `/v3/orders/${orderId}?include=orderItems`, { token: client.token });
    const vats = read.body.included
      .filter((r: { type: string }) => r.type === 'orderItem')
      .map((r: { attributes: { vat: number } }) => r.attributes.vat);
    expect(vats).toEqual([0.21, 0.21, 0.09, 0.09, 0]);
  });
});
