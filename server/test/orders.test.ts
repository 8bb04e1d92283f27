import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type Answer, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, dutchAddress, orderDocument as documentFor, uniqueNumber } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['SHIRT-M', 'SHIRT-L', 'MUG']);
});
afterAll(() => sb.close());

const post = (body: unknown, token = client.token) => sb.call('POST', '/v3/orders', { token, body });
const orderDocument = (opts: Parameters<typeof documentFor>[1] = {}) => documentFor(client, opts);

describe('POST /v3/orders', () => {
  it('creates an order with items, addresses and a pick-up point, answering 201 with everything included', async () => {
    const answer = await post(
      orderDocument({
        items: [
          { sku: 'SHIRT-M', quantity: 2, price: 19.95, vat: 0.21 },
          { sku: 'MUG', quantity: 1, price: 7.5 },
        ],
        billing: {
          lastName: 'Jansen',
          company: 'Jansen BV',
          street1: 'Markt',
          houseNumber: '1',
          postcode: '4701AA',
          city: 'Roosendaal',
          countryCode: 'NL',
        },
        pickUpPoint: { identifier: 'PUP-123', name: 'Tabakszaak', countryCode: 'NL', city: 'Roosendaal' },
        attributes: { reference: 'web', metadata: { extra1: 'gift' } },
      }),
    );
    expect(answer.status).toBe(201);
    const order = answer.body.data;
    expect(order.type).toBe('order');
    expect(order.links.self).toBe(`http://sandbox.test/v3/orders/${order.id}`);
    expect(order.attributes).toMatchObject({
      locale: 'nl-NL',
      reference: 'web',
      currency: 'EUR',
      allowPartialDelivery: false,
      onHold: false,
      metadata: { extra1: 'gift', extra2: null },
    });
    const types = answer.body.included.map((r: { type: string }) => r.type).sort();
    expect(types).toEqual(['address', 'address', 'orderItem', 'orderItem', 'pickUpPoint']);
    expect(order.relationships.orderItems.data).toHaveLength(2);
    expect(order.relationships.deliveryAddress.data.id).not.toBe(order.relationships.billingAddress.data.id);
    expect(order.relationships.pickUpPoint.data).toEqual({ type: 'pickUpPoint', id: expect.any(Number) });
    const item = answer.body.included.find((r: any) => r.type === 'orderItem' && r.attributes.sku === 'SHIRT-M');
    expect(item.attributes).toMatchObject({ quantity: 2, price: 19.95, vat: 0.21, name: 'Product SHIRT-M' });
  });

  it('applies the defaults: billing = delivery address, main shipping method, EUR, vat 0, no-reply email', async () => {
    const answer = await post(orderDocument({ items: [{ sku: 'MUG', quantity: 1 }] }));
    expect(answer.status).toBe(201);
    const { attributes, relationships } = answer.body.data;
    expect(relationships.billingAddress.data.id).toBe(relationships.deliveryAddress.data.id);
    expect(relationships.preferredShippingMethod.data.id).toBe(client.mainShippingMethodIds[0]);
    expect(attributes.currency).toBe('EUR');
    expect(attributes.email).toMatch(/^no-reply@/);
    const item = answer.body.included.find((r: any) => r.type === 'orderItem');
    expect(item.attributes.vat).toBe(0);
    const addresses = answer.body.included.filter((r: any) => r.type === 'address');
    expect(addresses).toHaveLength(1);
  });

  it('accepts ids as JSON numbers or strings, and lid for provisional ids', async () => {
    const doc: any = orderDocument({
      orderTypeId: String(client.orderTypeIds[1]),
      shippingMethodId: String(client.mainShippingMethodIds[1]),
      items: [{ sku: 'MUG', quantity: 1 }],
    });
    doc.data.relationships.deliveryAddress = { data: { type: 'address', lid: 'home' } };
    doc.included[0] = { type: 'address', lid: 'home', attributes: dutchAddress };
    const answer = await post(doc);
    expect(answer.status).toBe(201);
    expect(answer.body.data.relationships.orderType.data.id).toBe(client.orderTypeIds[1]);
    expect(answer.body.data.relationships.preferredShippingMethod.data.id).toBe(client.mainShippingMethodIds[1]);
  });

  it('an order created on hold stays on hold', async () => {
    const answer = await post(orderDocument({ attributes: { onHold: true } }));
    expect(answer.body.data.attributes.onHold).toBe(true);
    const read = await sb.call('GET', `/v3/orders/${answer.body.data.id}`, { token: client.token });
    expect(read.body.data.attributes.onHold).toBe(true);
  });

  it('rejects a second order with the same externalOrderNumber with 409-1 linking to the existing order', async () => {
    const externalOrderNumber = uniqueNumber();
    const first = await post(orderDocument({ externalOrderNumber }));
    const second = await post(orderDocument({ externalOrderNumber }));
    expect(second.status).toBe(409);
    expect(second.body.errors[0]).toMatchObject({
      code: '409-1',
      status: '409',
      links: { related: `http://sandbox.test/v3/orders/${first.body.data.id}` },
    });
    expect(second.body.data).toBeUndefined();
  });

  it('another client may use the same externalOrderNumber', async () => {
    const other = await sb.newClient();
    const externalOrderNumber = uniqueNumber();
    expect((await post(orderDocument({ externalOrderNumber }))).status).toBe(201);
    expect((await post(documentFor(other, { externalOrderNumber }), other.token)).status).toBe(201);
  });

  it('answers unknown sku, order type and shipping method together: 404-1, 404-2, 404-3', async () => {
    const answer = await post(
      orderDocument({ orderTypeId: 999999, shippingMethodId: 999999, items: [{ sku: 'NO-SUCH-SKU', quantity: 1 }] }),
    );
    expect(answer.status).toBe(404);
    expect(answer.body.errors.map((e: { code: string }) => e.code).sort()).toEqual(['404-1', '404-2', '404-3']);
    const skuError = answer.body.errors.find((e: { code: string }) => e.code === '404-1');
    expect(skuError.source.pointer).toBe('/included/1/attributes/sku');
  });

  it('a per-warehouse shipping method is not a main shipping method: 404-3', async () => {
    const settings = (await sb.call('GET', '/settings/get', { token: client.token })).body.result;
    const warehouseMethod = settings.mainShippingMethods[0].shippingMethods[0].id;
    const answer = await post(orderDocument({ shippingMethodId: warehouseMethod }));
    expect(answer.body.errors.map((e: { code: string }) => e.code)).toEqual(['404-3']);
  });

  it('reports every validation problem of one request together, with pointers', async () => {
    const answer = await post(
      orderDocument({
        externalOrderNumber: 'X'.repeat(51),
        attributes: { locale: 'nl', email: 'not-an-email', metadata: { extra6: 'no' } },
        items: [{ sku: 'MUG', quantity: 1, price: 1.234, vat: 1, metadata: { extra1: 'no' } }],
      }),
    );
    expect(answer.status).toBe(400);
    const pointers = answer.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/data/attributes/externalOrderNumber',
        '/data/attributes/locale',
        '/data/attributes/email',
        '/data/attributes/metadata/extra6',
        '/included/1/attributes/price',
        '/included/1/attributes/vat',
        '/included/1/attributes/metadata/extra1',
      ]),
    );
    expect(answer.body.errors.every((e: { code: string }) => e.code === '400')).toBe(true);
  });

  it('requires externalOrderNumber, locale, orderType and deliveryAddress', async () => {
    const doc: any = orderDocument();
    delete doc.data.attributes.externalOrderNumber;
    delete doc.data.attributes.locale;
    delete doc.data.relationships.orderType;
    delete doc.data.relationships.deliveryAddress;
    const answer = await post(doc);
    expect(answer.status).toBe(400);
    const pointers = answer.body.errors.map((e: any) => e.source.pointer);
    expect(pointers).toEqual(
      expect.arrayContaining([
        '/data/attributes/externalOrderNumber',
        '/data/attributes/locale',
        '/data/relationships/orderType',
        '/data/relationships/deliveryAddress',
      ]),
    );
  });

  it('vat takes at most 3 decimals and stays below 1; price takes 2 decimals', async () => {
    expect(
      (
        await post(
          orderDocument({
            items: [
              { sku: 'MUG', quantity: 1, price: 9.95, vat: 0.125 },
              { sku: 'MUG', quantity: 1, price: 0.07, vat: 0.21 },
            ],
          }),
        )
      ).status,
    ).toBe(201);
    expect((await post(orderDocument({ items: [{ sku: 'MUG', quantity: 1, vat: 0.1255 }] }))).status).toBe(400);
    expect((await post(orderDocument({ items: [{ sku: 'MUG', quantity: 1, vat: -0.1 }] }))).status).toBe(400);
  });

  it('items shipped outside the EU need a price above 0', async () => {
    const delivery = { street1: '5th Avenue', houseNumber: '1', city: 'New York', countryCode: 'US', lastName: 'Doe' };
    const free = await post(orderDocument({ delivery, items: [{ sku: 'MUG', quantity: 1, price: 0 }] }));
    expect(free.status).toBe(400);
    expect(free.body.errors[0].source.pointer).toBe('/included/1/attributes/price');
    expect((await post(orderDocument({ delivery, items: [{ sku: 'MUG', quantity: 1, price: 4.95 }] }))).status).toBe(201);
  });

  it('a relationship must point to an included address by its provisional id', async () => {
    const doc: any = orderDocument();
    doc.data.relationships.deliveryAddress.data.id = 'elsewhere';
    const answer = await post(doc);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.source.pointer)).toContain('/data/relationships/deliveryAddress');
  });

  it('writes nothing when a request is rejected', async () => {
    const externalOrderNumber = uniqueNumber();
    await post(
      orderDocument({
        externalOrderNumber,
        items: [
          { sku: 'MUG', quantity: 1 },
          { sku: 'NOPE', quantity: 1 },
        ],
      }),
    );
    const rows = await sb.database.db.select().from(schema.orders).where(eq(schema.orders.externalOrderNumber, externalOrderNumber));
    expect(rows).toEqual([]);
  });

  it('creates exactly one order from 20 simultaneous requests with the same externalOrderNumber; the rest get 409-1', async () => {
    const externalOrderNumber = uniqueNumber('RACE');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(orderDocument({ externalOrderNumber, items: [{ sku: 'MUG', quantity: 1 }] }))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(conflicts).toHaveLength(19);
    expect(conflicts.every((a) => a.body.errors[0].code === '409-1')).toBe(true);
    const rows = await sb.database.db.select().from(schema.orders).where(eq(schema.orders.externalOrderNumber, externalOrderNumber));
    expect(rows).toHaveLength(1);
    const items = await sb.database.db.select().from(schema.orderItems).where(eq(schema.orderItems.orderId, rows[0].id));
    expect(items).toHaveLength(1);
  });
});

describe('the answer to POST /v3/orders', () => {
  const full: Parameters<typeof orderDocument>[0] = {
    items: [
      { sku: 'SHIRT-M', quantity: 2, price: 19.95, vat: 0.21, name: 'Own name', metadata: { extra6: 'six' } },
      { sku: 'MUG', quantity: 1 },
    ],
    billing: { lastName: 'Jansen', street1: 'Markt', houseNumber: '1', postcode: '4701AA', city: 'Roosendaal', countryCode: 'NL' },
    pickUpPoint: { identifier: 'PUP-1', name: 'Tabakszaak', countryCode: 'NL' },
    attributes: {
      reference: 'web',
      orderedOn: '2024-05-01T10:11:12.345+02:00',
      preferredShippingDate: '2099-01-02',
      metadata: { extra1: 'gift' },
    },
  };
  const plain: Parameters<typeof orderDocument>[0] = { items: [{ sku: 'MUG', quantity: 3 }] };

  it.each([
    ['everything, by default', full, ''],
    ['everything, asked for', full, '?include=pickUpPoint,orderItems,billingAddress,deliveryAddress'],
    ['items only', full, '?include=orderItems'],
    ['billing address and pick-up point', full, '?include=billingAddress,pickUpPoint'],
    ['the delivery address billed, by default', plain, ''],
    ['the delivery address billed, billing address only', plain, '?include=billingAddress'],
  ])('is the document GET /v3/orders/{id} gives (%s)', async (_name, opts, query) => {
    const created = await sb.call('POST', `/v3/orders${query}`, { token: client.token, body: orderDocument(opts) });
    expect(created.status, created.raw).toBe(201);
    const read = await sb.call(
      'GET',
      `/v3/orders/${created.body.data.id}${query || '?include=orderItems,deliveryAddress,billingAddress,pickUpPoint'}`,
      {
        token: client.token,
      },
    );
    expect(read.status).toBe(200);
    expect(created.raw).toBe(read.raw);
  });
});

describe('GET /v3/orders/{id} and include', () => {
  let orderId: number;
  beforeAll(async () => {
    orderId = (
      await post(orderDocument({ items: [{ sku: 'SHIRT-L', quantity: 3 }], pickUpPoint: { identifier: 'P1', countryCode: 'NL' } }))
    ).body.data.id;
  });

  it('returns the order without included resources unless asked', async () => {
    const answer = await sb.call('GET', `/v3/orders/${orderId}`, { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.included).toBeUndefined();
    expect(answer.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
  });

  it('includes exactly the asked related resources, each once', async () => {
    const answer = await sb.call('GET', `/v3/orders/${orderId}?include=orderItems,deliveryAddress,billingAddress,pickUpPoint`, {
      token: client.token,
    });
    const keys = answer.body.included.map((r: any) => `${r.type}:${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(answer.body.included.map((r: any) => r.type).sort()).toEqual(['address', 'orderItem', 'pickUpPoint']);
    const onlyItems = await sb.call('GET', `/v3/orders/${orderId}?include=orderItems`, { token: client.token });
    expect(onlyItems.body.included.map((r: any) => r.type)).toEqual(['orderItem']);
  });

  it('an unsupported include path is a 400 naming the parameter', async () => {
    const answer = await sb.call('GET', `/v3/orders/${orderId}?include=orderItems.product`, { token: client.token });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].source).toEqual({ parameter: 'include' });
  });

  it('an id that does not exist is 404-5; a path id that is not a positive integer is 404', async () => {
    expect((await sb.call('GET', '/v3/orders/99999999', { token: client.token })).body.errors[0].code).toBe('404-5');
    for (const id of ['0', '-1', 'abc', '99999999999999']) {
      const answer = await sb.call('GET', `/v3/orders/${id}`, { token: client.token });
      expect(answer.status, id).toBe(404);
    }
  });
});

describe('GET /v3/orders: pagination and filters', () => {
  let lister: TestClient;
  const numbers: string[] = [];
  beforeAll(async () => {
    lister = await sb.newClient();
    await createProducts(sb, lister.token, ['MUG']);
    for (let i = 0; i < 5; i++) {
      const externalOrderNumber = uniqueNumber('PAGE');
      numbers.push(externalOrderNumber);
      await post(
        documentFor(lister, {
          externalOrderNumber,
          attributes: { reference: i % 2 ? 'odd' : 'even', orderedOn: `2026-0${i + 1}-15` },
          items: [{ sku: 'MUG', quantity: 1 }],
        }),
        lister.token,
      );
    }
  });

  it('pages by cursor in id order, following links.next without repeats, until no next link', async () => {
    const seen: number[] = [];
    let url: string | undefined = '/v3/orders?page[size]=2';
    let pages = 0;
    while (url) {
      const answer: Answer = await sb.call('GET', url, { token: lister.token });
      expect(answer.status).toBe(200);
      seen.push(...answer.body.data.map((o: { id: number }) => o.id));
      expect(answer.body.links.self).toContain('/v3/orders');
      expect(answer.body.links.first).not.toContain('cursor');
      url = answer.body.links.next?.replace('http://sandbox.test', '');
      pages++;
    }
    expect(seen).toHaveLength(5);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(new Set(seen).size).toBe(5);
    expect(pages).toBe(3);
  });

  it('the cursor is the id of the last entity seen, which is not repeated', async () => {
    const all = (await sb.call('GET', '/v3/orders', { token: lister.token })).body.data.map((o: { id: number }) => o.id);
    const after = await sb.call('GET', `/v3/orders?page[cursor]=${all[1]}`, { token: lister.token });
    expect(after.body.data.map((o: { id: number }) => o.id)).toEqual(all.slice(2));
  });

  it('caps page[size] at 100 and rejects sizes below 1 and negative cursors', async () => {
    const big = await sb.call('GET', '/v3/orders?page[size]=500', { token: lister.token });
    expect(big.status).toBe(200);
    expect(big.body.links.first).toContain(`${encodeURIComponent('page[size]')}=100`);
    for (const query of ['page[size]=0', 'page[cursor]=-1', 'page[size]=abc']) {
      const answer = await sb.call('GET', `/v3/orders?${query}`, { token: lister.token });
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors[0].code).toBe('400');
    }
  });

  it('filters by externalOrderNumber[in] and reference[in], comma-separated and unique', async () => {
    const two = await sb.call('GET', `/v3/orders?filter[externalOrderNumber][in]=${encodeURIComponent(`${numbers[0]},${numbers[3]}`)}`, {
      token: lister.token,
    });
    expect(two.body.data.map((o: any) => o.attributes.externalOrderNumber)).toEqual([numbers[0], numbers[3]]);
    const odd = await sb.call('GET', '/v3/orders?filter[reference][in]=odd', { token: lister.token });
    expect(odd.body.data).toHaveLength(2);
    const repeated = await sb.call('GET', `/v3/orders?filter[reference][in]=odd,odd`, { token: lister.token });
    expect(repeated.status).toBe(400);
  });

  it('filters by orderedOn lt and gt (whole days)', async () => {
    const before = await sb.call('GET', '/v3/orders?filter[orderedOn][lt]=2026-03-15', { token: lister.token });
    expect(before.body.data.map((o: any) => o.attributes.externalOrderNumber)).toEqual(numbers.slice(0, 2));
    const after = await sb.call('GET', '/v3/orders?filter[orderedOn][gt]=2026-03-15', { token: lister.token });
    expect(after.body.data.map((o: any) => o.attributes.externalOrderNumber)).toEqual(numbers.slice(3));
    expect((await sb.call('GET', '/v3/orders?filter[orderedOn][lt]=yesterday', { token: lister.token })).status).toBe(400);
  });

  it('includes related resources of the whole page without duplicates', async () => {
    const answer = await sb.call('GET', '/v3/orders?include=orderItems,deliveryAddress,billingAddress', { token: lister.token });
    const keys = answer.body.included.map((r: any) => `${r.type}:${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(answer.body.included.filter((r: any) => r.type === 'orderItem')).toHaveLength(5);
    expect(answer.body.included.filter((r: any) => r.type === 'address')).toHaveLength(5);
  });
});
