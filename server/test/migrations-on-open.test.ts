// Opening a database runs drizzle's migrator only when the newest migration is not recorded (platform/db,
// migrationsRecorded): a start on an up-to-date database reads one row instead. What a migration changes must still
// come when its record is missing, on both databases.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { type Database, openDatabase, queryRows } from '../src/platform/db/index.ts';
import { dbKind, openTestDatabase } from './support/bed/database.ts';

/** The same database opened again and again, as successive starts open it. */
async function reopenable(): Promise<{ open: () => Promise<Database>; cleanup: () => void }> {
  if (dbKind() === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'migrations-on-open-'));
    return { open: () => openDatabase({ dataDir }), cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const { database, url } = await openTestDatabase(false);
  await database.close();
  return { open: () => openDatabase({ databaseUrl: url, poolSize: 2 }), cleanup: () => {} };
}

/** Whether the newest migration's function (0021_reserved_stock_function) exists. */
const newestFunction = async (database: Database) =>
  (
    await queryRows<{ found: string | null }>(
      database.db,
      sql`SELECT to_regprocedure('shopapi_reserved_stock(integer, text)')::text AS found`,
    )
  )[0]?.found ?? null;

it('leaves a database that recorded every migration as it is, and runs the newest migration again once its record is gone', async () => {
  const { open, cleanup } = await reopenable();
  try {
    let database = await open();
    expect(await newestFunction(database)).toBe('shopapi_reserved_stock(integer,text)');
    // The newest migration's function dropped behind the migrator's back, its record kept: the next start runs nothing.
    await database.db.execute(sql`DROP FUNCTION shopapi_reserved_stock(integer, text)`);
    await database.close();
    database = await open();
    expect(await newestFunction(database)).toBeNull();
    // Its record gone too, as on a database from before that migration: the next start runs it.
    await database.db.execute(
      sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`,
    );
    await database.close();
    database = await open();
    expect(await newestFunction(database)).toBe('shopapi_reserved_stock(integer,text)');
    await database.close();
  } finally {
    cleanup();
  }
});
