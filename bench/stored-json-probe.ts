// A probe of issue 15's one lever not built: keeping each resource's JSON text stored, so a list page is a string_agg
// of stored text instead of JSON written by the page's statement. It fills two probe tables from a real page (100
// orders with their items, 200 seeded orders) and times both ways of answering the same bytes, side by side in one run.
// Not part of `npm run bench`; run it on PGlite in memory, or on a scratch PostgreSQL database (it creates two tables):
//   npx tsx bench/stored-json-probe.ts
//   DATABASE_URL=postgres://…/scratch npx tsx bench/stored-json-probe.ts
import { sql } from 'drizzle-orm';
import { openDatabase, queryText } from '../server/src/platform/db/index.ts';
import { orderPage } from '../server/src/modules/orders/service.ts';
import { orderPageText } from '../server/src/api/v3/representation/index.ts';
import { seedClient, seedOrders } from './lib.ts';

const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { inMemory: true });
const { db } = database;
try {
  const client = await seedClient(db);
  await seedOrders(db, client, 200, { shipments: true });
  const include = new Set(['orderItems']);
  const statementPage = () =>
    orderPageText(db, orderPage(db, client.clientId, {}, { cursor: 0, size: 100 }), include, 'http://127.0.0.1:8080');
  const page = await statementPage();
  type Order = { id: string; relationships: { orderItems: { data: { id: string }[] } } };
  const orders = JSON.parse(page.data) as Order[];
  const items = JSON.parse(page.included) as { id: string }[];
  const orderOfItem = new Map(orders.flatMap((o) => o.relationships.orderItems.data.map((i) => [i.id, Number(o.id)] as const)));
  await db.execute(sql`create table probe_order_json (id int primary key, client_id int not null, doc text not null)`);
  await db.execute(sql`create table probe_item_json (id int primary key, order_id int not null, doc text not null)`);
  for (const o of orders)
    await db.execute(sql`insert into probe_order_json values (${Number(o.id)}, ${client.clientId}, ${JSON.stringify(o)})`);
  for (const i of items)
    await db.execute(sql`insert into probe_item_json values (${Number(i.id)}, ${orderOfItem.get(i.id)}, ${JSON.stringify(i)})`);
  await db.execute(sql`create index on probe_item_json (order_id, id)`);
  const storedPage = () =>
    queryText(
      db,
      sql`with p as (select id, doc from probe_order_json where client_id = ${client.clientId} and id > 0 order by id limit 100)
        select '[' || string_agg(doc, ',' order by id) || ']',
          (select '[' || string_agg(i.doc, ',' order by i.order_id, i.id) || ']' from probe_item_json i where i.order_id in (select id from p))
        from p`,
    );
  const [[data, included]] = await storedPage();
  if (data !== page.data || included !== page.included) throw new Error('the stored page differs from the statement page');
  const perPage: Record<string, number> = {};
  for (const [name, run] of [
    ['statement', statementPage],
    ['stored', storedPage],
  ] as const) {
    for (let i = 0; i < 30; i++) await run();
    const started = performance.now();
    for (let i = 0; i < 300; i++) await run();
    perPage[name] = (performance.now() - started) / 300;
  }
  console.log(
    `${database.kind}: ${(page.data.length + page.included.length) / 1000} kB a page; statement ${perPage.statement.toFixed(2)} ms, ` +
      `stored text ${perPage.stored.toFixed(2)} ms a page (300 runs each after 30 to warm up, including the round trip from node)`,
  );
} finally {
  await database.close();
}
