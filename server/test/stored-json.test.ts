// The stored resource JSON of orders and order items (representation/stored.ts): kept by triggers on every write,
// read with each request's base, rewritten when the representation changes. The sandbox checks every database it closes
// against the expressions too (support/sandbox.ts), so every suite's writes are checked; these are the parts of it no
// other suite reaches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/platform/db/index.ts';
import { documentsOutOfStep, installStoredJson } from '../src/representation/stored.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  // No public address: each request's links take its own Host, so one stored text must serve two bases.
  sb = await startSandbox({ publicUrl: undefined });
  client = await sb.newClient();
  await createProducts(sb, client.token, ['SHIRT', 'MUG']);
});
afterAll(() => sb.close());

const twoItems = [
  { sku: 'SHIRT', quantity: 3 },
  { sku: 'MUG', quantity: 1 },
];
async function newOrder(attributes: Record<string, unknown> = {}) {
  const answer = await sb.call('POST', '/v3/orders', { token: client.token, body: orderDocument(client, { items: twoItems, attributes }) });
  if (answer.status !== 201) throw new Error(answer.raw);
  return answer.body.data;
}
const listFrom = (host: string) =>
  sb.call('GET', '/v3/orders?include=orderItems&page[size]=100', { token: client.token, headers: { host } });

describe('stored order JSON', () => {
  it('is read with the base of each request: the same stored text links to either host', async () => {
    const order = await newOrder();
    const [first, second] = [await listFrom('one.example:8080'), await listFrom('two.example')];
    const links = (answer: typeof first) => [
      answer.body.data.find((o: { id: number }) => o.id === order.id).links.self,
      ...answer.body.included.filter((i: { type: string }) => i.type === 'orderItem').map((i: { links: { self: string } }) => i.links.self),
    ];
    expect(links(first)[0]).toBe(`http://one.example:8080/v3/orders/${order.id}`);
    expect(links(second)[0]).toBe(`http://two.example/v3/orders/${order.id}`);
    expect(links(first).every((link: string) => link.startsWith('http://one.example:8080/v3/'))).toBe(true);
    expect(links(second).every((link: string) => link.startsWith('http://two.example/v3/'))).toBe(true);
    expect(first.raw).not.toContain('\u0001');
  });

  it('keeps a value holding the marker character as sent, escaped, while links get the base', async () => {
    const reference = 'A\u0001B';
    const order = await newOrder({ reference, metadata: { extra1: '\u0001' } });
    const answer = await listFrom('marker.example');
    const listed = answer.body.data.find((o: { id: number }) => o.id === order.id);
    expect(listed.attributes.reference).toBe(reference);
    expect(listed.attributes.metadata.extra1).toBe('\u0001');
    expect(listed.links.self).toBe(`http://marker.example/v3/orders/${order.id}`);
    expect(answer.raw).toContain('A\\u0001B');
    const single = await sb.call('GET', `/v3/orders/${order.id}`, { token: client.token, headers: { host: 'marker.example' } });
    expect(single.body.data).toEqual(listed);
  });

  it('is written by the statement that places an order, and the triggers after it leave it as written', async () => {
    const order = await newOrder();
    // The same transaction and command as the rows: a trigger's rewrite (it fires when the placing statement does not
    // hold shopapi.placing 'on') would be a later command.
    const written = await queryRows<{ order: boolean; item: boolean }>(
      sb.database.db,
      sql`select o.xmin = i.xmin and o.cmin = i.cmin as order, j.xmin = i.xmin and j.cmin = i.cmin as item
        from order_items as i join order_json as o on o.order_id = i.order_id join order_item_json as j on j.order_item_id = i.id
        where i.order_id = ${order.id}`,
    );
    expect(written).toEqual([
      { order: true, item: true },
      { order: true, item: true },
    ]);
    // And with a pick-up point: its insert trigger does not rewrite the order's JSON either.
    const withPoint = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { items: twoItems, pickUpPoint: { identifier: 'PUP-W', countryCode: 'NL' } }),
    });
    expect(withPoint.status).toBe(201);
    const pointWritten = await queryRows<{ order: boolean }>(
      sb.database.db,
      sql`select o.xmin = p.xmin and o.cmin = p.cmin as order
        from pick_up_points as p join order_json as o on o.order_id = p.order_id where p.order_id = ${withPoint.body.data.id}`,
    );
    expect(pointWritten).toEqual([{ order: true }]);
    // An item added later, by a statement of its own, is written by the triggers, and so is its order.
    const db = sb.database.db;
    const [added] = await queryRows<{ id: number }>(
      db,
      sql`insert into order_items (client_id, order_id, product_id, sku, quantity, ordered_quantity, vat, name, metadata)
        select client_id, order_id, product_id, sku, 1, 1, vat, 'Added', metadata from order_items where order_id = ${order.id} order by id limit 1
        returning id`,
    );
    const single = await sb.call('GET', `/v3/orders/${order.id}`, { token: client.token });
    const listed = (await listFrom('added.example')).body.data.find((o: { id: number }) => o.id === order.id);
    expect(listed.relationships.orderItems.data.map((i: { id: number }) => i.id)).toEqual(
      single.body.data.relationships.orderItems.data.map((i: { id: number }) => i.id),
    );
    expect(listed.relationships.orderItems.data.map((i: { id: number }) => i.id)).toContain(added.id);
    expect(await documentsOutOfStep(db)).toEqual({ orders: [], orderItems: [] });
  });

  it('follows an update of the order and of an item in the same transaction as the write', async () => {
    const order = await newOrder({ reference: 'before' });
    await sb.database.db.execute(sql`update orders set reference = 'after' where id = ${order.id}`);
    await sb.database.db.execute(sql`update order_items set name = 'Renamed' where order_id = ${order.id}`);
    const answer = await listFrom('update.example');
    expect(answer.body.data.find((o: { id: number }) => o.id === order.id).attributes.reference).toBe('after');
    const items = answer.body.included.filter(
      (i: { relationships: { order: { data: { id: number } } } }) => i.relationships.order.data.id === order.id,
    );
    expect(items.map((i: { attributes: { name: string } }) => i.attributes.name)).toEqual(['Renamed', 'Renamed']);
    expect(await documentsOutOfStep(sb.database.db)).toEqual({ orders: [], orderItems: [] });
  });

  it('follows what is added to an order and taken from it later, each in a statement of its own', async () => {
    const order = await newOrder();
    const db = sb.database.db;
    const relationships = async () =>
      (await sb.call('GET', `/v3/orders?page[size]=100`, { token: client.token })).body.data.find((o: { id: number }) => o.id === order.id)
        .relationships;
    await db.execute(
      sql`insert into pick_up_points (client_id, order_id, identifier, country_code) values (${client.id}, ${order.id}, 'PUP-1', 'NL')`,
    );
    expect((await relationships()).pickUpPoint.data).toMatchObject({ type: 'pickUpPoint' });
    await db.execute(
      sql`insert into order_attachments (client_id, order_id, filename, content_type, print_strategy, page_format) values (${client.id}, ${order.id}, 'a.pdf', 'application/pdf', 'NONE', 'A4')`,
    );
    expect((await relationships()).orderAttachments.data).toHaveLength(1);
    const [{ id: lastItem }] = await queryRows<{ id: number }>(db, sql`select max(id) as id from order_items where order_id = ${order.id}`);
    await db.execute(sql`delete from order_items where id = ${lastItem}`);
    expect((await relationships()).orderItems.data.map((i: { id: number }) => i.id)).not.toContain(lastItem);
    expect(await queryRows(db, sql`select 1 from order_item_json where order_item_id = ${lastItem}`)).toEqual([]);
    await db.execute(sql`delete from pick_up_points where order_id = ${order.id}`);
    expect((await relationships()).pickUpPoint.data).toBeNull();
    await db.execute(sql`delete from order_attachments where order_id = ${order.id}`);
    expect((await relationships()).orderAttachments.data).toEqual([]);
    expect(await documentsOutOfStep(db)).toEqual({ orders: [], orderItems: [] });
  });

  it('says which rows are out of step, and a new representation rewrites them all at start', async () => {
    const order = await newOrder();
    const [item] = await queryRows<{ id: number }>(
      sb.database.db,
      sql`select id from order_items where order_id = ${order.id} order by id limit 1`,
    );
    // Text no trigger wrote, as a server with another representation would have left it.
    await sb.database.db.execute(sql`update order_json set json = '{}' where order_id = ${order.id}`);
    await sb.database.db.execute(sql`delete from order_item_json where order_item_id = ${item.id}`);
    // And text whose row is gone.
    await sb.database.db.execute(sql`insert into order_item_json (order_item_id, order_id, json) values (2147483647, ${order.id}, '{}')`);
    expect(await documentsOutOfStep(sb.database.db)).toEqual({ orders: [order.id], orderItems: [item.id, 2147483647] });
    // The installed version is current: a start does nothing (one query).
    await installStoredJson(sb.database.db);
    expect((await documentsOutOfStep(sb.database.db)).orders).toEqual([order.id]);
    // Another version installed (an older or newer server): the start replaces it and writes every row anew.
    await sb.database.db.execute(sql.raw(`comment on function shopapi_refresh_order_json(integer[]) is 'stored json of another server'`));
    await installStoredJson(sb.database.db);
    expect(await documentsOutOfStep(sb.database.db)).toEqual({ orders: [], orderItems: [] });
    const answer = await sb.call('GET', `/v3/orders/${order.id}?include=orderItems`, { token: client.token });
    expect(answer.body.data.attributes.externalOrderNumber).toBe(order.attributes.externalOrderNumber);
    expect(answer.body.included.map((i: { id: number }) => i.id)).toContain(item.id);
  });

  it('is installed once by processes starting together', async () => {
    await sb.database.db.execute(sql.raw(`comment on function shopapi_refresh_order_json(integer[]) is 'stale'`));
    await Promise.all([installStoredJson(sb.database.db), installStoredJson(sb.database.db), installStoredJson(sb.database.db)]);
    const [{ version }] = await queryRows<{ version: string }>(
      sb.database.db,
      sql`select obj_description('shopapi_refresh_order_json(integer[])'::regprocedure, 'pg_proc') as version`,
    );
    expect(version).toMatch(/^stored json [0-9a-f]{64}$/);
    expect(await documentsOutOfStep(sb.database.db)).toEqual({ orders: [], orderItems: [] });
  });
});
