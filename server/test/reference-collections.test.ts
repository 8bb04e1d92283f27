import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnReasonTemplates } from '@shopapi/contract';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;
let client: TestClient;
let settings: any;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  settings = (await sb.call('GET', '/settings/get', { token: client.token })).body.result;
});
afterAll(() => sb.close());

const get = (url: string, token = client.token) => sb.call('GET', url, { token });
const ids = (answer: { body: { data: { id: number }[] } }) => answer.body.data.map((r) => r.id);

describe('GET /v3/returnReasons', () => {
  it("lists the client's return reasons with the ids the settings call gives", async () => {
    const answer = await get('/v3/returnReasons');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(returnReasonTemplates.length);
    expect(ids(answer)).toEqual(settings.returnReasons.map((r: { id: number }) => r.id));
    expect(answer.body.data[0]).toMatchObject({
      type: 'returnReason',
      attributes: { code: returnReasonTemplates[0].code, name: returnReasonTemplates[0].name },
    });
  });

  it('pages by cursor', async () => {
    const first = await get('/v3/returnReasons?page[size]=4');
    expect(first.body.data).toHaveLength(4);
    const next = await get(first.body.links.next.replace('http://sandbox.test', ''));
    expect(ids(next)).toEqual(settings.returnReasons.slice(4).map((r: { id: number }) => r.id));
    expect(next.body.links.next).toBeUndefined();
  });

  it("reads one return reason; another client's is a 404", async () => {
    const id = settings.returnReasons[0].id;
    expect((await get(`/v3/returnReasons/${id}`)).body.data).toMatchObject({
      id,
      type: 'returnReason',
      links: { self: `http://sandbox.test/v3/returnReasons/${id}` },
    });
    const other = await sb.newClient();
    expect((await get(`/v3/returnReasons/${id}`, other.token)).status).toBe(404);
    expect(ids(await get('/v3/returnReasons', other.token))).not.toContain(id);
  });
});

describe('GET /v3/shippingMethods', () => {
  it('lists main, per-warehouse and return methods; the main ids are those of the settings call', async () => {
    const answer = await get('/v3/shippingMethods');
    expect(answer.status).toBe(200);
    const byKind = (kind: string) => answer.body.data.filter((m: { attributes: { kind: string } }) => m.attributes.kind === kind);
    expect(byKind('MAIN').map((m: { id: number }) => m.id)).toEqual(settings.mainShippingMethods.map((m: { id: number }) => m.id));
    expect(byKind('RETURN').map((m: { id: number }) => m.id)).toEqual(settings.returnShippingMethods.map((m: { id: number }) => m.id));
    const main = settings.mainShippingMethods[0];
    const perWarehouse = byKind('WAREHOUSE').filter((m: { relationships: any }) => m.relationships.mainShippingMethod.data?.id === main.id);
    expect(
      perWarehouse.map((m: { id: number; attributes: { warehouseCode: string } }) => ({ id: m.id, warehouse: m.attributes.warehouseCode })),
    ).toEqual(main.shippingMethods);
    expect(byKind('MAIN')[0].relationships.mainShippingMethod.data).toBeNull();
  });

  it("reads one shipping method; another client's is a 404", async () => {
    const id = settings.mainShippingMethods[0].id;
    const answer = await get(`/v3/shippingMethods/${id}`);
    expect(answer.body.data).toMatchObject({
      id,
      type: 'shippingMethod',
      attributes: { kind: 'MAIN', code: settings.mainShippingMethods[0].code, warehouseCode: null },
    });
    const other = await sb.newClient();
    expect((await get(`/v3/shippingMethods/${id}`, other.token)).status).toBe(404);
    expect((await get('/v3/shippingMethods/999999')).status).toBe(404);
  });
});
