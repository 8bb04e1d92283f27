// Stored files take about their own size on disk, not twice it (issue 29, item 4). On the embedded database, which runs
// PostgreSQL without its background processes, the upkeep (platform/db/embedded-upkeep.ts) checkpoints, so the WAL does
// not grow beside the tables, and vacuums, so a replaced image's space is used again; PostgreSQL does both itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/platform/db/index.ts';
import { dbKind, startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, uniqueNumber } from './support/fixtures.ts';
import { largePng } from './support/uploads.ts';

const MiB = 1024 * 1024;
/** PGlite's max_wal_size (embedded-upkeep.ts), and the segment being written beside it. */
const WAL_KEPT_MAX = 64 * MiB + 16 * MiB;

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  // PGlite in a data folder, as `npm start` runs it.
  sb = await startSandbox({ storageQuotaBytes: 0 }, { onDisk: true });
  client = await sb.newClient();
});
afterAll(() => sb.close());

async function sizes() {
  const [row] = await queryRows<{ database: string; wal: string; fileParts: string }>(
    sb.database.db,
    sql`select pg_database_size(current_database())::text as database, (select sum(size) from pg_ls_waldir())::text as wal,
      pg_total_relation_size('file_parts')::text as "fileParts"`,
  );
  return { database: Number(row.database), wal: Number(row.wal), fileParts: Number(row.fileParts) };
}

async function uploadImage(productId: number, bytes: number) {
  const answer = await sb.app.inject({
    method: 'POST',
    url: `/v3/products/${productId}/image`,
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'image/png' },
    payload: largePng(bytes),
  });
  expect(answer.statusCode).toBe(200);
}

describe('the space stored files take', () => {
  it('grows the database by about the bytes stored (TOAST adds a few percent), not by a copy', async () => {
    const before = await sizes();
    const productIds = await createProducts(sb, client.token, [uniqueNumber('G'), uniqueNumber('G'), uniqueNumber('G')]);
    for (const id of productIds) await uploadImage(id, 5 * MiB);
    const growth = (await sizes()).database - before.database;
    expect(growth).toBeGreaterThan(15 * MiB);
    expect(growth).toBeLessThan(15 * MiB * 1.1);
  });

  it('keeps the WAL bounded and the space of replaced images in use, through the upkeep (PostgreSQL: its own)', async () => {
    if (dbKind() === 'postgres') {
      // No upkeep of ours: the server's checkpointer and autovacuum do it.
      expect(await sb.database.upkeep()).toBeUndefined();
      const [row] = await queryRows<{ autovacuum: string }>(sb.database.db, sql`select current_setting('autovacuum') as autovacuum`);
      expect(row.autovacuum).toBe('on');
      return;
    }
    const [productId] = await createProducts(sb, client.token, [uniqueNumber('G')]);
    const image = 9 * MiB;
    const rounds = [];
    // 72 MiB through the WAL, 63 MiB of it replaced.
    for (let upload = 0; upload < 8; upload++) {
      await uploadImage(productId, image);
      rounds.push(await sb.database.upkeep());
    }
    expect(rounds.some((round) => round?.checkpointed)).toBe(true);
    expect(rounds.some((round) => round?.vacuumed.includes('public.file_parts'))).toBe(true);
    const after = await sizes();
    expect(after.wal).toBeLessThanOrEqual(WAL_KEPT_MAX);
    // The image, and at most what the vacuum threshold lets lie dead, plus the replacement in flight.
    expect(after.fileParts).toBeLessThan(3 * image + 8 * MiB);
  });

  it('vacuums a table written to even when nothing in it died, so that no vacuum meets more than a few MiB of new pages', async () => {
    if (dbKind() === 'postgres') return; // autovacuum_vacuum_insert_threshold: the server's own
    // A vacuum reads and rewrites every page written since the table's last one (to mark it all-visible). Coming only
    // for dead rows, it met all of another client's uploads since: 110-150 ms on the server's one thread.
    await sb.database.upkeep();
    const productIds = await createProducts(sb, client.token, [uniqueNumber('G'), uniqueNumber('G')]);
    for (const id of productIds) await uploadImage(id, 5 * MiB);
    const round = await sb.database.upkeep();
    expect(round?.vacuumed).toContain('public.file_parts');
    // Nothing written since: the next round reads the WAL's position and is done.
    expect(await sb.database.upkeep()).toEqual({ looked: false, vacuumed: [], checkpointed: false });
    // A write, however small: the next round reads the counts again (and finds nothing to vacuum).
    await createProducts(sb, client.token, [uniqueNumber('G')]);
    expect(await sb.database.upkeep()).toMatchObject({ looked: true, vacuumed: [] });
  });
});
