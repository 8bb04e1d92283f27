// Opens the database: embedded PGlite in a data folder by default, PostgreSQL when DATABASE_URL is set.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { PgDialect, type AnyPgColumn, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { eq, is, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { Pool } from 'pg';
import type { PGlite as PGliteClient } from '@electric-sql/pglite';
import * as schema from './schema/index.ts';
import { EmbeddedStatements } from './embedded-statements.ts';
import { EmbeddedUpkeep, walStartParams, type UpkeepRound } from './embedded-upkeep.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/**
 * An open transaction. It is a Db too (everything that reads or writes takes either); a function that must share its
 * caller's transaction (the outbox, stored file parts) takes a Tx, so passing a bare handle does not compile.
 */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export { schema };

/**
 * The tenancy condition, written once: the rows of one client. Every query of a client's data filters with it, so
 * another client's row is as absent as a missing one (a 404).
 */
export const ownedBy = (table: { clientId: AnyPgColumn }, clientId: number): SQL => eq(table.clientId, clientId);

/** How the TypeScript names of the schema map to column names; SQL rendered outside a handle uses it too. */
export const casing = 'snake_case';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (a NOTIFY inside a transaction arrives when it
   * commits, and on PostgreSQL from every process on the database). Resolves once listening; the function it gives
   * stops it.
   */
  listen(channel: string, onNotify: (payload: string) => void, onError: (error: unknown) => void): Promise<() => Promise<void>>;
  /**
   * The embedded database's upkeep (embedded-upkeep.ts: vacuum and checkpoints, which PGlite has no processes for),
   * every UPKEEP_INTERVAL_MS until stopped; PostgreSQL does its own, so there it does nothing.
   */
  startUpkeep(onError: (error: unknown) => void): { stop(): Promise<void> };
  /** One round of that upkeep now; undefined on PostgreSQL. */
  upkeep(): Promise<UpkeepRound | undefined>;
  /**
   * Where a connection the pool held idle that PostgreSQL ended (a restart, pg_terminate_backend, an idle timeout, the
   * network) is reported, in place of a warning on the console. The pool drops it and opens another when a query needs
   * one; a query that was running on a connection that ended fails as it always did. Never called on PGlite.
   */
  reportLostConnections(report: (error: Error) => void): void;
  close(): Promise<void>;
}

/** Channel names are written into LISTEN, which takes no parameters: only plain identifiers are accepted. */
function checkedChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return channel;
}

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Whether the database recorded the newest migration of the folder: drizzle's migrator runs each migration newer than
 * the newest it recorded, so there is nothing to run. One read where the migrator creates its schema and table if
 * missing and opens a transaction: on the embedded database, the first statements of a start warm the catalogs, and the
 * migrator's took about 50 ms more of every start than this read. A database it cannot read (new, or older than the
 * migrator's table) is not up to date: the migrator runs.
 */
async function migrationsRecorded(db: Db): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  try {
    const rows = await queryRows<{ recorded: string | null }>(
      db,
      sql`SELECT max(created_at)::text AS recorded FROM drizzle.__drizzle_migrations`,
    );
    return Number(rows[0]?.recorded ?? Number.NaN) >= newest;
  } catch {
    return false;
  }
}

/**
 * The planner's price of a random page read, for the server's own connections on both databases: 1.1, as for SSD or
 * memory (PostgreSQL's default of 4 is for spinning disks). A plan is kept for a connection's life, and PostgreSQL's
 * foreign key checks are plans too: at 4, one made while a table fitted in two pages is a sequential scan, and stays one
 * as the table grows. Under the create benchmark, after the seed's ANALYZE of 200 orders, each item's check of its
 * order scanned every order, and those checks took more than half of the create statement's time (pg_stat_statements,
 * bench/RESULTS.md, findings). At 1.1 an index lookup wins from the second page on.
 */
const plannerSettings = ['-c', 'random_page_cost=1.1'];

/**
 * Connections a process holds to PostgreSQL at most (DATABASE_POOL_SIZE). Four, not node-postgres's ten: PostgreSQL
 * runs each connection's statements in a process of its own, and ten of them busy on a machine of two cores wait on
 * each other's locks and are switched in and out. Under the create benchmark (ten connections of the load generator,
 * fsync on) PostgreSQL spent about a tenth less CPU per order with four connections than with ten, at the same rate of
 * orders, while the server's process spent about a tenth more, waiting for connections (bench/compare-env.ts, six
 * rounds in rotated order: bench/RESULTS.md, findings). PostgreSQL is what several processes share. Calls beyond the
 * pool wait for a connection in the order they asked.
 */
export const defaultPoolSize = 4;

/** Any id that stays fixed for this project: serialises migrations of processes starting together. */
const MIGRATION_LOCK_ID = 724_311_905;

export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  inMemory?: boolean;
  poolSize?: number;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const { Pool, Client } = (await import('pg')).default;
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? defaultPoolSize,
      options: plannerSettings.join(' '),
    });
    // An idle connection that PostgreSQL ended is an 'error' event of the pool; without a listener it was an uncaught
    // exception that ended the process, and with it every client's requests in flight.
    let reportLost = (error: Error) =>
      console.warn(`PostgreSQL ended an idle connection of the pool (${error.message}); the pool opens another when needed.`);
    pool.on('error', (error) => reportLost(error));
    const db = drizzle({ client: pool, schema, casing });
    // Read before the lock: another process migrating has not committed, so its migrations show as not recorded yet.
    if (!(await migrationsRecorded(db as unknown as Db))) {
      // The lock lives on its own connection, so the migrator can use the pool however small it is.
      const lock = new Client({ connectionString: opts.databaseUrl });
      await lock.connect();
      try {
        await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migrate(db, { migrationsFolder });
      } finally {
        await lock.end();
      }
    }
    pools.set(db as unknown as Db, pool);
    const listeners = new Set<InstanceType<typeof Client>>();
    // A connection of its own per listener: a pooled one would be handed to queries with LISTEN still on it.
    const listen: Database['listen'] = async (channel, onNotify, onError) => {
      const listener = new Client({ connectionString: opts.databaseUrl });
      listener.on('notification', (message) => onNotify(message.payload ?? ''));
      listener.on('error', onError);
      await listener.connect();
      await listener.query(`LISTEN ${checkedChannel(channel)}`);
      listeners.add(listener);
      return async () => {
        if (listeners.delete(listener)) await listener.end();
      };
    };
    const close = async () => {
      await Promise.all([...listeners].map((l) => l.end()));
      listeners.clear();
      await pool.end();
    };
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      listen,
      startUpkeep: () => ({ stop: async () => {} }),
      upkeep: async () => undefined,
      reportLostConnections: (report) => {
        reportLost = report;
      },
      close,
    };
  }
  const { PGlite, protocol, parse } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // PostgreSQL's default of 128 MB shared buffers is memory the WASM heap sets up and touches at every start: about 130
  // MB of the process's resident memory and a second of CPU before the first query. A sandbox's working set fits in
  // 16 MB; pages beyond it are read back from the data folder through the operating system's cache.
  // PGlite runs with fsync off (-F, one of its default start parameters): a killed process loses nothing it committed
  // (the writes are in the operating system's cache), a power cut can; docs/OPERATIONS.md says so. Production-like
  // deployments use PostgreSQL (DATABASE_URL), which stays fully durable.
  const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', ...plannerSettings, ...walStartParams];
  let client: PGliteClient;
  if (opts.inMemory) {
    client = await PGlite.create({ startParams });
  } else {
    const dir = resolve(opts.dataDir ?? './.data', 'pglite');
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir, { startParams });
  }
  const statements = new EmbeddedStatements(client, protocol.serialize, parse.parseResults);
  // drizzle's queries run prepared by name too (embedded-statements.ts): PGlite's own query() costs six calls a statement.
  const db = drizzle({ client: statements.drizzleClient() as unknown as PGliteClient, schema, casing });
  if (!(await migrationsRecorded(db as unknown as Db))) await migrate(db, { migrationsFolder });
  embedded.set(db as unknown as Db, statements);
  const upkeep = new EmbeddedUpkeep(client);
  const listen: Database['listen'] = async (channel, onNotify) => {
    const stop = await client.listen(checkedChannel(channel), onNotify);
    return async () => {
      if (!client.closed) await stop();
    };
  };
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    listen,
    startUpkeep: (onError) => upkeep.start(onError),
    upkeep: () => upkeep.round(),
    reportLostConnections: () => {},
    close: () => client.close(),
  };
}

/** The handles opened on PostgreSQL (node-postgres), with their pool: their statements can be prepared by name. */
const pools = new WeakMap<Db, Pool>();
/** The handles opened on PGlite (not its transactions): their text rows (queryText) run prepared by name too. */
const embedded = new WeakMap<Db, EmbeddedStatements>();
/** Renders SQL to text and parameters outside a database handle, with the handles' casing. */
export const dialect = new PgDialect({ casing });

/**
 * Runs one statement and returns its rows. On PostgreSQL it runs as a named prepared statement, so each connection
 * parses and plans a statement text once (the name is a hash of the text; the hot list pages have a few texts, one per
 * combination of filters and includes). PGlite, the embedded developer database, and transactions run it as it is.
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const { sql: text, params } = dialect.sqlToQuery(query);
  return (await pool.query({ name: statementName(text), text, values: params })).rows as T[];
}

const statementName = (text: string) => `s${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
/** node-postgres leaves every column as the server's text. */
const unparsed = { getTypeParser: () => (value: string) => value };

/**
 * Runs one statement and returns its rows as arrays of columns in PostgreSQL's text form, unparsed (null for NULL):
 * for statements that write their answer as text (the v3 list pages' JSON). Prepared by name on PostgreSQL and on
 * PGlite, so a statement text is planned once per connection; in a transaction it runs as it is.
 */
export async function queryText(db: Db, query: SQL): Promise<(string | null)[][]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const rows = await preparedTextRows(db, statementName(text), text, params);
  if (rows) return rows;
  const result = (await db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows.map((row) => Object.values(row).map((value) => (value === null ? null : String(value))));
}

/** The rows of a statement run prepared by name; undefined on a handle that cannot (a transaction). */
async function preparedTextRows(db: Db, name: string, text: string, params: unknown[]) {
  const pool = pools.get(db);
  if (pool) return (await pool.query({ name, text, values: params, rowMode: 'array', types: unparsed })).rows as (string | null)[][];
  return embedded.get(db)?.textRows(name, text, params);
}

/**
 * A statement rendered to text once, for a hot path whose statement text never changes: its values are named
 * placeholders (`sql.placeholder('name')`), filled on each run by queryStatement, so drizzle does not render it on
 * every call (for the order statement that was about 2.5 % of the server's busy time under the create load).
 */
export interface TextStatement {
  readonly name: string;
  readonly text: string;
  /** Per parameter: the placeholder's name, or the constant drizzle bound while rendering. */
  readonly params: readonly ({ placeholder: string } | { constant: unknown })[];
}

export function textStatement(query: SQL): TextStatement {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return {
    name: statementName(text),
    text,
    params: params.map((param) => (is(param, Placeholder) ? { placeholder: param.name } : { constant: param })),
  };
}

/**
 * Runs a TextStatement with its placeholders' values, prepared by name on PostgreSQL and on PGlite, and returns its
 * rows as queryText does. A value missing for a placeholder, or a handle that cannot prepare (a transaction), throws.
 */
export async function queryStatement(db: Db, statement: TextStatement, values: Record<string, unknown>): Promise<(string | null)[][]> {
  const params = statement.params.map((param) => {
    if ('constant' in param) return param.constant;
    if (!(param.placeholder in values)) throw new Error(`no value for the placeholder ${param.placeholder}`);
    return values[param.placeholder];
  });
  const rows = await preparedTextRows(db, statement.name, statement.text, params);
  if (!rows) throw new Error('a text statement runs prepared: on a database handle (not a transaction), with values that have a text form');
  return rows;
}

/**
 * A `bytea[]` value in PostgreSQL's binary form, for a TextStatement placeholder cast `::bytea[]`: it travels as bytes
 * (node-postgres and PGlite send a buffer as a binary parameter) and the database reads it without parsing text. Bodies
 * of the request log went inside the statement's JSON as base64 before, a fifth to a third of the insert's time.
 */
export function byteaArray(values: (Uint8Array | null)[]): Buffer {
  if (!values.length) throw new Error('byteaArray: at least one element');
  const header = 20;
  const out = Buffer.allocUnsafe(header + values.reduce((size, value) => size + 4 + (value?.length ?? 0), 0));
  out.writeInt32BE(1, 0); // one dimension
  out.writeInt32BE(values.includes(null) ? 1 : 0, 4);
  out.writeInt32BE(17, 8); // element type: bytea
  out.writeInt32BE(values.length, 12);
  out.writeInt32BE(1, 16); // lower bound
  let offset = header;
  for (const value of values) {
    out.writeInt32BE(value === null ? -1 : value.length, offset);
    offset += 4;
    if (value) {
      out.set(value, offset);
      offset += value.length;
    }
  }
  return out;
}

/** True when the error is a unique-constraint violation (SQLSTATE 23505), optionally on one constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined;
  while (e) {
    if (e.code === '23505') return !constraint || e.constraint === constraint || String((e as Error).message ?? '').includes(constraint);
    e = e.cause as typeof e;
  }
  return false;
}

/** A row refers to one that is not there (any more): a settings entry removed while an order was being written. */
export function isForeignKeyViolation(error: unknown): boolean {
  let e = error as { code?: string; cause?: unknown } | undefined;
  while (e) {
    if (e.code === '23503') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * Runs `work` in a transaction whose commit does not wait for PostgreSQL to write its WAL to disk (synchronous_commit
 * off for this transaction alone). Only for writes that nothing acknowledges by themselves: a later transaction that
 * commits as usual writes the WAL to disk up to its own commit, theirs included, and a crash before it loses only what
 * the next start cleans up anyway (an upload's stage). On a handle, never a transaction: in a caller's transaction the
 * setting would hold until the caller's commit. Each 256 KiB part of an upload committed as usual waited for the disk,
 * holding one of the pool's connections meanwhile. The embedded database runs without fsync; it is a transaction there.
 */
export function withoutWaitingForDisk<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL synchronous_commit TO OFF`);
    return work(tx);
  });
}

/**
 * withoutWaitingForDisk for one statement run on its own, as its own transaction (queryStatement on a handle, prepared
 * by name, which a transaction cannot run): a relation of one row to select the statement's values from, which sets
 * synchronous_commit off for that transaction alone. PostgreSQL writes the commit record before the transaction's
 * settings end, so the commit does not wait for the disk, and the connection's next statement waits as usual.
 */
export const withoutWaitingForDiskRow = sql`(select set_config('synchronous_commit', 'off', true)) as without_waiting_for_disk`;

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** `column = any($1::int[])`: a list of integer ids as one parameter, not one bound parameter per id. */
export const anyOf = (column: AnyPgColumn | SQL, ids: number[]) => sql`${column} = any(${sql.param(ids)}::int[])`;
