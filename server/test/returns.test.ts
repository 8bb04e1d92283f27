import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processReturnItems, registerReturn } from '../src/modules/returns/service.ts';
import type { Client } from '../src/modules/clients/client.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { domainClient, receiveGoods } from './support/inventory.ts';

let sb: TestSandbox;
let client: TestClient;
let domain: Client;
let shipment: any;
let productIds: number[];

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  domain = await domainClient(sb, client);
  productIds = await createProducts(sb, client.token, ['RT-A', 'RT-B']);
  await receiveGoods(sb, client, [
    { sku: 'RT-A', quantity: 5 },
    { sku: 'RT-B', quantity: 5 },
  ]);
  const order = await sb.call('POST', '/v3/orders', {
    token: client.token,
    body: orderDocument(client, {
      externalOrderNumber: 'RT-ORDER-1',
      items: [
        { sku: 'RT-A', quantity: 3 },
        { sku: 'RT-B', quantity: 2 },
      ],
    }),
  });
  const shipped = await sb.call('POST', `/sandbox/orders/${order.body.data.id}/ship`, { token: client.token });
  shipment = shipped.body;
});
afterAll(() => sb.close());

const itemOf = (sku: string) => shipment.included.find((i: any) => i.attributes.sku === sku);
const physical = async (productId: number) =>
  (await sb.call('GET', `/v3/stockLevels/${productId}`, { token: client.token })).body.data.attributes.levels.find(
    (l: any) => l.warehouse === 'NR',
  );

describe('returns', () => {
  it('a registered return is not a return item until the warehouse processes it', async () => {
    await registerReturn(sb.database.db, domain, {
      shipmentId: shipment.data.id,
      items: [{ shipmentItemId: itemOf('RT-A').id, quantity: 1 }],
    });
    expect((await sb.call('GET', '/v3/returnItems', { token: client.token })).body.data).toEqual([]);
  });

  it('processing puts RETURN goods back into sellable stock and DAMAGED goods into DAMAGED quality, with RETURN mutations', async () => {
    const [reason] = (await sb.call('GET', '/settings/get', { token: client.token })).body.result.returnReasons;
    const returnId = await registerReturn(sb.database.db, domain, {
      shipmentId: shipment.data.id,
      remark: 'customer changed mind',
      externalReference: 'RMA-1',
      items: [
        { shipmentItemId: itemOf('RT-A').id, quantity: 2, returnReasonId: reason.id, metadata: { colour: 'red' } },
        { shipmentItemId: itemOf('RT-B').id, quantity: 1 },
      ],
    });
    expect(await physical(productIds[0])).toMatchObject({ physical: 2, stock: 2 });
    const rows = await sb.database.db.query.returnItems.findMany({
      where: (r, { eq }) => eq(r.returnId, returnId),
      orderBy: (r, { asc }) => asc(r.id),
    });
    await processReturnItems(sb.database.db, domain, returnId, [
      { returnItemId: rows[0].id, condition: 'RETURN', comment: 'as new' },
      { returnItemId: rows[1].id, condition: 'DAMAGED', redeliver: true },
    ]);

    const list = await sb.call('GET', '/v3/returnItems', { token: client.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: any) => [r.attributes.sku, r.attributes.quantity, r.attributes.condition])).toEqual([
      ['RT-A', 2, 'RETURN'],
      ['RT-B', 1, 'DAMAGED'],
    ]);
    const [restocked, damaged] = list.body.data;
    expect(restocked.attributes).toMatchObject({
      processedIn: 'NR',
      restockIn: 'NR',
      comment: 'as new',
      redeliver: false,
      externalOrderNumber: 'RT-ORDER-1',
    });
    expect(restocked.attributes.restockOn).toBe(restocked.attributes.processedOn);
    expect(restocked.relationships).toMatchObject({
      order: { data: { type: 'order', id: shipment.data.relationships.order.data.id } },
      product: { data: { type: 'product', id: productIds[0] } },
      return: { data: { type: 'return', id: returnId } },
      returnReason: { data: { type: 'returnReason', id: reason.id } },
      shipmentItem: { data: { type: 'shipmentItem', id: itemOf('RT-A').id } },
      orderItem: { data: { type: 'orderItem', id: expect.any(Number) } },
    });
    expect(damaged.attributes).toMatchObject({ restockIn: null, restockOn: null, redeliver: true });

    expect(await physical(productIds[0])).toMatchObject({ physical: 4, stock: 4, damaged: 0 });
    expect(await physical(productIds[1])).toMatchObject({ physical: 4, stock: 3, damaged: 1, unavailable: 1 });
    const mutations = (await sb.call('GET', '/v3/stockMutations?filter[type][in]=RETURN', { token: client.token })).body.data;
    expect(
      mutations.map((m: any) => [
        m.attributes.sku,
        m.attributes.quantity,
        m.attributes.quality,
        m.attributes.locationType,
        m.relationships.returnItem.data.id,
      ]),
    ).toEqual([
      ['RT-A', 2, 'OK', 'PICKABLE', restocked.id],
      ['RT-B', 1, 'DAMAGED', 'DAMAGED', damaged.id],
    ]);
  });

  it('refuses to process an item twice and to return more than was shipped', async () => {
    const returnId = await registerReturn(sb.database.db, domain, {
      shipmentId: shipment.data.id,
      items: [{ shipmentItemId: itemOf('RT-B').id, quantity: 1 }],
    });
    const [row] = await sb.database.db.query.returnItems.findMany({ where: (r, { eq }) => eq(r.returnId, returnId) });
    await processReturnItems(sb.database.db, domain, returnId, [{ returnItemId: row.id, condition: 'UNKNOWN' }]);
    await expect(
      processReturnItems(sb.database.db, domain, returnId, [{ returnItemId: row.id, condition: 'RETURN' }]),
    ).rejects.toMatchObject({ status: 409 });
    await expect(
      registerReturn(sb.database.db, domain, { shipmentId: shipment.data.id, items: [{ shipmentItemId: itemOf('RT-B').id, quantity: 3 }] }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('filters return items by processedOn', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect((await sb.call('GET', `/v3/returnItems?filter[processedOn][gt]=${day(-1)}`, { token: client.token })).body.data).toHaveLength(3);
    expect((await sb.call('GET', `/v3/returnItems?filter[processedOn][gt]=${day(0)}`, { token: client.token })).body.data).toEqual([]);
    expect((await sb.call('GET', `/v3/returnItems?filter[processedOn][lt]=${day(0)}`, { token: client.token })).body.data).toEqual([]);
    expect((await sb.call('GET', `/v3/returnItems?filter[processedOn][lt]=${day(1)}`, { token: client.token })).body.data).toHaveLength(3);
    expect((await sb.call('GET', '/v3/returnItems?filter[processedOn][lt]=soon', { token: client.token })).status).toBe(400);
  });

  it("another client sees none of them and cannot register a return on this client's shipment", async () => {
    const other = await sb.newClient();
    expect((await sb.call('GET', '/v3/returnItems', { token: other.token })).body.data).toEqual([]);
    const otherDomain = await domainClient(sb, other);
    await expect(
      registerReturn(sb.database.db, otherDomain, {
        shipmentId: shipment.data.id,
        items: [{ shipmentItemId: itemOf('RT-A').id, quantity: 1 }],
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
