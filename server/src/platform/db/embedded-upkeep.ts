// The upkeep PostgreSQL's background processes do, for the embedded database. PGlite runs PostgreSQL single-user,
// without them:
// - no checkpointer: the WAL grows until the process stops (200 MB of attachments wrote 224 MB of WAL beside their 209 MB
//   of tables: the data folder grew by twice their size), and a checkpoint then keeps up to max_wal_size (1 GB by
//   default) of old segments for reuse;
// - no autovacuum: deleted and updated rows keep their space for ever (a 5 MiB image replaced 30 times grew the folder
//   by 332 MB, tables and WAL; the request log, trimmed to each client's newest 1,000 calls, grew without end).
// So every UPKEEP_INTERVAL_MS a round vacuums each table whose dead rows pass autovacuum's default threshold (50 plus
// 20 % of its rows) or take more than VACUUM_DEAD_BYTES (a file part is a 256 KiB row: 50 of them are 12.5 MiB), or
// whose rows inserted since its last vacuum take more than VACUUM_INSERTED_BYTES, then checkpoints once the WAL written
// since the last checkpoint passes CHECKPOINT_WAL_BYTES; with the start parameters below a checkpoint keeps 32 to 64 MB
// of WAL.
// Each statement runs on PGlite's thread between requests, so its length is a stall every other client meets. A vacuum
// reads and rewrites every page written since the table's last vacuum (to mark it all-visible), about 2.3 ms a MiB
// measured, whatever it frees: one that came only for the dead rows of a replaced image, after 2 s of another client's
// uploads at 25 MiB/s, took 110-150 ms. Hence the inserted bytes as a reason of their own, and rounds every 500 ms: a
// vacuum meets at most a few MiB of new pages (about 20 ms). A checkpoint writes at most the 16 MB of shared buffers.
// A round that finds nothing to do is three small statements.
import type { PGlite } from '@electric-sql/pglite';
import { every, type Every } from '../every.ts';

export const UPKEEP_INTERVAL_MS = 500;
export const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
export const VACUUM_DEAD_BYTES = 8 * 1024 * 1024;
export const VACUUM_INSERTED_BYTES = 8 * 1024 * 1024;

/** PGlite start parameters: how much WAL a checkpoint keeps for reuse (PostgreSQL's defaults are 80 MB to 1 GB). */
export const walStartParams = ['-c', 'min_wal_size=32MB', '-c', 'max_wal_size=64MB'];

export interface UpkeepRound {
  vacuumed: string[];
  checkpointed: boolean;
}

/** SQL: the bytes of `relation`'s rows counted by `count`, as their share of its size (the main fork: no indexes). */
const share = (relation: string, count: string) =>
  `pg_relation_size(${relation}.relid) * ${relation}.${count} / greatest(${relation}.n_live_tup + ${relation}.n_dead_tup, ${relation}.${count}, 1)`;

/** One round: vacuum the tables that need it, then checkpoint when the WAL since the last one is large enough. */
export async function upkeepRound(client: PGlite): Promise<UpkeepRound> {
  // Table statistics reach the views at most once a second: the next statement sees this session's latest.
  await client.query('select pg_stat_force_next_flush()');
  // The bytes a table's dead rows, and its rows inserted since its last vacuum, take: their share of its main relation
  // and of its TOAST table, each counted on its own (changing a stored file's owner leaves dead only a small row; a
  // replaced file's parts leave dead their TOAST chunks).
  const { rows: tables } = await client.query<{ name: string }>(
    `with share as (
       select format('%I.%I', t.schemaname, t.relname) as name, t.n_dead_tup, t.n_live_tup,
         ${share('t', 'n_dead_tup')} + coalesce(${share('toast', 'n_dead_tup')}, 0) as dead_bytes,
         ${share('t', 'n_ins_since_vacuum')} + coalesce(${share('toast', 'n_ins_since_vacuum')}, 0) as inserted_bytes
       from pg_stat_user_tables t
       join pg_class c on c.oid = t.relid
       left join pg_stat_all_tables toast on toast.relid = c.reltoastrelid
     )
     select name from share
     where n_dead_tup > 50 + 0.2 * n_live_tup or dead_bytes > $1 or inserted_bytes > $2
     order by dead_bytes desc`,
    [VACUUM_DEAD_BYTES, VACUUM_INSERTED_BYTES],
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
