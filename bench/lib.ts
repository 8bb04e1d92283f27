// Shared pieces of the API benchmarks: seeding rows with SQL, the benchmark's server process, autocannon runs.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { schema, type Db } from '../server/src/platform/db/index.ts';
import { createClient } from '../server/src/modules/clients/service.ts';
import type { Cluster } from '../server/test/support/postgres-cluster.ts';

export const repository = path.resolve(import.meta.dirname, '..');
/** Seconds of every timed load run; BENCH_SECONDS shortens it for a smoke run. */
export const seconds = Number(process.env.BENCH_SECONDS ?? 10);
export const JSONAPI = 'application/vnd.api+json';

export interface BenchClient {
  clientId: number;
  username: string;
  password: string;
  orderTypeId: number;
  shippingMethodId: number;
  warehouse: string;
  skus: string[];
  productIds: number[];
}

export async function seedClient(db: Db, username = `bench_${Date.now().toString(36)}`): Promise<BenchClient> {
  const password = 'bench-password-1';
  const client = await createClient(db, { username, password });
  const skus = [1, 2, 3, 4, 5].map((n) => `BENCH-SKU-${n}`);
  const products = await db
    .insert(schema.products)
    .values(skus.map((sku) => ({ clientId: client.id, sku, name: `Bench product ${sku}` })))
    .returning({ id: schema.products.id });
  const rows = (q: unknown) => (q as { rows?: Record<string, unknown>[] }).rows ?? (q as Record<string, unknown>[]);
  const [orderType] = rows(await db.execute(sql`select id from order_types where client_id = ${client.id} order by id limit 1`));
  const [method] = rows(
    await db.execute(sql`select id from shipping_methods where client_id = ${client.id} and kind = 'main' order by id limit 1`),
  );
  return {
    clientId: client.id,
    username,
    password,
    orderTypeId: Number(orderType.id),
    shippingMethodId: Number(method.id),
    warehouse: client.defaultWarehouse,
    skus,
    productIds: products.map((p) => p.id),
  };
}

export const rowsOf = (result: unknown): Record<string, unknown>[] =>
  (result as { rows?: Record<string, unknown>[] }).rows ?? (result as Record<string, unknown>[]);

async function maxId(db: Db, table: string): Promise<number> {
  const [row] = rowsOf(await db.execute(sql.raw(`select coalesce(max(id), 0) as m from ${table}`)));
  return Number(row.m);
}

async function resetIdentity(db: Db, table: string) {
  await db.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select greatest(max(id), 1) from ${table}))`));
}

/**
 * Adds `count` orders (two addresses, two items each) and, when asked, one shipment with two items per order,
 * with generate_series in a few statements: ids are taken past the current maximum, then the identities are moved on.
 */
export async function seedOrders(db: Db, c: BenchClient, count: number, opts: { shipments?: boolean; analyze?: boolean } = {}) {
  const o = await maxId(db, 'orders');
  const a = await maxId(db, 'addresses');
  const i = await maxId(db, 'order_items');
  const [p1, p2] = c.productIds;
  await db.execute(
    sql.raw(`insert into addresses (id, client_id, order_id, first_name, last_name, street1, house_number, postcode, city, country_code)
    overriding system value
    select ${a} + g, ${c.clientId}, ${o} + (g + 1) / 2, 'Jane', 'Jansen', 'Kerkstraat', (g % 200)::text, '4701AB', 'Roosendaal', 'NL'
    from generate_series(1, ${2 * count}) g`),
  );
  await db.execute(
    sql.raw(`insert into orders (id, client_id, external_order_number, locale, email, currency, order_type_id, preferred_shipping_method_id,
      delivery_address_id, billing_address_id, ordered_on, reference, metadata)
    overriding system value
    select ${o} + g, ${c.clientId}, 'BENCH-' || (${o} + g), 'nl-NL', 'noreply@example.com', 'EUR', ${c.orderTypeId}, ${c.shippingMethodId},
      ${a} + 2 * g - 1, ${a} + 2 * g, now(), 'REF-' || g, '{}'::jsonb
    from generate_series(1, ${count}) g`),
  );
  await db.execute(
    sql.raw(`insert into order_items (id, client_id, order_id, product_id, sku, quantity, ordered_quantity, price, vat, name, metadata)
    overriding system value
    select ${i} + g, ${c.clientId}, ${o} + (g + 1) / 2, case when g % 2 = 1 then ${p1} else ${p2} end,
      case when g % 2 = 1 then '${c.skus[0]}' else '${c.skus[1]}' end, 1 + g % 3, 1 + g % 3, 9.95, 21, 'Bench product', '{}'::jsonb
    from generate_series(1, ${2 * count}) g`),
  );
  for (const table of ['addresses', 'orders', 'order_items']) await resetIdentity(db, table);
  if (opts.shipments) {
    const s = await maxId(db, 'shipments');
    const si = await maxId(db, 'shipment_items');
    await db.execute(
      sql.raw(`insert into shipments (id, client_id, order_id, order_type_id, shipping_method_id, status, warehouse_code, shipped_on, weight, tracking, colli)
      overriding system value
      select ${s} + g, ${c.clientId}, ${o} + g, ${c.orderTypeId}, ${c.shippingMethodId}, 'SHIPPED', '${c.warehouse}', now(), 1200,
        '{"carrier":"PostNL","number":"3STEST","stage":null,"status":null,"url":null}'::jsonb,
        jsonb_build_array(jsonb_build_object('number', 1, 'parcelNumber', '3STEST' || g, 'trackingUrl', null))
      from generate_series(1, ${count}) g`),
    );
    await db.execute(
      sql.raw(`insert into shipment_items (id, client_id, shipment_id, order_item_id, product_id, sku, quantity)
      overriding system value
      select ${si} + g, ${c.clientId}, ${s} + (g + 1) / 2, ${i} + g, case when g % 2 = 1 then ${p1} else ${p2} end,
        case when g % 2 = 1 then '${c.skus[0]}' else '${c.skus[1]}' end, 1 + g % 3
      from generate_series(1, ${2 * count}) g`),
    );
    for (const table of ['shipments', 'shipment_items']) await resetIdentity(db, table);
  }
  if (opts.analyze !== false) await db.execute(sql`analyze`);
}

/** A POST /v3/orders document: five items, a delivery and a billing address. */
export function orderDocument(c: BenchClient, externalOrderNumber: string) {
  const address = {
    firstName: 'Jane',
    lastName: 'Jansen',
    street1: 'Kerkstraat',
    houseNumber: '12',
    postcode: '4701AB',
    city: 'Roosendaal',
    countryCode: 'NL',
  };
  return {
    data: {
      type: 'order',
      attributes: { externalOrderNumber, locale: 'nl-NL', email: 'jane@example.com', reference: 'bench' },
      relationships: {
        orderType: { data: { type: 'orderType', id: c.orderTypeId } },
        deliveryAddress: { data: { type: 'address', id: 'delivery' } },
        billingAddress: { data: { type: 'address', id: 'billing' } },
      },
    },
    included: [
      { type: 'address', id: 'delivery', attributes: address },
      { type: 'address', id: 'billing', attributes: { ...address, street1: 'Markt', houseNumber: '1' } },
      ...c.skus.map((sku, n) => ({ type: 'orderItem', attributes: { sku, quantity: n + 1, price: 10 + n } })),
    ],
  };
}

export async function tokenFor(baseUrl: string, c: Pick<BenchClient, 'username' | 'password'>): Promise<string> {
  const answer = await fetch(`${baseUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: c.username, password: c.password }).toString(),
  });
  if (answer.status !== 200) throw new Error(`token: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}

export interface LoadResult {
  command: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  bytesPerRequest: number;
}

export interface LoadOptions {
  url: string;
  label: string;
  token?: string;
  method?: 'GET' | 'POST';
  connections?: number;
  /** A fresh body per request (autocannon's setupRequest). */
  body?: () => string;
  onResponse?: (status: number, body: string) => void;
  duration?: number;
}

/** One autocannon run of a fixed number of seconds; stops by itself. */
export async function load(opts: LoadOptions): Promise<LoadResult> {
  const connections = opts.connections ?? 10;
  const duration = opts.duration ?? seconds;
  const headers: Record<string, string> = { accept: JSONAPI, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) };
  if (opts.body) headers['content-type'] = JSONAPI;
  const makeBody = opts.body;
  const onResponse = opts.onResponse;
  const result = await autocannon({
    url: opts.url,
    connections,
    duration,
    method: opts.method ?? 'GET',
    headers,
    requests: [
      {
        ...(makeBody ? { setupRequest: (request: autocannon.Request) => ({ ...request, body: makeBody() }) } : {}),
        ...(onResponse ? { onResponse: (status: number, body: string) => onResponse(status, body) } : {}),
      },
    ],
  });
  const parsed = new URL(opts.url);
  return {
    command: `autocannon -c ${connections} -d ${duration}${opts.method === 'POST' ? ' -m POST' : ''} '${parsed.pathname}${parsed.search}'`,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerRequest: result.requests.total ? Math.round(result.throughput.total / result.requests.total) : 0,
  };
}

export interface ServerInfo {
  port: number;
  url: string;
  client: BenchClient;
  token: string;
  sampleOrderId: number;
}

export interface BenchServer extends ServerInfo {
  /** The server's process, for reading its CPU time. */
  pid: number;
  stop(): Promise<void>;
}

let createsSent = 0;
/** A new database of the probe's throwaway cluster (the probes run on their own: bench/compare-env.ts and others): its URL. */
export async function probeDatabase(cluster: Cluster, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url(name);
}

/**
 * `POST /v3/orders` against a benchmark server for `duration` seconds with 10 connections, each request a new
 * externalOrderNumber: the create load of the probes run on their own (bench/compare-env.ts, bench/stored-json-cost.ts).
 */
export function createLoad(server: BenchServer, duration: number): Promise<LoadResult> {
  const prefix = `PROBE-${Date.now().toString(36)}`;
  return load({
    url: `${server.url}/v3/orders`,
    method: 'POST',
    token: server.token,
    label: 'create',
    duration,
    body: () => JSON.stringify(orderDocument(server.client, `${prefix}-${++createsSent}`)),
  });
}

/** createLoad's requests a second, rounded. */
export async function createRate(server: BenchServer, duration: number): Promise<number> {
  return Math.round((await createLoad(server, duration)).requestsPerSecond);
}

/** Starts bench/serve.ts in its own process, so the load generator and the server do not share an event loop. */
export async function startBenchServer(env: Record<string, string>, execArgv: string[] = []): Promise<BenchServer> {
  const child: ChildProcess = fork(path.join(repository, 'bench', 'serve.ts'), [], {
    cwd: repository,
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench server did not start within 300 s')), 300_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as ServerInfo);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench server exited with ${code}`));
    });
  });
  return {
    ...info,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function packageVersion(name: string): string {
  for (const base of [repository, path.join(repository, 'server')]) {
    try {
      return (JSON.parse(readFileSync(path.join(base, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      // not installed at this level
    }
  }
  return '?';
}

export function machine(postgresVersion: string): string {
  const cpu = cpus();
  const versions = ['fastify', 'drizzle-orm', 'pg', '@electric-sql/pglite', 'autocannon', 'tsx']
    .map((name) => `${name} ${packageVersion(name)}`)
    .join(', ');
  return [
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory; shared with other work, so figures move by ±15 % between runs`,
    `- Node ${process.version}; ${postgresVersion}`,
    `- Packages: ${versions}`,
  ].join('\n');
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
export const rps = (value: number) => Math.round(value).toLocaleString('en-US');
export const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : 'n/a');
export const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
