// PostgreSQL may end a connection the pool holds idle (a restart, pg_terminate_backend, an idle timeout, the network).
// node-postgres then emits 'error' on the pool, and with no listener that was an uncaught exception: the process ended,
// with every client's requests in flight. (PostgreSQL only: PGlite has no connections.)
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from './support/bed/database.ts';
import { type Database, openDatabase, queryRows } from '../src/platform/db/index.ts';

let testDatabase: Awaited<ReturnType<typeof openTestDatabase>>;
let database: Database;

beforeAll(async () => {
  testDatabase = await openTestDatabase(false);
  database = await openDatabase({ databaseUrl: testDatabase.url!, poolSize: 3 });
});

afterAll(async () => {
  await database?.close();
  await testDatabase?.database.close();
});

describe('a connection of the pool that PostgreSQL ends while idle', () => {
  it('is reported, and the next queries run on new connections', async () => {
    const lost: Error[] = [];
    database.reportLostConnections((error) => lost.push(error));
    // Three queries at once leave three idle connections in the pool.
    const pids = await Promise.all(
      [1, 2, 3].map(
        async () => (await queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid, pg_sleep(0.05)`))[0].pid,
      ),
    );
    expect(new Set(pids).size).toBe(3);

    const admin = new pg.Client({ connectionString: testDatabase.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ended: boolean }>('select pg_terminate_backend(pid) as ended from unnest($1::int[]) as pid', [
        pids,
      ]);
      expect(rows.map((row) => row.ended)).toEqual([true, true, true]);
    } finally {
      await admin.end();
    }

    await vi.waitFor(() => expect(lost).toHaveLength(3), { timeout: 10_000 });
    expect(lost[0].message).toMatch(/terminating connection/);
    const after = await Promise.all(
      [1, 2, 3].map(
        async () => (await queryRows<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid, pg_sleep(0.05)`))[0].pid,
      ),
    );
    expect(after.filter((pid) => pids.includes(pid))).toEqual([]);
  });
});
