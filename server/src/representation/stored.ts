// Stored resource JSON: each order's and order item's resource object kept as JSON text in order_json and
// order_item_json, so an order list page is read from stored text. Writing a page's JSON took most of a list
// request's time, on PGlite most of all (bench/RESULTS.md, findings: 3.3 ms a page by the statement, 0.7 ms from stored
// text, PGlite in memory).
//
// The text is written by triggers, in the transaction of the write, from the same expressions a page's statement used
// (orders.ts, order-items.ts): every write path keeps it, whether the v3 or v2 API, the warehouse or SQL by hand; the
// test sandbox checks it against the expressions for every order when it closes (documentsOutOfStep). Links are
// stored with a marker where the request's base goes (sql.ts, storedBaseMarker), replaced as a page is read. The
// statement that places an order writes its order's and items' text itself (placementJson), and the insert triggers
// do not fire for it.
//
// The functions and triggers are made from the rendered expressions, so they are installed when the server starts
// rather than by a migration: `installStoredJson` compares a hash of their SQL with the one the database holds, and on
// a difference (a new database, or a representation that changed) replaces them and rewrites every row's JSON, in one
// transaction under an advisory lock (processes starting together install it once).
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { dialect, queryRows, schema, type Db } from '../platform/db/index.ts';
import type { PlacedRelations, PlacementHook } from '../modules/orders/repository.ts';
import { orderSql } from './orders.ts';
import { orderItemSql } from './order-items.ts';
import { type RowsOf, storedRequest } from './sql.ts';

const text = (query: ReturnType<typeof sql>) => dialect.sqlToQuery(query).sql;

/** Rewrites the JSON of the orders whose ids it is given (those that no longer exist are skipped). */
const refreshOrders = 'shopapi_refresh_order_json';
/** Rewrites the JSON of the order items whose ids it is given. */
const refreshOrderItems = 'shopapi_refresh_order_item_json';
/**
 * Held 'on' by the statement that places an order while it writes (placementJson): the insert triggers of the tables it
 * writes do not fire for it, since it writes the JSON they would write, from the same rows.
 */
const placingSetting = 'shopapi.placing';
const placedTables: ReadonlySet<string> = new Set(['orders', 'order_items', 'pick_up_points']);
const unlessPlacing = `current_setting('${placingSetting}', true) is distinct from 'on'`;

/** The order's relationships to its items, attachments and pick-up point: grouped aggregates (sql.ts). */
function orderRelated() {
  if (!orderSql.related) throw new Error('the order expression reads its relationships from grouped aggregates');
  return orderSql.related;
}

function refreshFunctions(): string[] {
  if (orderItemSql.related) throw new Error('the order item expression is expected to read its own row only');
  const related = orderRelated();
  const ordersStatement = text(
    // Every table by `= any` on the array, not `in (select id from page)` as a page's statement: the plan is made once
    // per connection, and a semi-join planned while a table was small would stay a scan of the whole table as it grows.
    sql`with ${storedRequest}, ${related.ctesFrom((table, owner) => sql`from ${table} where ${owner} = any(changed_ids)`)}
      insert into order_json (order_id, json)
      select orders.id, ${orderSql.json} from orders ${related.joins} where orders.id = any(changed_ids)
      on conflict (order_id) do update set json = excluded.json`,
  );
  const itemsStatement = text(
    sql`with ${storedRequest}
      insert into order_item_json (order_item_id, order_id, json)
      select order_items.id, order_items.order_id, ${orderItemSql.json} from order_items where order_items.id = any(changed_ids)
      on conflict (order_item_id) do update set order_id = excluded.order_id, json = excluded.json`,
  );
  const refresh = (name: string, statement: string) =>
    plpgsql(`${name}(changed_ids integer[]) returns void`, `if cardinality(changed_ids) = 0 then return; end if; ${statement};`);
  return [refresh(refreshOrders, ordersStatement), refresh(refreshOrderItems, itemsStatement)];
}

/**
 * The order's and its items' JSON written by the statement that places the order (modules/orders/repository.ts), from
 * the rows it wrote. The statement holds `placingSetting` 'on' while it writes, so the insert triggers of its tables do
 * not fire for it. Written again by the triggers from the tables, the JSON took 0.48 ms of the create statement's
 * 1.15 ms under the create load; the triggers only finding that the statement had written it (by xmin and cmin) still
 * cost about a tenth of PostgreSQL's CPU per create (bench/RESULTS.md, findings). The statement's writes are not visible
 * to its other parts, so its own relations stand in for the tables under their names. Plain inserts, where the triggers'
 * functions upsert: the order and its items are new in this statement and their triggers do not fire for it, so no row
 * can be there before; an upsert's speculative insertion cost two WAL records a row instead of one (six more a create).
 */
export function placementJson(placed: PlacedRelations): PlacementHook {
  const related = orderRelated();
  const written: ReadonlyMap<PgTable, string> = new Map<PgTable, string>([
    [schema.orderItems, placed.items],
    [schema.pickUpPoints, placed.pickUpPoint],
  ]);
  const order = sql.raw(placed.order);
  const placedRows: RowsOf = (table, owner) => {
    const relation = written.get(table);
    return relation ? sql`from ${sql.raw(relation)} as ${table}` : sql`from ${table} where ${owner} in (select id from ${order})`;
  };
  return {
    // The setting's name travels as a parameter of the statement, as a value (set_config takes it as text).
    before: sql`set_config(${placingSetting}, 'on', true)`,
    writes: sql.raw(
      text(
        sql`${storedRequest}, ${related.ctesFrom(placedRows)},
        placed_order_json as (
          insert into order_json (order_id, json)
          select orders.id, ${orderSql.json} from ${order} as orders ${related.joins}),
        placed_order_item_json as (
          insert into order_item_json (order_item_id, order_id, json)
          select order_items.id, order_items.order_id, ${orderItemSql.json} from ${sql.raw(placed.items)} as order_items)`,
      ),
    ),
    after: sql`set_config(${placingSetting}, '', true)`,
  };
}

/**
 * A PL/pgSQL function whose statements are planned once per connection, to rows by key through an index. A plan is
 * kept for the connection's life: made while a table was small, a sequential scan, or a join against a whole index,
 * would stay as the table grows (the create benchmark fell to half within a minute). So its statements name rows by
 * `= any(array)` or `= value`, which with sequential scans off leaves the planner an index lookup only. And a custom plan
 * for a one-element array looks cheaper than the generic plan: PL/pgSQL would plan again on every call, about half a
 * millisecond each time.
 */
function plpgsql(signature: string, body: string): string {
  if (body.includes('$stored$')) throw new Error('the body holds the quote of its function');
  return `create or replace function ${signature} language plpgsql set plan_cache_mode = force_generic_plan set enable_seqscan = off as $stored$ begin ${body} end $stored$`;
}

/**
 * What each trigger does, by table and event; `changed` is the new transition table, `previous` the old. Rows of other
 * tables are reached by a key per row (`= any`, a correlated count), never by a join: see `plpgsql`.
 */
type Event = 'insert' | 'update' | 'delete';
const orderIdsOf = {
  insert: 'select order_id from changed',
  update: 'select order_id from changed union select order_id from previous',
  delete: 'select order_id from previous',
};
const refreshOrdersOf = (ids: string) => `perform ${refreshOrders}(array(${ids}))`;
const triggers: { table: string; event: Event; statements: string[] }[] = [
  // A new order with items gets its JSON from the items' trigger (items are written after their order, by the same
  // statement at the soonest): written here too, it would be written twice.
  {
    table: 'orders',
    event: 'insert',
    statements: [
      refreshOrdersOf('select c.id from changed as c where (select count(*) from order_items as i where i.order_id = c.id) = 0'),
    ],
  },
  { table: 'orders', event: 'update', statements: [refreshOrdersOf('select id from changed')] },
  { table: 'orders', event: 'delete', statements: ['delete from order_json where order_id = any(array(select id from previous))'] },
  // An item's JSON is its own row's; an order's holds the ids of its items, attachments and pick-up point.
  ...(['insert', 'update'] as const).map((event) => ({
    table: 'order_items',
    event,
    statements: [`perform ${refreshOrderItems}(array(select id from changed))`, refreshOrdersOf(orderIdsOf[event])],
  })),
  {
    table: 'order_items',
    event: 'delete',
    statements: [
      'delete from order_item_json where order_item_id = any(array(select id from previous))',
      refreshOrdersOf(orderIdsOf.delete),
    ],
  },
  ...['order_attachments', 'pick_up_points'].flatMap((table) =>
    (['insert', 'update', 'delete'] as const).map((event) => ({ table, event, statements: [refreshOrdersOf(orderIdsOf[event])] })),
  ),
];

function triggerStatements(): string[] {
  return triggers.flatMap(({ table, event, statements }) => {
    const name = `shopapi_json_${table}_${event}`;
    const when = event === 'insert' && placedTables.has(table) ? ` when (${unlessPlacing})` : '';
    const tables = [event !== 'delete' && 'new table as changed', event !== 'insert' && 'old table as previous'].filter(Boolean);
    return [
      // A statement trigger fires for statements that wrote no row too (the create statement's pick-up point, mostly).
      plpgsql(
        `${name}() returns trigger`,
        `if not exists (select from ${event === 'delete' ? 'previous' : 'changed'}) then return null; end if; ${statements.map((statement) => `${statement};`).join(' ')} return null;`,
      ),
      `drop trigger if exists ${name} on ${table}`,
      `create trigger ${name} after ${event} on ${table} referencing ${tables.join(' ')} for each statement${when} execute function ${name}()`,
    ];
  });
}

/** The install, in order: functions, triggers, then every row's JSON written anew and any whose row is gone deleted. */
function installStatements(): string[] {
  return [
    ...refreshFunctions(),
    ...triggerStatements(),
    'delete from order_item_json where not exists (select from order_items where order_items.id = order_item_json.order_item_id)',
    'delete from order_json where not exists (select from orders where orders.id = order_json.order_id)',
    `select ${refreshOrderItems}(array(select id from order_items))`,
    `select ${refreshOrders}(array(select id from orders))`,
  ];
}

/** Any id that stays fixed for this project: serialises installs of processes starting together. */
const INSTALL_LOCK_ID = 724_311_906;
const versionOf = (statements: string[]) => `stored json ${createHash('sha256').update(statements.join(';\n')).digest('hex')}`;
const installedVersion = async (db: Db) =>
  (
    await queryRows<{ version: string | null }>(
      db,
      sql`select obj_description(to_regprocedure(${`${refreshOrders}(integer[])`}), 'pg_proc') as version`,
    )
  )[0]?.version;

/**
 * Makes the database keep the stored JSON of this server's representation: nothing to do when it does already (one
 * query), else the functions and triggers replaced and every order's and item's JSON rewritten, in one transaction.
 */
export async function installStoredJson(db: Db): Promise<void> {
  const statements = installStatements();
  const version = versionOf(statements);
  if ((await installedVersion(db)) === version) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${INSTALL_LOCK_ID})`);
    if ((await installedVersion(tx)) === version) return;
    for (const statement of statements) await tx.execute(sql.raw(statement));
    await tx.execute(sql.raw(`comment on function ${refreshOrders}(integer[]) is '${version}'`));
  });
}

/**
 * The orders and order items whose stored JSON is missing, differs from what the expressions write now, or outlived its
 * row: none, as long as every write went through the triggers. The test sandbox asks it of every database it closes.
 */
export async function documentsOutOfStep(db: Db): Promise<{ orders: number[]; orderItems: number[] }> {
  const related = orderRelated();
  const [orders, orderItems] = await Promise.all([
    queryRows<{ id: number }>(
      db,
      sql`with ${storedRequest}, page as (select id from orders), ${related.ctes}
        select orders.id from orders ${related.joins} left join order_json on order_json.order_id = orders.id
        where order_json.json is distinct from ${orderSql.json}
        union select order_id from order_json where not exists (select from orders where orders.id = order_json.order_id)
        order by id`,
    ),
    queryRows<{ id: number }>(
      db,
      sql`with ${storedRequest}
        select order_items.id from order_items left join order_item_json on order_item_json.order_item_id = order_items.id
        where order_item_json.json is distinct from ${orderItemSql.json} or order_item_json.order_id is distinct from order_items.order_id
        union select order_item_id from order_item_json where not exists (select from order_items where order_items.id = order_item_json.order_item_id)
        order by id`,
    ),
  ]);
  return { orders: orders.map((row) => row.id), orderItems: orderItems.map((row) => row.id) };
}
