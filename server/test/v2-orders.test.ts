import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts } from './support/fixtures.ts';
import { bodyStyles, sendV2, v2Order } from './support/v2.ts';

let sb: TestSandbox;
let client: TestClient;
let other: TestClient;
let orderTypeId: number;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  other = await sb.newClient();
  await createProducts(sb, client.token, ['V2-MUG', 'V2-SHIRT']);
  orderTypeId = client.orderTypeIds[0];
});
afterAll(() => sb.close());

const add = (overrides: Record<string, unknown> = {}, style = bodyStyles[0], token = client.token, url = '/order/add') =>
  sendV2(sb, 'POST', url, v2Order({ orderTypeId, languageId: client.languageIds[0], ...overrides }), token, style);

const v3Order = async (id: number) =>
  (await sb.call('GET', `/v3/orders/${id}?include=orderItems,deliveryAddress,billingAddress,pickUpPoint`, { token: client.token })).body;
const orderRow = async (id: number) => (await sb.database.db.select().from(schema.orders).where(eq(schema.orders.id, id)))[0];

describe('POST /order/add', () => {
  it.each(bodyStyles)('adds the order sent as %s, readable at /v3/orders with every field mapped', async (style) => {
    const answer = await add(
      {
        pickUpPointId: 'PUP-1',
        pickUpPointName: 'Tabakszaak',
        pickUpPointCityName: 'Roosendaal',
        extraReference: 'web',
        actionCode: 'SPRING',
        partialDelivery: true,
      },
      style,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ messageCode: 'OK', message: 'Order has been successfully added.', result: expect.any(Number) });
    const { data, included } = await v3Order(answer.body.result);
    expect(data.attributes).toMatchObject({
      locale: 'nl-NL',
      currency: 'EUR',
      email: 'jane@example.com',
      reference: 'web',
      promotionCode: 'SPRING',
      allowPartialDelivery: true,
      metadata: { extra1: 'gift' },
    });
    expect(data.relationships.billingAddress.data.id).toBe(data.relationships.deliveryAddress.data.id);
    const address = included.find((r: any) => r.type === 'address');
    expect(address.attributes).toMatchObject({
      firstName: 'Jane',
      lastName: 'Jansen',
      street1: 'Kerkstraat',
      houseNumber: '12',
      houseNumberExtension: 'a',
      postcode: '4701AB',
      city: 'Roosendaal',
      countryCode: 'NL',
    });
    const item = included.find((r: any) => r.type === 'orderItem');
    expect(item.attributes).toMatchObject({ sku: 'V2-MUG', quantity: 2, price: 7.5, vat: 0.21 });
    expect(included.find((r: any) => r.type === 'pickUpPoint').attributes).toMatchObject({
      identifier: 'PUP-1',
      name: 'Tabakszaak',
      countryCode: 'NL',
    });
  });

  it('answers on /v2/order/add too, and keys in lower case', async () => {
    const lower = Object.fromEntries(
      Object.entries(v2Order({ orderTypeId, languageId: client.languageIds[0] })).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const answer = await sb.call('POST', '/v2/order/add', { token: client.token, body: lower });
    expect(answer.status).toBe(200);
    expect(answer.body.messageCode).toBe('OK');
  });

  it('stores a separate billing address when billing fields are sent, and maps languageId, currency and warehouseId', async () => {
    const answer = await add({
      languageId: client.languageIds[1],
      currency: 'usd',
      warehouseId: 5,
      billingAddressLastName: 'Jansen BV',
      billingAddressStreet: 'Markt 1',
      billingAddressPostalCode: '4701AA',
      billingAddressCityName: 'Roosendaal',
      billingAddressCountryIso: 'NL',
      orderItems: [{ sku: 'V2-SHIRT', quantity: 1, price: 20, warehouseId: 1 }],
    });
    expect(answer.body.messageCode).toBe('OK');
    const { data, included } = await v3Order(answer.body.result);
    expect(data.attributes).toMatchObject({ locale: 'en-NL', currency: 'USD', fulfillFrom: 'DD' });
    expect(data.relationships.billingAddress.data.id).not.toBe(data.relationships.deliveryAddress.data.id);
    const billing = included.find((r: any) => r.id === data.relationships.billingAddress.data.id);
    expect(billing.attributes).toMatchObject({ lastName: 'Jansen BV', street1: 'Markt', houseNumber: '1' });
    expect(included.find((r: any) => r.type === 'orderItem').attributes.fulfillFrom).toBe('NR');
  });

  it('takes the house number from the street for NL, BE and DE', async () => {
    const answer = await add({
      deliveryAddressHouseNumber: null,
      deliveryAddressHouseNumberAddition: null,
      deliveryAddressStreet: 'Hauptstrasse 7b',
      deliveryAddressCountryIso: 'DE',
      deliveryAddressPostalCode: '46282',
    });
    expect(answer.body.messageCode).toBe('OK');
    const { included } = await v3Order(answer.body.result);
    expect(included.find((r: any) => r.type === 'address').attributes).toMatchObject({
      street1: 'Hauptstrasse',
      houseNumber: '7',
      houseNumberExtension: 'b',
    });
    expect((await orderRow(answer.body.result)).isValid).toBe(true);
  });

  it('stores an order without any house number as Not Valid, and the sandbox refuses to ship it', async () => {
    const answer = await add({ deliveryAddressHouseNumber: undefined, deliveryAddressStreet: 'Kerkstraat' });
    expect(answer.body.messageCode).toBe('OK');
    expect((await orderRow(answer.body.result)).isValid).toBe(false);
    const ship = await sb.call('POST', `/sandbox/orders/${answer.body.result}/ship`, { token: client.token });
    expect(ship.status).toBe(422);
    expect(ship.body.errors[0].detail).toMatch(/Not Valid/);
  });

  it('needs no house number outside NL, BE and DE', async () => {
    const answer = await add({
      deliveryAddressHouseNumber: undefined,
      deliveryAddressStreet: 'Rue de Rivoli',
      deliveryAddressCountryIso: 'FR',
      deliveryAddressPostalCode: '75001',
    });
    expect((await orderRow(answer.body.result)).isValid).toBe(true);
  });

  it('refuses, writing nothing: paymentMethodId other than 1, unknown warehouseId on the order or an item, unknown sku, NL without postal code', async () => {
    const before = (await sb.database.db.select().from(schema.orders)).length;
    for (const [overrides, message] of [
      [{ paymentMethodId: 2 }, 'paymentMethodId must be 1.'],
      [{ warehouseId: 99 }, 'warehouseId 99 on the order is not a known warehouse.'],
      [
        { orderItems: [{ sku: 'V2-MUG', quantity: 1, price: 1, warehouseId: 42 }] },
        'warehouseId 42 on item V2-MUG is not a known warehouse.',
      ],
      [{ orderItems: [{ sku: 'NO-SUCH-SKU', quantity: 1, price: 1 }] }, 'SKU "NO-SUCH-SKU" not found.'],
      [{ deliveryAddressPostalCode: '' }, 'The delivery address needs a postal code in NL.'],
      [{ orderTypeId: 999999 }, 'Order type 999999 not found.'],
    ] as [Record<string, unknown>, string][]) {
      const answer = await add(overrides);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ messageCode: 'NOK', message: expect.stringContaining(message) });
    }
    expect((await sb.database.db.select().from(schema.orders)).length).toBe(before);
  });

  it('refuses a second order with the same externalOrderNumber', async () => {
    const body = v2Order({ orderTypeId, languageId: client.languageIds[0] });
    expect((await sb.call('POST', '/order/add', { token: client.token, body })).body.messageCode).toBe('OK');
    const second = await sb.call('POST', '/order/add', { token: client.token, body });
    expect(second.status).toBe(400);
    expect(second.body.message).toMatch(/already exists/);
  });

  it('answers the malformed-content messages of section 8', async () => {
    const empty = await sb.call('POST', '/order/add', {
      token: client.token,
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.body).toEqual({
      messageCode: 'NOK',
      message: 'We were unable to parse your request, resulting in an empty value. Please check your input.',
      result: null,
    });
    const emptyForm = await sb.call('POST', '/order/add', { token: client.token, form: {} });
    expect(emptyForm.body.message).toBe('We were unable to parse your request, resulting in an empty value. Please check your input.');
    const unreadable = await sb.call('POST', '/order/add', {
      token: client.token,
      payload: '{"externalOrderNumber": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body).toEqual({ error: 'Bad Request', error_description: 'The message is a malformed' });
    const wrong = await add({ orderItems: [{ sku: 'V2-MUG', quantity: 'two', price: 1 }] });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      messageCode: 'NOK',
      message: 'Unable to process request due to malformed contents',
      result: ['orderItems/0/quantity must be integer.'],
    });
  });

  it('answers 401 with the v2 body without a token', async () => {
    const answer = await sb.call('POST', '/order/add', { body: v2Order() });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: 'Authorization has been denied for this request.' });
  });
});

describe('POST /order/release', () => {
  it.each(bodyStyles)('releases an order added on hold (%s)', async (style) => {
    const added = await add({ onHold: true }, style);
    expect((await v3Order(added.body.result)).data.attributes.onHold).toBe(true);
    const { externalOrderNumber } = (await v3Order(added.body.result)).data.attributes;
    const answer = await sendV2(sb, 'POST', '/order/release', { externalOrderNumber }, client.token, style);
    expect(answer.body).toEqual({ messageCode: 'OK', message: 'Request processed successfully.', result: null });
    expect((await v3Order(added.body.result)).data.attributes.onHold).toBe(false);
  });

  it("does not find another client's order", async () => {
    const added = await add({ onHold: true });
    const { externalOrderNumber } = (await v3Order(added.body.result)).data.attributes;
    const answer = await sb.call('POST', '/v2/order/release', { token: other.token, body: { externalOrderNumber } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: '404 Not Found', error_description: 'The requested resource could not be found' });
    expect((await v3Order(added.body.result)).data.attributes.onHold).toBe(true);
  });
});

describe('order search', () => {
  it('finds an order by externalOrderNumber with GET and POST, on both paths', async () => {
    const added = await add({ extra2: 'two' });
    const { externalOrderNumber } = (await v3Order(added.body.result)).data.attributes;
    const expected = {
      messageCode: 'OK',
      message: 'Order found.',
      result: {
        orderNumber: added.body.result,
        externalOrderNumber,
        extra1: 'gift',
        extra2: 'two',
        extra3: null,
        extra4: null,
        extra5: null,
      },
    };
    expect((await sb.call('GET', `/v2/order/search?externalOrderNumber=${externalOrderNumber}`, { token: client.token })).body).toEqual(
      expected,
    );
    expect((await sb.call('GET', `/order/search?ExternalOrderNumber=${externalOrderNumber}`, { token: client.token })).body).toEqual(
      expected,
    );
    for (const style of bodyStyles)
      expect((await sendV2(sb, 'POST', '/order/search', { externalOrderNumber }, client.token, style)).body).toEqual(expected);
    expect((await sb.call('POST', '/v2/order/search', { token: client.token, body: { externalOrderNumber } })).body).toEqual(expected);
  });

  it("GET answers 404 for an unknown number and for another client's, POST a 200 NOK, and a 400 NOK without a number", async () => {
    const added = await add();
    const { externalOrderNumber } = (await v3Order(added.body.result)).data.attributes;
    // The client libraries that read an order with GET map a 404 to "not found".
    for (const answer of [
      await sb.call('GET', `/v2/order/search?externalOrderNumber=${externalOrderNumber}`, { token: other.token }),
      await sb.call('GET', '/v2/order/search?externalOrderNumber=NOPE', { token: client.token }),
      await sb.call('GET', '/order/search?ExternalOrderNumber=NOPE', { token: client.token }),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: '404 Not Found', error_description: 'The requested resource could not be found' });
    }
    // Those that search with POST read messageCode: their HTTP libraries throw on a 4xx.
    for (const answer of [
      await sb.call('POST', '/order/search', { token: other.token, body: { externalOrderNumber } }),
      await sb.call('POST', '/v2/order/search', { token: client.token, body: { externalOrderNumber: 'NOPE' } }),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ messageCode: 'NOK', message: 'Order not found.', result: null });
    }
    const missing = await sb.call('GET', '/v2/order/search', { token: client.token });
    expect(missing.status).toBe(400);
    expect(missing.body.messageCode).toBe('NOK');
  });
});
