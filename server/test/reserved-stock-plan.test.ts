// What open shipments reserve (shipments/repository.ts, reservedStock; migration 0021) is read from the client's own
// open shipments, whatever the planner's statistics say. The server runs its statements prepared by name, and a
// connection keeps a statement's generic plan: made while the shipment tables were empty and analyzed so (a fresh
// database, or statistics taken before a clock advance filled them), the create's shortfall, as a join of the statement,
// read both tables whole once for each shipment item. Another client's advance made B's creates take 32 ms instead of 8.
//
// Here the create's shortfall expression is prepared the same way on one connection, its generic plan made while the
// tables are empty, then run again after another client's 2,000 open shipments: it must read B's few rows, not A's.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db, dialect, queryRows, schema } from '../src/platform/db/index.ts';
import { newOrderShortfall } from '../src/modules/shipments/repository.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProduct, orderDocument } from './support/fixtures.ts';
import { receiveGoods } from './support/inventory.ts';

let sb: TestSandbox;
let a: TestClient;
let b: TestClient;
const ids = { a: { product: 0, order: 0 }, b: { product: 0, order: 0 } };

async function placeOrder(client: TestClient, sku: string) {
  const answer = await sb.call('POST', '/v3/orders', {
    token: client.token,
    body: orderDocument(client, { items: [{ sku, quantity: 1 }] }),
  });
  expect(answer.status, answer.raw).toBe(201);
  return Number(answer.body.data.id);
}

beforeAll(async () => {
  sb = await startSandbox();
  a = await sb.newClient();
  b = await sb.newClient();
  ids.a.product = await createProduct(sb, a.token, 'A-1');
  ids.b.product = await createProduct(sb, b.token, 'B-1');
  await receiveGoods(sb, b, [{ sku: 'B-1', quantity: 10 }]);
  ids.a.order = await placeOrder(a, 'A-1');
  ids.b.order = await placeOrder(b, 'B-1');
});
afterAll(() => sb?.close());

/** Open shipments of the client's order, each with one item of `units` of the product (SQL, as the warehouse writes them). */
async function openShipments(tx: Db, owner: { product: number; order: number }, count: number, units: number, status = 'PICKING') {
  const [order] = await tx.select().from(schema.orders).where(eq(schema.orders.id, owner.order));
  const [client] = await tx.select().from(schema.clients).where(eq(schema.clients.id, order.clientId));
  await tx.execute(sql`with made as (
      insert into ${schema.shipments} (client_id, order_id, order_type_id, shipping_method_id, status, warehouse_code)
      select ${order.clientId}, ${order.id}, ${order.orderTypeId}, ${order.preferredShippingMethodId}, ${status}, ${client.defaultWarehouse}
      from generate_series(1, ${count}::int)
      returning id, client_id)
    insert into ${schema.shipmentItems} (client_id, shipment_id, product_id, sku, quantity)
    select client_id, id, ${owner.product}, 'SKU', ${units}::int from made`);
}

/** Rows read from the shipment tables by this transaction so far, by sequential scans and by index. */
async function rowsRead(tx: Db) {
  const rows = await queryRows<{ relname: string; seq: string | null; fetched: string | null }>(
    tx,
    sql`select relname, seq_tup_read::text as seq, idx_tup_fetch::text as fetched from pg_stat_xact_user_tables
      where relname in ('shipments', 'shipment_items')`,
  );
  const of = (name: string, column: 'seq' | 'fetched') => Number(rows.find((r) => r.relname === name)?.[column] ?? 0);
  return {
    sequential: of('shipments', 'seq') + of('shipment_items', 'seq'),
    byIndex: of('shipments', 'fetched') + of('shipment_items', 'fetched'),
  };
}

it("reads only the client's own open shipments with a plan made while the shipment tables were empty", async () => {
  await sb.database.db.execute(sql`analyze ${schema.shipments}, ${schema.shipmentItems}`);
  // B's new order: 12 units of B-1, against 10 on the shelf.
  const statement = dialect.sqlToQuery(
    sql`with placed_order as (select ${b.id}::int as client_id, null::text as fulfill_from),
      placed_items as (select 1 as id, ${ids.b.product}::int as product_id, 'B-1'::text as sku, 12 as quantity)
      select (${newOrderShortfall({ order: 'placed_order', items: 'placed_items' })})::text as shortfall`,
  );
  const literal = (value: unknown) => `'${String(value).replaceAll("'", "''")}'`;
  const execute = sql.raw(`execute reserved_plan(${statement.params.map(literal).join(', ')})`);
  const shortfall = async (tx: Db) => JSON.parse((await queryRows<{ shortfall: string }>(tx, execute))[0].shortfall);

  await sb.database.db
    .transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare reserved_plan as ${statement.sql}`));
      // The generic plan is made now, with both tables empty.
      expect(await shortfall(tx)).toEqual([{ sku: 'B-1', quantity: 2 }]);

      await openShipments(tx, ids.a, 2000, 1);
      await openShipments(tx, ids.b, 3, 2);
      await openShipments(tx, ids.b, 1, 5, 'SHIPPED');
      const before = await rowsRead(tx);
      // 6 of the 10 units reserved by B's 3 open shipments (the shipped one reserves nothing): 8 short.
      expect(await shortfall(tx)).toEqual([{ sku: 'B-1', quantity: 8 }]);
      const after = await rowsRead(tx);
      await tx.execute(sql`deallocate reserved_plan`);

      expect(after.sequential - before.sequential).toBe(0);
      // B's 3 open shipments and their 3 items, not A's 4,000 rows.
      expect(after.byIndex - before.byIndex).toBeLessThanOrEqual(6);
      throw new Error('roll back');
    })
    .catch((error: Error) => {
      if (error.message !== 'roll back') throw error;
    });
});
