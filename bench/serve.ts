// The benchmark's own server process: the real app (buildApp) plus baseline routes that send a pre-built payload of the
// same size through the same response schema, so route/baseline isolates auth, database and resource mapping (the
// create baseline also writes the same rows, in one statement).
// Configured by the environment: DATABASE_URL (else PGlite in memory), BENCH_SEED_ORDERS (seed a new client with that
// many orders and shipments), or BENCH_CLIENT (a client seeded by the orchestrator, as JSON). Reports to its parent over IPC.
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { operationById } from '@shopapi/contract';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase, queryRows } from '../server/src/platform/db/index.ts';
import { JSONAPI, orderDocument, seedClient, seedOrders, type BenchClient, type ServerInfo } from './lib.ts';

const config = loadConfig({
  logLevel: 'silent',
  port: 0,
  host: '127.0.0.1',
  rateLimitPerHour: 1_000_000_000,
  publicUrl: 'http://127.0.0.1',
});
// The pool the server would have (DATABASE_POOL_SIZE, else its default).
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  inMemory: !process.env.DATABASE_URL,
  poolSize: config.databasePoolSize,
});
let client: BenchClient;
if (process.env.BENCH_CLIENT) client = JSON.parse(process.env.BENCH_CLIENT) as BenchClient;
else {
  client = await seedClient(database.db);
  await seedOrders(database.db, client, Number(process.env.BENCH_SEED_ORDERS ?? 200), { shipments: true });
}

async function tokenOf(app: FastifyInstance): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username: client.username, password: client.password }).toString(),
  });
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

// The payloads the baselines send: the real answers, taken from a first instance of the app.
const baselines = [
  { path: '/bench/baseline/orders', operationId: 'listOrders', real: '/v3/orders?include=orderItems&page[size]=100' },
  { path: '/bench/baseline/shipments', operationId: 'listShipments', real: '/v3/shipments?include=shipmentItems&page[size]=100' },
];
const payloads = new Map<string, unknown>();
let sampleOrderId = 0;
/** A real answer of POST /v3/orders for the benchmark's document: what the create baseline sends. */
let createdOrder: { data: { id: number } } | undefined;
{
  const probe = await buildApp({ db: database.db, config, logger: false });
  const token = await tokenOf(probe);
  for (const b of baselines) {
    const answer = await probe.inject({ method: 'GET', url: b.real, headers: { authorization: `Bearer ${token}`, accept: JSONAPI } });
    if (answer.statusCode !== 200) throw new Error(`${b.real}: ${answer.statusCode} ${answer.body}`);
    const document = JSON.parse(answer.body) as { data: { id: number }[] };
    payloads.set(b.path, document);
    if (b.operationId === 'listOrders') sampleOrderId = document.data[Math.floor(document.data.length / 2)]?.id ?? 0;
  }
  const created = await probe.inject({
    method: 'POST',
    url: '/v3/orders',
    headers: { authorization: `Bearer ${token}`, accept: JSONAPI, 'content-type': JSONAPI },
    payload: JSON.stringify(orderDocument(client, `BENCH-PROBE-${Date.now().toString(36)}`)),
  });
  if (created.statusCode !== 201) throw new Error(`POST /v3/orders: ${created.statusCode} ${created.body}`);
  createdOrder = JSON.parse(created.body);
  await probe.close();
}

type OrderBody = ReturnType<typeof orderDocument>;
type AddressAttributes = Record<'firstName' | 'lastName' | 'street1' | 'houseNumber' | 'postcode' | 'city' | 'countryCode', string>;

/**
 * The rows POST /v3/orders writes for the benchmark's document (two addresses, the order, five items), in one statement
 * with multi-row VALUES: the floor a create can reach on this database. Run as a named prepared statement on PostgreSQL.
 */
function baselineInsert(body: OrderBody) {
  const [delivery, billing] = body.included.slice(0, 2).map((r) => r.attributes as unknown as AddressAttributes);
  const items = body.included.slice(2).map((r) => r.attributes as unknown as { sku: string; quantity: number; price: number });
  const { externalOrderNumber, locale, email, reference } = body.data.attributes;
  const address = (a: AddressAttributes, n: number) =>
    sql`(${n}::int, ${a.firstName}::text, ${a.lastName}::text, ${a.street1}::text, ${a.houseNumber}::text, ${a.postcode}::text, ${a.city}::text, ${a.countryCode}::text)`;
  const item = (i: { sku: string; quantity: number; price: number }) =>
    sql`(${client.productIds[client.skus.indexOf(i.sku)]}::int, ${i.sku}::text, ${i.quantity}::int, ${i.price}::numeric)`;
  return sql`with new_order as (select nextval('orders_id_seq')::int as id),
    address as (
      insert into addresses (client_id, order_id, first_name, last_name, street1, house_number, postcode, city, country_code)
      select ${client.clientId}::int, new_order.id, v.first_name, v.last_name, v.street1, v.house_number, v.postcode, v.city, v.country_code
      from new_order, (values ${address(delivery, 1)}, ${address(billing, 2)}) as v(n, first_name, last_name, street1, house_number, postcode, city, country_code)
      order by v.n
      returning id),
    inserted as (
      insert into orders (id, client_id, external_order_number, locale, email, reference, currency, order_type_id,
        preferred_shipping_method_id, delivery_address_id, billing_address_id, metadata)
      overriding system value
      select new_order.id, ${client.clientId}::int, ${externalOrderNumber}::text, ${locale}::text, ${email}::text, ${reference}::text, 'EUR',
        ${client.orderTypeId}::int, ${client.shippingMethodId}::int, (select min(id) from address), (select max(id) from address), '{}'::jsonb
      from new_order
      returning id),
    item as (
      insert into order_items (client_id, order_id, product_id, sku, quantity, ordered_quantity, price, vat, name, metadata)
      select ${client.clientId}::int, inserted.id, v.product_id, v.sku, v.quantity, v.quantity, v.price, 0, 'Bench product', '{}'::jsonb
      from inserted, (values ${sql.join(items.map(item), sql`, `)}) as v(product_id, sku, quantity, price))
    select id from inserted`;
}

const app = await buildApp({ db: database.db, config, logger: false });
for (const b of baselines) {
  const op = operationById(b.operationId);
  const payload = payloads.get(b.path);
  app.get(b.path, { schema: { response: { 200: op.responses[op.success]!.schema! } } }, async (_request, reply) => {
    reply.type(JSONAPI);
    return payload;
  });
}
{
  const op = operationById('createOrder');
  app.post('/bench/baseline/orders', { schema: { response: { 201: op.responses[op.success]!.schema! } } }, async (request, reply) => {
    const [row] = await queryRows<{ id: number }>(database.db, baselineInsert(request.body as OrderBody));
    reply.code(201).type(JSONAPI);
    return { ...createdOrder!, data: { ...createdOrder!.data, id: row.id } };
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const url = `http://127.0.0.1:${port}`;
const info: ServerInfo = { port, url, client, token: await tokenOf(app), sampleOrderId };
process.send?.(info);

const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('disconnect', () => void shutdown());
