// The client's settings as data the integrator shapes: GET/PUT /sandbox/settings, what GET /settings/get then shows,
// what orders and returns look up in them, and the rules that keep a replacement whole or refuse it whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { isForeignKeyViolation, schema } from '../src/platform/db/index.ts';
import { startSandbox, type Answer, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';
import { v2Order } from './support/v2.ts';

let sb: TestSandbox;

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

type Settings = Record<string, { id: number; code: string; name: string; [key: string]: unknown }[]>;

const read = async (client: TestClient): Promise<Settings> => {
  const answer = await sb.call('GET', '/sandbox/settings', { token: client.token });
  expect(answer.status, answer.raw).toBe(200);
  return answer.body.data.attributes;
};
const put = (client: TestClient, attributes: Record<string, unknown>, id?: number | string) =>
  sb.call('PUT', '/sandbox/settings', {
    token: client.token,
    body: { data: { type: 'sandboxSettings', ...(id === undefined ? {} : { id }), attributes } },
  });
const v2Settings = async (client: TestClient) => (await sb.call('GET', '/settings/get', { token: client.token })).body.result;
const errorsOf = (answer: Answer) => answer.body.errors as { code: string; detail: string; source?: { pointer?: string } }[];
const withoutIds = <T extends { id?: number }>(entries: T[]) => entries.map(({ id: _id, ...rest }) => rest);

describe('GET /sandbox/settings', () => {
  it('starts a new client with defaults that look like a real account, the same data GET /settings/get lists', async () => {
    const client = await sb.newClient();
    const answer = await sb.call('GET', '/sandbox/settings', { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      type: 'sandboxSettings',
      id: client.id,
      links: { self: 'http://sandbox.test/sandbox/settings' },
    });
    const settings: Settings = answer.body.data.attributes;
    expect(settings.orderTypes.map((t) => t.code)).toEqual(['webwinkel_orders', 'b2b_orders', 'replenishment']);
    expect(settings.paymentMethods).toEqual([{ id: 1, code: 'GI', name: 'Giro' }]);
    expect(settings.languages[0]).toMatchObject({ code: 'NL', name: 'Nederlands' });
    expect(settings.languages.every((l) => /^[A-Z]{2}$/.test(l.code))).toBe(true);
    expect(settings.mainShippingMethods[0]).toMatchObject({
      code: 'POSTNL_STANDARD',
      carrier: 'PostNL',
      warehouses: ['NR', 'NN', 'GN', 'BW', 'DD', 'FP'],
    });
    expect(new Set(settings.mainShippingMethods.map((m) => m.carrier))).toEqual(new Set(['PostNL', 'DHL', 'DPD']));
    expect(settings.returnShippingMethods.filter((m) => m.paperless).length).toBe(1);
    expect(settings.countries.some((c) => c.code === 'NL')).toBe(true);
    expect(settings.returnReasons.some((r) => r.code === 'DAMAGED')).toBe(true);

    // What a real PHP client does: loop over the v2 lists and compare code == 'webwinkel_orders', 'GI', 'NL'.
    const v2 = await v2Settings(client);
    expect(v2.orderTypes.find((t: { code: string }) => t.code === 'webwinkel_orders').id).toBe(settings.orderTypes[0].id);
    expect(v2.paymentMethods.find((p: { code: string }) => p.code === 'GI').id).toBe(1);
    expect(v2.languages.find((l: { code: string }) => l.code === 'NL').id).toBe(settings.languages[0].id);
    expect(v2.countries).toEqual(settings.countries.map(({ id, code, name }) => ({ id, name, code })));
  });
});

describe('PUT /sandbox/settings', () => {
  it('takes back what GET answered unchanged, ignoring the read-only payment methods with a warning', async () => {
    const client = await sb.newClient();
    const before = await read(client);
    const answer = await put(client, before, client.id);
    expect(answer.status, answer.raw).toBe(200);
    expect(answer.body.data.attributes).toEqual(before);
    expect(String(answer.headers['sandbox-warning'] ?? '')).toContain('paymentMethods');
  });

  it('updates entries sent with their id, creates those without, removes the rest; GET /settings/get shows it at once', async () => {
    const client = await sb.newClient();
    const before = await read(client);
    const [webshop] = before.orderTypes;
    const [standard, , express] = before.mainShippingMethods;
    const v2Before = await v2Settings(client);
    const warehouseIds = Object.fromEntries(
      v2Before.mainShippingMethods[0].shippingMethods.map((m: { id: number; warehouse: string }) => [m.warehouse, m.id]),
    );

    const answer = await put(client, {
      orderTypes: [
        { id: webshop.id, code: 'WEBWINKEL_ORDERS', name: 'Webshop', allowPartialDelivery: true },
        { code: 'bol_orders', name: 'Bol.com orders' },
      ],
      mainShippingMethods: [
        { id: String(standard.id), code: 'PNL_STD', name: 'PostNL pakket', carrier: 'PostNL', warehouses: ['BW', 'NR'] },
        { id: express.id, code: express.code, name: express.name, carrier: express.carrier, warehouses: express.warehouses },
        { code: 'UPS_STANDARD', name: 'UPS Standard', carrier: 'UPS', warehouses: ['GN'] },
      ],
      returnShippingMethods: [{ code: 'QR_RETURN', name: 'Retour met QR-code', carrier: 'PostNL', paperless: true }],
      languages: [
        { id: before.languages[0].id, code: 'nl', name: 'Nederlands' },
        { code: 'EN', name: 'Engels' },
      ],
      countries: [
        { code: 'NL', name: 'Nederland' },
        { code: 'be', name: 'België' },
      ],
    });
    expect(answer.status, answer.raw).toBe(200);
    const after: Settings = answer.body.data.attributes;
    expect(after).toEqual(await read(client));

    expect(after.orderTypes[0]).toEqual({ id: webshop.id, code: 'WEBWINKEL_ORDERS', name: 'Webshop', allowPartialDelivery: true });
    expect(after.orderTypes[1]).toMatchObject({ code: 'bol_orders', allowPartialDelivery: false });
    expect(after.orderTypes[1].id).toBeGreaterThan(webshop.id);
    expect(after.orderTypes).toHaveLength(2);
    expect(after.mainShippingMethods.map((m) => [m.id, m.code])).toEqual([
      [standard.id, 'PNL_STD'],
      [express.id, express.code],
      [expect.any(Number), 'UPS_STANDARD'],
    ]);
    expect(after.returnShippingMethods).toEqual([
      { id: expect.any(Number), code: 'QR_RETURN', name: 'Retour met QR-code', carrier: 'PostNL', paperless: true },
    ]);
    expect(after.languages.map((l) => l.code)).toEqual(['nl', 'EN']);
    expect(after.languages[0].id).toBe(before.languages[0].id);
    expect(after.returnReasons).toEqual(before.returnReasons);

    const v2 = await v2Settings(client);
    expect(v2.orderTypes.map((t: { code: string }) => t.code)).toEqual(['WEBWINKEL_ORDERS', 'bol_orders']);
    // The warehouses that stay keep their method ids; the per-warehouse methods follow the new code and name.
    expect(v2.mainShippingMethods[0].shippingMethods).toEqual([
      { id: warehouseIds.NR, warehouse: 'NR' },
      { id: warehouseIds.BW, warehouse: 'BW' },
    ]);
    expect(v2.shippingMethods.find((m: { id: number }) => m.id === warehouseIds.NR)).toEqual({
      id: warehouseIds.NR,
      name: 'PostNL pakket (NR)',
      code: 'PNL_STD_NR',
    });
    expect(v2.mainShippingMethods[2]).toMatchObject({
      code: 'UPS_STANDARD',
      shippingMethods: [{ id: expect.any(Number), warehouse: 'GN' }],
    });
    expect(v2.shippingMethods).toHaveLength(2 + (express.warehouses as string[]).length + 1);
    expect(v2.countries.map((c: { code: string }) => c.code)).toEqual(['NL', 'be']);
    expect(v2.languages).toEqual(after.languages.map(({ id, code, name }) => ({ id, name, code })));
  });

  it("lets v2 and v3 orders use the new entries: languageId of the client's languages, the locale in lower case", async () => {
    const client = await sb.newClient();
    await createProducts(sb, client.token, ['SET-MUG']);
    const changed = (
      await put(client, {
        orderTypes: [{ code: 'webwinkel_orders', name: 'Webwinkel orders' }],
        languages: [
          { code: 'DE', name: 'Duits' },
          { code: 'nl', name: 'Nederlands' },
        ],
      })
    ).body.data.attributes as Settings;
    const [orderType] = changed.orderTypes;
    const [german, dutch] = changed.languages;

    const add = (languageId: number, country = 'NL') =>
      sb.call('POST', '/order/add', {
        token: client.token,
        body: v2Order({
          orderTypeId: orderType.id,
          languageId,
          deliveryAddressCountryIso: country,
          orderItems: [{ sku: 'SET-MUG', quantity: 1, price: 5 }],
        }),
      });
    for (const [language, country, locale] of [
      [german, 'DE', 'de-DE'],
      [dutch, 'be', 'nl-BE'],
    ] as const) {
      const added = await add(language.id, country);
      expect(added.body.messageCode, added.raw).toBe('OK');
      const order = await sb.call('GET', `/v3/orders/${added.body.result}`, { token: client.token });
      expect(order.body.data.attributes.locale).toBe(locale);
      expect(order.body.data.relationships.orderType.data.id).toBe(orderType.id);
    }
    const other = await sb.newClient();
    const foreign = await add(other.languageIds[0]);
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain('languageId');

    const v3 = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument({ orderTypeIds: [orderType.id] }, { items: [{ sku: 'SET-MUG', quantity: 1 }] }),
    });
    expect(v3.status, v3.raw).toBe(201);
  });

  it('refuses to remove what orders, shipments or return items use, naming it, and changes nothing', async () => {
    const client = await sb.newClient();
    await createProducts(sb, client.token, ['SET-SHIRT']);
    const before = await read(client);
    const [webshop, b2b] = before.orderTypes;
    const [standard] = before.mainShippingMethods;
    const order = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { orderTypeId: b2b.id, shippingMethodId: standard.id, items: [{ sku: 'SET-SHIRT', quantity: 1 }] }),
    });
    expect(order.status, order.raw).toBe(201);
    expect((await sb.call('POST', `/sandbox/orders/${order.body.data.id}/ship`, { token: client.token })).status).toBe(201);
    const v2Before = await v2Settings(client);

    const dropB2b = await put(client, { orderTypes: [webshop], languages: [{ code: 'EN', name: 'Engels' }] });
    expect(dropB2b.status).toBe(409);
    expect(errorsOf(dropB2b)).toEqual([
      expect.objectContaining({
        code: '409',
        source: { pointer: '/data/attributes/orderTypes' },
        detail: expect.stringMatching(new RegExp(`^Order type ${b2b.id} "b2b_orders" is used by 1 order and 1 shipment`)),
      }),
    ]);

    const dropMethod = await put(client, { mainShippingMethods: before.mainShippingMethods.slice(1) });
    expect(dropMethod.status).toBe(409);
    expect(errorsOf(dropMethod)[0].detail).toMatch(
      new RegExp(`^Main shipping method ${standard.id} "POSTNL_STANDARD" is used by 1 order and 1 shipment`),
    );

    // The sandbox shipped from NR, with the method of NR: that warehouse stays.
    const dropWarehouse = await put(client, {
      mainShippingMethods: [{ ...standard, warehouses: ['NN'] }, ...before.mainShippingMethods.slice(1)],
    });
    expect(dropWarehouse.status).toBe(409);
    expect(errorsOf(dropWarehouse)[0]).toMatchObject({
      source: { pointer: '/data/attributes/mainShippingMethods/0/warehouses' },
      detail: expect.stringMatching(/^Warehouse NR of main shipping method/),
    });

    expect(await read(client)).toEqual(before);
    expect(await v2Settings(client)).toEqual(v2Before);
    // Renaming what is used is fine.
    expect((await put(client, { orderTypes: [webshop, { ...b2b, code: 'B2B', name: 'Zakelijk' }] })).status).toBe(200);
  });

  it('the database itself refuses a removal the check did not see (an order written at the same moment)', async () => {
    const client = await sb.newClient();
    await createProducts(sb, client.token, ['SET-RACE']);
    const [, b2b] = (await read(client)).orderTypes;
    const order = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { orderTypeId: b2b.id, items: [{ sku: 'SET-RACE', quantity: 1 }] }),
    });
    expect(order.status, order.raw).toBe(201);
    // What a PUT racing the order would run after its check: the reference holds.
    const removal = sb.database.db.delete(schema.orderTypes).where(eq(schema.orderTypes.id, b2b.id));
    expect(
      await removal.then(
        () => 'removed',
        (error: unknown) => (isForeignKeyViolation(error) ? 'refused' : error),
      ),
    ).toBe('refused');
    expect((await read(client)).orderTypes.map((t) => t.id)).toContain(b2b.id);
  });

  it('refuses to remove a return reason that return items name', async () => {
    const client = await sb.newClient();
    await createProducts(sb, client.token, ['SET-CAP']);
    const before = await read(client);
    const order = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: [{ sku: 'SET-CAP', quantity: 1 }] }),
    });
    const shipment = await sb.call('POST', `/sandbox/orders/${order.body.data.id}/ship`, { token: client.token });
    const reason = before.returnReasons[1];
    const returned = await sb.call('POST', `/sandbox/shipments/${shipment.body.data.id}/return`, {
      token: client.token,
      body: { items: [{ sku: 'SET-CAP', quantity: 1, condition: 'RETURN', returnReasonId: reason.id }] },
    });
    expect(returned.status, returned.raw).toBe(201);
    const answer = await put(client, { returnReasons: before.returnReasons.filter((r) => r.id !== reason.id) });
    expect(answer.status).toBe(409);
    expect(errorsOf(answer)[0].detail).toMatch(new RegExp(`^Return reason ${reason.id} "${reason.code}" is used by 1 return item`));
    expect(await read(client)).toEqual(before);
  });

  it('refuses duplicate codes (without regard to case), repeated and unknown ids, with pointers, writing nothing', async () => {
    const client = await sb.newClient();
    const other = await sb.newClient();
    const before = await read(client);
    const theirs = await read(other);
    const [first, second] = before.orderTypes;

    const duplicate = await put(client, {
      orderTypes: [first, { code: 'WEBWINKEL_ORDERS', name: 'Again' }],
      languages: [
        { code: 'nl', name: 'a' },
        { code: 'NL', name: 'b' },
      ],
    });
    expect(duplicate.status).toBe(400);
    expect(errorsOf(duplicate).map((e) => [e.code, e.source?.pointer])).toEqual([
      ['400', '/data/attributes/orderTypes/1/code'],
      ['400', '/data/attributes/languages/1/code'],
    ]);

    const repeated = await put(client, { orderTypes: [first, { ...second, id: first.id }] });
    expect(errorsOf(repeated).map((e) => e.source?.pointer)).toContain('/data/attributes/orderTypes/1/id');

    // Another client's id, and an id of another list, are not entries of this list.
    const unknown = await put(client, {
      orderTypes: [{ ...first, id: theirs.orderTypes[0].id }],
      mainShippingMethods: [{ id: before.returnShippingMethods[0].id, code: 'X', name: 'X', carrier: 'X', warehouses: ['NR'] }],
    });
    expect(unknown.status).toBe(404);
    expect(errorsOf(unknown).map((e) => [e.code, e.source?.pointer])).toEqual([
      ['404', '/data/attributes/orderTypes/0/id'],
      ['404', '/data/attributes/mainShippingMethods/0/id'],
    ]);

    const notMine = await put(client, { languages: before.languages }, other.id);
    expect(notMine.status).toBe(409);
    expect(errorsOf(notMine)[0].source?.pointer).toBe('/data/id');

    expect(await read(client)).toEqual(before);
    expect(await read(other)).toEqual(theirs);
  });

  it('bounds every list and text, needs the lists orders depend on, and takes only known warehouse codes', async () => {
    const client = await sb.newClient();
    const before = await read(client);
    const language = (n: number) => ({ code: `L${String.fromCharCode(65 + n)}`, name: `Language ${n}` });
    const main = { code: 'M', name: 'M', carrier: 'C' };
    for (const [attributes, pointer] of [
      [{ languages: Array.from({ length: 12 }, (_, n) => language(n)) }, '/data/attributes/languages'],
      [{ languages: [] }, '/data/attributes/languages'],
      [{ orderTypes: [] }, '/data/attributes/orderTypes'],
      [{ mainShippingMethods: [] }, '/data/attributes/mainShippingMethods'],
      [{ orderTypes: [{ code: 'x'.repeat(51), name: 'Long' }] }, '/data/attributes/orderTypes/0/code'],
      [{ orderTypes: [{ code: ' padded', name: 'Padded' }] }, '/data/attributes/orderTypes/0/code'],
      [{ returnReasons: [{ code: 'R', name: 'n'.repeat(101) }] }, '/data/attributes/returnReasons/0/name'],
      [{ languages: [{ code: 'dutch', name: 'Nederlands' }] }, '/data/attributes/languages/0/code'],
      [{ countries: [{ code: 'N1', name: 'Nowhere' }] }, '/data/attributes/countries/0/code'],
      [{ mainShippingMethods: [{ ...main, warehouses: ['XX'] }] }, '/data/attributes/mainShippingMethods/0/warehouses/0'],
      [{ mainShippingMethods: [{ ...main, warehouses: [] }] }, '/data/attributes/mainShippingMethods/0/warehouses'],
      [{ mainShippingMethods: [{ ...main, warehouses: ['NR', 'NR'] }] }, '/data/attributes/mainShippingMethods/0/warehouses'],
      [{ orderTypes: [{ code: 'x', name: 'x', extra: 1 }] }, '/data/attributes/orderTypes/0/extra'],
    ] as const) {
      const answer = await put(client, attributes);
      expect(answer.status, JSON.stringify(attributes).slice(0, 100)).toBe(400);
      expect(
        errorsOf(answer).map((e) => e.source?.pointer),
        answer.raw,
      ).toContain(pointer);
    }
    expect(await read(client)).toEqual(before);
  });

  it("leaves another client's settings as they were", async () => {
    const client = await sb.newClient();
    const other = await sb.newClient();
    const theirs = await v2Settings(other);
    const before = await read(client);
    expect(
      (await put(client, { orderTypes: withoutIds(before.orderTypes), languages: [{ code: 'FR', name: 'Frans' }], returnReasons: [] }))
        .status,
    ).toBe(200);
    expect(await v2Settings(other)).toEqual(theirs);
  });
});

describe('lookups by code ignore case', () => {
  it('v2 RMA lines marked IsDamaged take the reason coded DAMAGED in any case, or none when the client has none', async () => {
    const client = await sb.newClient();
    await createProducts(sb, client.token, ['SET-VASE']);
    const before = await read(client);
    const damaged = before.returnReasons.find((r) => r.code === 'DAMAGED')!;
    expect(
      (await put(client, { returnReasons: before.returnReasons.map((r) => (r.id === damaged.id ? { ...r, code: 'Damaged' } : r)) })).status,
    ).toBe(200);

    const rma = async (owner: TestClient) => {
      const order = v2Order({
        orderTypeId: owner.orderTypeIds[0],
        languageId: owner.languageIds[0],
        orderItems: [{ sku: 'SET-VASE', quantity: 1, price: 9 }],
      });
      const added = await sb.call('POST', '/order/add', { token: owner.token, body: order });
      expect((await sb.call('POST', `/sandbox/orders/${added.body.result}/ship`, { token: owner.token })).status).toBe(201);
      const answer = await sb.call('POST', '/v2/rma/add', {
        token: owner.token,
        body: {
          ExternalOrderNumber: order.externalOrderNumber,
          ApiRmaNotificationItemViewModels: [{ ProductSku: 'SET-VASE', Quantity: 1, IsDamaged: true }],
        },
      });
      expect(answer.body.messageCode, answer.raw).toBe('OK');
      const [item] = await sb.database.db.select().from(schema.returnItems).where(eq(schema.returnItems.returnId, answer.body.result));
      return item.returnReasonId;
    };
    expect(await rma(client)).toBe(damaged.id);
    // Now used by a return item: it stays.
    expect((await put(client, { returnReasons: [{ code: 'OTHER', name: 'Anders' }] })).status).toBe(409);

    const withoutDamaged = await sb.newClient();
    await createProducts(sb, withoutDamaged.token, ['SET-VASE']);
    expect((await put(withoutDamaged, { returnReasons: [{ code: 'OTHER', name: 'Anders' }] })).status).toBe(200);
    expect(await rma(withoutDamaged)).toBeNull();
  });

  it("return labels are paperless by the method's flag, whatever its code", async () => {
    const client = await sb.newClient();
    await createProducts(sb, client.token, ['SET-LAMP']);
    const changed = (
      await put(client, {
        returnShippingMethods: [
          { code: 'post', name: 'Post', carrier: 'PostNL' },
          { code: 'qr', name: 'QR', carrier: 'DHL', paperless: true },
        ],
      })
    ).body.data.attributes as Settings;
    const order = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: [{ sku: 'SET-LAMP', quantity: 1 }], externalOrderNumber: uniqueNumber('SET') }),
    });
    const shipment = await sb.call('POST', `/sandbox/orders/${order.body.data.id}/ship`, { token: client.token });
    const label = async (methodId: number) =>
      (await sb.call('GET', `/v2/returnlabel/get/${shipment.body.data.id}/${methodId}`, { token: client.token })).body.result
        .isPaperlessReturnShippingMethod;
    expect(await label(changed.returnShippingMethods[0].id)).toBe(false);
    expect(await label(changed.returnShippingMethods[1].id)).toBe(true);
  });
});
