// What the sandbox did with a request beyond what was asked, told in Sandbox-Warning headers: keys it ignored, deprecated
// names it read, values it converted, defaults it applied, in the body styles real clients send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '@shopapi/contract';
import { pageOf } from '../src/api/shared/query.ts';
import { Warnings } from '../src/platform/request-warnings.ts';
import { startSandbox, type Answer, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, dutchAddress, orderDocument, uniqueNumber } from './support/fixtures.ts';
import { bodyStyles, sendV2, v2Order, type BodyStyle } from './support/v2.ts';
import { receiveGoods } from './support/inventory.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['RW-MUG']);
  // In stock: an order for goods the warehouse does not hold is told so (a `scenario` warning, waits-for-stock).
  await receiveGoods(sb, client, [{ sku: 'RW-MUG', quantity: 10_000 }]);
});
afterAll(() => sb.close());

/** The Sandbox-Warning header lines of an answer. */
const warningsOf = (answer: Answer): string[] => ([] as string[]).concat(answer.headers['sandbox-warning'] ?? []);

/** An unknown key is named as the client spelled it; the helpers send PascalCase keys in the PascalCase and form styles. */
const spelled = (style: BodyStyle, key: string) => (style === 'json camelCase' ? key : key.charAt(0).toUpperCase() + key.slice(1));

/** A v2 order that leaves nothing to default and nothing to read leniently. */
const completeV2Order = (overrides: Record<string, unknown> = {}) =>
  v2Order({
    orderTypeId: client.orderTypeIds[0],
    shippingMethodId: client.mainShippingMethodIds[0],
    currency: 'EUR',
    partialDelivery: false,
    billingAddressLastName: 'Jansen',
    billingAddressStreet: 'Markt',
    billingAddressHouseNumber: 1,
    billingAddressPostalCode: '4701AA',
    billingAddressCityName: 'Roosendaal',
    billingAddressCountryIso: 'NL',
    orderItems: [{ sku: 'RW-MUG', quantity: 2, price: 7.5, vat: 21, name: 'Mug' }],
    ...overrides,
  });

const addV2Order = async (order: Record<string, unknown>, style: BodyStyle = 'json camelCase') => {
  const answer = await sendV2(sb, 'POST', '/order/add', order, client.token, style);
  expect(answer.body.messageCode, answer.raw).toBe('OK');
  return answer;
};

describe('a request the sandbox read as sent carries no Sandbox-Warning header', () => {
  it.each(bodyStyles)('v2 order add with every field given (%s)', async (style) => {
    expect(warningsOf(await addV2Order(completeV2Order(), style))).toEqual([]);
  });

  it('v3 order create with every default given, and a list read', async () => {
    const document = orderDocument(client, {
      attributes: { email: 'jane@example.com', currency: 'EUR', allowPartialDelivery: false },
      billing: { ...dutchAddress, street1: 'Markt' },
      shippingMethodId: client.mainShippingMethodIds[0],
      items: [{ sku: 'RW-MUG', quantity: 1, price: 5, vat: 0.21, name: 'Mug' }],
    });
    const created = await sb.call('POST', '/v3/orders', { token: client.token, body: document });
    expect(created.status, created.raw).toBe(201);
    expect(created.headers).not.toHaveProperty('sandbox-warning');
    const list = await sb.call('GET', '/v3/orders?page%5Bsize%5D=100', { token: client.token });
    expect(list.status).toBe(200);
    expect(list.headers).not.toHaveProperty('sandbox-warning');
  });
});

describe('ignored: v2 stays lenient about unknown keys and parameters, and says which it did not read', () => {
  it.each(bodyStyles)('unknown body keys, on the order and on an item (%s)', async (style) => {
    const order = completeV2Order({
      bankAccount: 'NL91ABNA0417164300',
      orderItems: [{ sku: 'RW-MUG', quantity: 2, price: 7.5, vat: 21, name: 'Mug', colour: 'red' }],
    });
    expect(warningsOf(await addV2Order(order, style))).toEqual([
      `ignored /orderItems/0/${spelled(style, 'colour')}: not a field of this call; not read`,
      `ignored /${spelled(style, 'bankAccount')}: not a field of this call; not read`,
    ]);
  });

  it('unknown query parameters, with a query schema and without one', async () => {
    const search = await sb.call('GET', '/v2/order/search?ExternalOrderNumber=RW-NONE&_=1700000000', { token: client.token });
    expect(warningsOf(search)).toEqual(['ignored _: not a parameter of this call; not read']);
    const mutations = await sb.call('GET', '/v2/stockmutation/get?since=2026-01-01', { token: client.token });
    expect(mutations.status).toBe(200);
    expect(warningsOf(mutations)).toEqual(['ignored since: not a parameter of this call; not read']);
  });

  it('a field sent twice in two spellings: the later one is read', async () => {
    const search = await sb.call('POST', '/order/search', {
      token: client.token,
      body: { externalOrderNumber: 'RW-A', ExternalOrderNumber: 'RW-B' },
    });
    expect(warningsOf(search)).toEqual([
      'ignored /externalOrderNumber: externalOrderNumber came twice, in two spellings; this later one is read',
    ]);
  });

  it('a body of 5,000 stray keys answers with ten warnings and a pointer to the rest', async () => {
    const stray = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`stray${i}`, 'x']));
    const answer = await addV2Order({ ...completeV2Order(), ...stray });
    const lines = warningsOf(answer);
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('ignored /stray0: not a field of this call; not read');
    expect(lines[10]).toMatch(/^more: 4990 further warnings; see GET \/sandbox\/requests\/\S+$/);
  });
});

describe('coerced: values read other than as sent', () => {
  it('numbers and booleans sent as text in a JSON body (PascalCase keys)', async () => {
    const order = completeV2Order({
      partialDelivery: 'true',
      orderItems: [{ sku: 'RW-MUG', quantity: '2', price: 7.5, vat: 21, name: 'Mug' }],
    });
    expect(warningsOf(await addV2Order(order, 'json PascalCase'))).toEqual([
      'coerced /orderItems/0/quantity: the text "2" read as the number 2',
      'coerced /partialDelivery: the text "true" read as true',
    ]);
  });

  it('a single value or an object of index keys for a list, a number for a text (JSON)', async () => {
    const sync = (body: unknown) => sb.call('POST', '/v2/stockmutation/sync', { token: client.token, body });
    expect(warningsOf(await sync({ Ids: 999999 }))).toEqual(['coerced /ids: a single value read as a list of one']);
    expect(warningsOf(await sync({ Ids: { 0: '999999' } }))).toEqual([
      'coerced /ids: an object with index keys read as a list',
      'coerced /ids/0: the text "999999" read as the number 999999',
    ]);
    const order = completeV2Order({ extra1: 42 });
    expect(warningsOf(await addV2Order(order, 'json PascalCase'))).toEqual(['coerced /extra1: the number 42 read as the text "42"']);
  });

  it('but not in a form body, where every value is text', async () => {
    expect(warningsOf(await addV2Order(completeV2Order({ partialDelivery: 'true' }), 'form'))).toEqual([]);
  });

  it.each(bodyStyles)('an item VAT below 1 is read as a fraction (%s)', async (style) => {
    const order = completeV2Order({
      orderItems: [
        { sku: 'RW-MUG', quantity: 1, price: 7.5, vat: 21, name: 'Mug' },
        { sku: 'RW-MUG', quantity: 1, price: 7.5, vat: 0.09, name: 'Mug' },
      ],
    });
    expect(warningsOf(await addV2Order(order, style))).toEqual([
      'coerced /orderItems/1/vat: 0.09 is below 1: read as the fraction 0.09 (9 %), not as 0.09 %',
    ]);
  });

  it.each(bodyStyles)('a missing house number is taken from the street (%s)', async (style) => {
    const order = completeV2Order({
      deliveryAddressStreet: 'Kerkstraat 12b',
      deliveryAddressHouseNumber: undefined,
      deliveryAddressHouseNumberAddition: undefined,
    });
    expect(warningsOf(await addV2Order(order, style))).toEqual([
      'coerced /deliveryAddressStreet: house number 12 and addition "b" taken from the street "Kerkstraat 12b"',
    ]);
  });

  it('a v3 page size above the maximum is capped', async () => {
    const list = await sb.call('GET', '/v3/orders?page%5Bsize%5D=500', { token: client.token });
    expect(list.status).toBe(200);
    expect(warningsOf(list)).toEqual([`coerced page[size]: 500 is above the maximum; pages of ${limits.pageSizeMax}`]);
  });

  it('every v3 list notes its page size cap, and the stock mutations their unused page[number]', async () => {
    for (const path of ['/v3/shipments', '/v3/products', '/v3/stock', '/v3/returnItems', '/v3/webhooks']) {
      const list = await sb.call('GET', `${path}?page%5Bsize%5D=500`, { token: client.token });
      expect(list.status, path).toBe(200);
      expect(warningsOf(list), path).toEqual([`coerced page[size]: 500 is above the maximum; pages of ${limits.pageSizeMax}`]);
    }
    const mutations = await sb.call('GET', '/v3/stockMutations?page%5Bnumber%5D=0', { token: client.token });
    expect(warningsOf(mutations)).toEqual(['ignored page[number]: 0 is below 1; treated as omitted']);
  });

  it('a page[number] below 1 counts as omitted, and page[cursor] goes before it', () => {
    const warnings = new Warnings();
    expect(pageOf({ 'page[number]': 0, 'page[cursor]': 0, 'page[size]': 10 }, warnings)).toEqual({ cursor: 0, size: 10 });
    expect(pageOf({ 'page[number]': 7, 'page[cursor]': 3, 'page[size]': 10 }, warnings)).toEqual({ cursor: 3, size: 10 });
    expect(warnings.list).toEqual([
      { kind: 'ignored', detail: '0 is below 1; treated as omitted', source: 'page[number]' },
      { kind: 'ignored', detail: 'page[cursor] is given and goes first; not read', source: 'page[number]' },
    ]);
  });
});

describe('alias: deprecated names are read, and the answer names the documented field', () => {
  it('ApiPurchaseOrderItemViewModels with ExpectedDeliveryDate (JSON, PascalCase)', async () => {
    const added = await sendV2(
      sb,
      'POST',
      '/purchaseorder/add',
      {
        reference: uniqueNumber('RW-PO'),
        apiPurchaseOrderItemViewModels: [{ sku: 'RW-MUG', quantity: 10, expectedDeliveryDate: '2026-12-03' }],
      },
      client.token,
      'json PascalCase',
    );
    expect(added.body.messageCode, added.raw).toBe('OK');
    expect(warningsOf(added)).toEqual([
      'alias /apiPurchaseOrderItemViewModels: deprecated; use purchaseOrderItems',
      'alias /apiPurchaseOrderItemViewModels/0/expectedDeliveryDate: deprecated; use expectedDate',
    ]);
  });

  it('rma/add with ExternalOrderNumber and ApiRmaNotificationItemViewModels (form, PHP-style brackets)', async () => {
    const order = completeV2Order();
    const orderId = (await addV2Order(order)).body.result;
    expect((await sb.call('POST', `/sandbox/orders/${orderId}/ship`, { token: client.token })).status).toBe(201);
    const rma = await sendV2(
      sb,
      'POST',
      '/rma/add',
      {
        externalOrderNumber: order.externalOrderNumber,
        apiRmaNotificationItemViewModels: [{ productSku: 'RW-MUG', quantity: 1 }],
      },
      client.token,
      'form',
    );
    expect(rma.body.messageCode, rma.raw).toBe('OK');
    expect(warningsOf(rma)).toEqual([
      'alias /externalOrderNumber: deprecated; use shipmentId',
      'alias /apiRmaNotificationItemViewModels: deprecated; use rmaItems (shipmentItemId, quantity, returnReasonId)',
    ]);
  });
});

describe('default: values filled in where the client left them out', () => {
  it('v3 order create: billing address, shipping method, email, currency, partial delivery, item vat and name', async () => {
    const created = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: [{ sku: 'RW-MUG', quantity: 1, price: 5 }] }),
    });
    expect(created.status, created.raw).toBe(201);
    expect(warningsOf(created)).toEqual([
      'default /data/attributes/email: not given: the no-reply address no-reply@sandbox.invalid',
      'default /data/attributes/currency: not given: EUR',
      'default /data/attributes/allowPartialDelivery: not given: false',
      expect.stringMatching(/^default \/data\/relationships\/preferredShippingMethod: not given: your main shipping method \d+ \(.+\)$/),
      'default /data/relationships/billingAddress: no billing address: the delivery address is the billing address',
      'default /included/1/attributes/vat: not given: 0',
      'default /included/1/attributes/name: not given: the product name "Product RW-MUG"',
    ]);
  });

  it.each(bodyStyles)('v2 order add (%s)', async (style) => {
    const order = v2Order({
      orderTypeId: client.orderTypeIds[0],
      email: undefined,
      orderItems: [{ sku: 'RW-MUG', quantity: 1, price: 5 }],
    });
    expect(warningsOf(await addV2Order(order, style))).toEqual([
      'default /email: not given: the no-reply address no-reply@sandbox.invalid',
      'default /currency: not given: EUR',
      'default /partialDelivery: not given: false',
      expect.stringMatching(/^default \/shippingMethodId: not given: your main shipping method \d+ \(.+\)$/),
      'default: no billing address: the delivery address is the billing address',
      'default /orderItems/0/vat: not given: 0',
      'default /orderItems/0/name: not given: the product name "Product RW-MUG"',
    ]);
  });

  it('a refused order notes no defaults, only how it was read', async () => {
    const answer = await sendV2(
      sb,
      'POST',
      '/order/add',
      v2Order({ orderTypeId: client.orderTypeIds[0], orderItems: [{ sku: 'RW-NO-SUCH', quantity: 1, price: 5, vat: 0.21 }] }),
      client.token,
    );
    expect(answer.body.messageCode, answer.raw).toBe('NOK');
    expect(warningsOf(answer)).toEqual(['coerced /orderItems/0/vat: 0.21 is below 1: read as the fraction 0.21 (21 %), not as 0.21 %']);
  });

  it("v3 order update: relationships are not read, a null allowPartialDelivery takes the order type's default", async () => {
    const created = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { attributes: { email: 'jane@example.com' }, items: [{ sku: 'RW-MUG', quantity: 1, price: 5 }] }),
    });
    const id = Number(created.body.data.id);
    const updated = await sb.call('PUT', `/v3/orders/${id}`, {
      token: client.token,
      body: {
        data: {
          type: 'order',
          id,
          attributes: {
            externalOrderNumber: created.body.data.attributes.externalOrderNumber,
            locale: 'nl-NL',
            onHold: false,
            email: 'jane@example.com',
            allowPartialDelivery: null,
          },
          relationships: { orderType: { data: { type: 'orderType', id: client.orderTypeIds[1] } } },
        },
      },
    });
    expect(updated.status, updated.raw).toBe(200);
    expect(warningsOf(updated)).toEqual([
      'ignored /data/relationships/orderType: relationships cannot change; not read',
      expect.stringMatching(/^default \/data\/attributes\/allowPartialDelivery: null: the order type's default, (true|false)$/),
    ]);
  });
});
