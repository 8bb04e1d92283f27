// Opens the database: embedded PGlite in a data folder by default, PostgreSQL when DATABASE_URL is set.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyPgColumn, PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export { schema };

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any id that stays fixed for this project: serialises migrations of processes starting together. */
const MIGRATION_LOCK_ID = 724_311_905;

export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string; inMemory?: boolean; poolSize?: number }): Promise<Database> {
  if (opts.databaseUrl) {
    const { Pool, Client } = (await import('pg')).default;
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    const db = drizzle({ client: pool, schema, casing: 'snake_case' });
    // The lock lives on its own connection, so the migrator can use the pool however small it is.
    const lock = new Client({ connectionString: opts.databaseUrl });
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await migrate(db, { migrationsFolder });
    } finally {
      await lock.end();
    }
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client;
  if (opts.inMemory) {
    client = await PGlite.create();
  } else {
    const dir = resolve(opts.dataDir ?? './.data', 'pglite');
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir);
  }
  const db = drizzle({ client, schema, casing: 'snake_case' });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
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

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** `column = any($1::int[])`: a list of integer ids as one parameter, not one bound parameter per id. */
export const anyOf = (column: AnyPgColumn, ids: number[]) => sql`${column} = any(${sql.param(ids)}::int[])`;
