// The upkeep PostgreSQL's background processes do, for the embedded database. PGlite runs PostgreSQL single-user,
// without them:
// - no checkpointer: the WAL grows until the process stops (200 MB of attachments wrote 224 MB of WAL beside their 209 MB
//   of tables: the data folder grew by twice their size), and a checkpoint then keeps up to max_wal_size (1 GB by
//   default) of old segments for reuse;
// - no autovacuum: deleted and updated rows keep their space for ever (a 5 MiB image replaced 30 times grew the folder
//   by 332 MB, tables and WAL; the request log, trimmed to each client's newest 1,000 calls, grew without end).
// So every UPKEEP_INTERVAL_MS a round vacuums each table whose dead rows pass autovacuum's default threshold (50 plus
// 20 % of its rows) or take more than VACUUM_DEAD_BYTES (a file part is a 256 KiB row: 50 of them are 12.5 MiB), then
// checkpoints once the WAL written since the last checkpoint passes CHECKPOINT_WAL_BYTES; with the start parameters
// below a checkpoint keeps 32 to 64 MB of WAL. Each statement runs on PGlite's thread between requests (a vacuum of a
// few thousand dead rows or a checkpoint: tens of milliseconds to 0.2 s measured). With these, the same 200 MB of
// attachments grew the folder by 208 MB once the WAL had reached its 64 MB, and the 30 replacements by 56 MB. A round
// finds nothing to do most of the time (three small statements), so it runs often: dead rows lie a few seconds at most.
import type { PGlite } from '@electric-sql/pglite';
import { every, type Every } from '../every.ts';

export const UPKEEP_INTERVAL_MS = 2000;
export const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
export const VACUUM_DEAD_BYTES = 8 * 1024 * 1024;

/** PGlite start parameters: how much WAL a checkpoint keeps for reuse (PostgreSQL's defaults are 80 MB to 1 GB). */
export const walStartParams = ['-c', 'min_wal_size=32MB', '-c', 'max_wal_size=64MB'];

export interface UpkeepRound {
  vacuumed: string[];
  checkpointed: boolean;
}

/** One round: vacuum the tables that need it, then checkpoint when the WAL since the last one is large enough. */
export async function upkeepRound(client: PGlite): Promise<UpkeepRound> {
  // Table statistics reach the views at most once a second: the next statement sees this session's latest.
  await client.query('select pg_stat_force_next_flush()');
  // A table's dead rows take about their share of its size (with its TOAST table and indexes).
  const { rows: tables } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables
     where n_dead_tup > 50 + 0.2 * n_live_tup
       or (n_dead_tup > 0 and pg_total_relation_size(relid) * n_dead_tup / (n_live_tup + n_dead_tup) > $1)
     order by n_dead_tup desc`,
    [VACUUM_DEAD_BYTES],
  );
  for (const { name } of tables) await client.exec(`vacuum ${name}`);
  const { rows } = await client.query<{ since: string }>(
    'select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text as since from pg_control_checkpoint()',
  );
  const checkpointed = Number(rows[0].since) > CHECKPOINT_WAL_BYTES;
  if (checkpointed) await client.exec('checkpoint');
  return { vacuumed: tables.map((table) => table.name), checkpointed };
}

/** Runs a round every UPKEEP_INTERVAL_MS until stopped. */
export function startUpkeep(client: PGlite, onError: (error: unknown) => void): Every {
  return every(UPKEEP_INTERVAL_MS, async () => (client.closed ? undefined : upkeepRound(client)), onError);
}
