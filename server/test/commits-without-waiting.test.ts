// withoutWaitingForDisk and its one-statement form withoutWaitingForDiskRow (platform/db): an upload's stage parts
// commit without waiting for the WAL to reach the disk. The setting must hold for that transaction's commit alone, on
// both databases: the connection goes back to the pool, and the next statement on it commits as usual.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type Database,
  type Db,
  openDatabase,
  queryRows,
  queryStatement,
  textStatement,
  withoutWaitingForDisk,
  withoutWaitingForDiskRow,
} from '../src/platform/db/index.ts';
import { dbKind, openTestDatabase } from './support/bed/database.ts';

let database: Database;

beforeAll(async () => {
  if (dbKind() === 'pglite') database = await openDatabase({ inMemory: true });
  else {
    const { database: opened, url } = await openTestDatabase(false);
    await opened.close();
    // One connection: what the transaction set, if anything leaked, would be seen by the statements after it.
    database = await openDatabase({ databaseUrl: url, poolSize: 1 });
  }
  // The test cluster runs with synchronous_commit off; this connection commits as a production one does.
  await database.db.execute(sql`SET synchronous_commit TO on`);
});
afterAll(() => database?.close());

const synchronousCommit = async (db: Db) =>
  (await queryRows<{ synchronous_commit: string }>(db, sql`SHOW synchronous_commit`))[0]?.synchronous_commit;

it('commits its transaction without waiting for the disk, and the connection commits as usual after it', async () => {
  const inside = await withoutWaitingForDisk(database.db, (tx) => synchronousCommit(tx));
  expect(inside).toBe('off');
  expect(await synchronousCommit(database.db)).toBe('on');
});

it('leaves the setting behind when its work fails, and the work is not committed', async () => {
  await expect(
    withoutWaitingForDisk(database.db, async (tx) => {
      await tx.execute(sql`CREATE TEMPORARY TABLE IF NOT EXISTS not_committed (id int)`);
      throw new Error('the work failed');
    }),
  ).rejects.toThrow('the work failed');
  expect(await synchronousCommit(database.db)).toBe('on');
  expect(
    (await queryRows<{ found: string | null }>(database.db, sql`SELECT to_regclass('not_committed')::text AS found`))[0]?.found,
  ).toBeNull();
});

it('sets the setting off for one statement prepared by name, which commits its write, and the next statement commits as usual', async () => {
  await database.db.execute(sql`CREATE TABLE IF NOT EXISTS written_alone (n int)`);
  const statement = textStatement(
    sql`insert into written_alone (n) select ${sql.placeholder('n')}::int from ${withoutWaitingForDiskRow}
      returning current_setting('synchronous_commit') as inside`,
  );
  expect(await queryStatement(database.db, statement, { n: 7 })).toEqual([['off']]);
  expect(await synchronousCommit(database.db)).toBe('on');
  const [row] = await queryRows<{ n: number }>(database.db, sql`SELECT n FROM written_alone`);
  expect(row?.n).toBe(7);
});
