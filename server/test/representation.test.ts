// One resource, one representation: every resource object is the same bytes whether it is read alone, on a list page
// or as an include of its parent. Generated from the contract: every v3 GET operation is called (with and without all
// its include paths), then every self link found; the bytes of each resource in each answer are compared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { operations, type Operation } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { addressDocuments, addressResource } from '../src/representation/addresses.ts';
import { orderItemDocuments, orderItemResource } from '../src/representation/order-items.ts';
import { orderDocuments, orderResource } from '../src/representation/orders.ts';
import { pickUpPointDocuments, pickUpPointResource } from '../src/representation/pick-up-points.ts';
import { shipmentItemDocuments, shipmentItemResource } from '../src/representation/shipment-items.ts';
import { shipmentDocuments, shipmentResource } from '../src/representation/shipments.ts';
import { startSandbox, type Answer, type TestSandbox } from './support/sandbox.ts';
import { buildWorld, pathFor, type World } from './support/world.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';

let sb: TestSandbox;
let world: World;

interface ResourceObject {
  type: string;
  id: number;
  links?: { self?: string };
}
type Context = 'single' | 'list' | 'include';
/** Per resource (type:id): the bytes seen, with where they were seen. */
const seen = new Map<string, { bytes: string; where: string; context: Context }[]>();

/**
 * The exact bytes of every resource object of the answer. JSON.stringify of the parsed object keeps the member order
 * and writes the compact spelling the serializer writes; when the answer's own bytes for that object are the same,
 * they appear verbatim in the raw answer. So `raw.includes(bytes)` checks the answer's bytes, and comparing `bytes`
 * across answers compares the answers' bytes.
 */
function record(answer: Answer, where: string) {
  expect(answer.status, `${where}: ${answer.raw.slice(0, 300)}`).toBe(200);
  const context = Array.isArray(answer.body.data) ? 'list' : 'single';
  const data: ResourceObject[] = ([] as ResourceObject[]).concat(answer.body.data ?? []);
  const included: ResourceObject[] = answer.body.included ?? [];
  for (const [resource, as] of [...data.map((r) => [r, context] as const), ...included.map((r) => [r, 'include'] as const)]) {
    const bytes = JSON.stringify(resource);
    expect(
      answer.raw.includes(bytes),
      `${where}: ${resource.type} ${resource.id} is not written compactly in the contract's order:\n${bytes}\nin\n${answer.raw.slice(0, 2000)}`,
    ).toBe(true);
    const key = `${resource.type}:${resource.id}`;
    seen.set(key, [...(seen.get(key) ?? []), { bytes, where, context: as }]);
  }
}

const v3Reads = operations.filter(
  (op) => op.method === 'GET' && op.auth && (op.path.startsWith('/v3/') || op.path.startsWith('/sandbox/')),
);
/** The operation's include paths, from the contract (IncludeQuery's example lists them all). */
const includesOf = (op: Operation) => (op.query?.properties.include as { examples?: string[] } | undefined)?.examples ?? [];

beforeAll(async () => {
  sb = await startSandbox({ rateLimitPerHour: 1_000_000_000 });
  const client = await sb.newClient();
  world = await buildWorld(sb, client);
  // Values whose text forms differ between the database and JavaScript: numerics with trailing zeros, escapes,
  // metadata in jsonb, and a shipped shipment's tracking and colli (jsonb objects).
  await createProducts(sb, client.token, ['REPR-1']);
  const tricky = 'He said "hi" \\ \n\t</script> ünï 𝄞 \u0001 \u2028';
  const order = await sb.call('POST', '/v3/orders', {
    token: client.token,
    body: orderDocument(client, {
      attributes: { reference: 'repr', metadata: { extra2: tricky, extra1: 'b' } },
      billing: { street1: 'Markt', city: 'Roosendaal', countryCode: 'NL', company: tricky },
      pickUpPoint: { identifier: 'PUP-1', name: tricky, countryCode: 'NL' },
      items: [
        { sku: 'REPR-1', quantity: 2, price: 12.5, vat: 0.09, metadata: { extra7: tricky, extra6: 'x' } },
        { sku: 'REPR-1', quantity: 1, price: 10 },
      ],
    }),
  });
  expect(order.status).toBe(201);
  expect((await sb.call('POST', `/sandbox/orders/${order.body.data.id}/ship`, { token: client.token })).status).toBe(201);
});
afterAll(() => sb.close());

describe('one resource, one representation', () => {
  it('writes every resource with the same bytes in its single read, on its list page and as an include', async () => {
    const { token } = world.client;
    for (const op of v3Reads) {
      const path = pathFor(op, world);
      if (!path) continue;
      const include = includesOf(op);
      record(await sb.call('GET', path, { token }), `GET ${path}`);
      if (include.length)
        record(await sb.call('GET', `${path}?include=${include.join(',')}`, { token }), `GET ${path}?include=${include.join(',')}`);
    }
    // Every resource's self link, read alone (the resources the world has no id for, such as included ones, too).
    const unresolved: string[] = [];
    for (const key of [...seen.keys()]) {
      const [first] = seen.get(key)!;
      const self = (JSON.parse(first.bytes) as ResourceObject).links?.self;
      if (!self) continue;
      const path = new URL(self).pathname;
      if (seen.get(key)!.some((s) => s.where === `GET ${path}`)) continue;
      const answer = await sb.call('GET', path, { token });
      if (answer.status === 404) unresolved.push(path.replace(/\d+$/, '{id}'));
      else record(answer, `GET ${path}`);
    }

    for (const [key, copies] of seen) {
      const distinct = [...new Set(copies.map((c) => c.bytes))];
      expect(distinct, `${key} differs between ${copies.map((c) => c.where).join(', ')}`).toHaveLength(1);
    }
    // The comparison covered what it should: the order side in all three ways, and a shipment's jsonb attributes.
    const contexts = (type: string) =>
      new Set([...seen].filter(([key]) => key.startsWith(`${type}:`)).flatMap(([, copies]) => copies.map((c) => c.context)));
    for (const type of ['orderItem', 'address', 'pickUpPoint', 'shipmentItem'])
      expect([...contexts(type)].sort(), type).toEqual(['include', 'single']);
    for (const type of ['order', 'shipment', 'product', 'webhook', 'inbound'])
      expect([...contexts(type)].sort(), type).toEqual(['list', 'single']);
    for (const type of ['inboundItem', 'inboundPackingSlipItem', 'stockLocation'])
      expect([...contexts(type)].sort(), type).toEqual(['include', 'single']);
    for (const type of ['stockMutation', 'returnItem', 'webhookDelivery'])
      expect([...contexts(type)].sort(), type).toEqual(['list', 'single']);
    const shipment = [...seen].find(([key, copies]) => key.startsWith('shipment:') && JSON.parse(copies[0].bytes).attributes.tracking);
    expect(shipment, 'a shipment with tracking').toBeDefined();
    expect(JSON.parse(shipment![1][0].bytes).attributes.colli.length).toBeGreaterThan(0);
    const item = [...seen].find(([key, copies]) => key.startsWith('orderItem:') && JSON.parse(copies[0].bytes).attributes.price === 12.5);
    expect(item?.[1].length, 'the item with a price, read alone and included').toBeGreaterThanOrEqual(2);
    // Every resource has a read of its own (server/test/self-links.test.ts follows every link).
    expect([...new Set(unresolved)]).toEqual([]);
  }, 120_000);

  it('writes with the SQL fast path exactly what the TypeScript mapper writes, for every type that has both', async () => {
    // Every row of the database (the world and the tricky order above, shipped), both ways, compared as bytes.
    const { db } = sb.database;
    const { orders, orderItems, addresses, pickUpPoints, orderAttachments, shipments, shipmentItems } = schema;
    const base = 'http://sandbox.test';
    const bytes = (resources: object[]) => resources.map((resource) => JSON.stringify(resource));
    const idsOf = <R extends { id: number }>(rows: R[], owner: (row: R) => number | null, id: number) =>
      rows.filter((row) => owner(row) === id).map((row) => row.id);
    const [orderRows, itemRows, addressRows, pointRows, attachmentRows, shipmentRows, shipmentItemRows] = await Promise.all([
      db.select().from(orders).orderBy(asc(orders.id)),
      db.select().from(orderItems).orderBy(asc(orderItems.id)),
      db.select().from(addresses).orderBy(asc(addresses.id)),
      db.select().from(pickUpPoints).orderBy(asc(pickUpPoints.id)),
      db.select().from(orderAttachments).orderBy(asc(orderAttachments.id)),
      db.select().from(shipments).orderBy(asc(shipments.id)),
      db.select().from(shipmentItems).orderBy(asc(shipmentItems.id)),
    ]);
    for (const rows of [orderRows, itemRows, addressRows, pointRows, shipmentRows, shipmentItemRows])
      expect(rows.length).toBeGreaterThan(0);
    expect(
      shipmentRows.some((s) => s.tracking && s.colli.length),
      'a shipped shipment',
    ).toBe(true);

    const { data: sqlOrders } = await orderDocuments(db, db.select({ id: orders.id }).from(orders), new Set(), base);
    const mappedOrders = orderRows.map((o) =>
      orderResource(
        o,
        {
          pickUpPointId: pointRows.find((p) => p.orderId === o.id)?.id ?? null,
          orderItemIds: idsOf(itemRows, (i) => i.orderId, o.id),
          orderAttachmentIds: idsOf(attachmentRows, (a) => a.orderId, o.id),
        },
        base,
      ),
    );
    expect(bytes(sqlOrders)).toEqual(bytes(mappedOrders));

    const { data: sqlShipments } = await shipmentDocuments(db, db.select({ id: shipments.id }).from(shipments), false, base);
    const mappedShipments = shipmentRows.map((s) =>
      shipmentResource(
        s,
        idsOf(shipmentItemRows, (i) => i.shipmentId, s.id),
        base,
      ),
    );
    expect(bytes(sqlShipments)).toEqual(bytes(mappedShipments));

    expect(bytes(await orderItemDocuments(db, db.select({ id: orderItems.id }).from(orderItems), base))).toEqual(
      bytes(itemRows.map((i) => orderItemResource(i, base))),
    );
    expect(bytes(await addressDocuments(db, db.select({ id: addresses.id }).from(addresses), base))).toEqual(
      bytes(addressRows.map((a) => addressResource(a, base))),
    );
    expect(bytes(await pickUpPointDocuments(db, db.select({ id: pickUpPoints.id }).from(pickUpPoints), base))).toEqual(
      bytes(pointRows.map((p) => pickUpPointResource(p, base))),
    );
    expect(bytes(await shipmentItemDocuments(db, db.select({ id: shipmentItems.id }).from(shipmentItems), base))).toEqual(
      bytes(shipmentItemRows.map((i) => shipmentItemResource(i, base))),
    );
  });
});
