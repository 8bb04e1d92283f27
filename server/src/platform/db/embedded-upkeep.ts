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
// uploads at 25 MiB/s, took 110-150 ms. Hence the inserted bytes as a reason of their own, and short rounds: a vacuum
// meets a few MiB of new pages (8-10 ms measured). A checkpoint writes at most the 16 MB of shared buffers.
// A round reads the WAL's position first: when nothing was written since the last round ended, it is done (one
// statement). Otherwise it reads the tables' counts from the statistics functions (the pg_stat_user_tables view reads
// every column of every table: 2.5 ms, and with the sizes 6-8 ms a round) and sizes only the tables with a count.
import type { PGlite } from '@electric-sql/pglite';
import { every, type Every } from '../every.ts';

export const UPKEEP_INTERVAL_MS = 250;
export const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
export const VACUUM_DEAD_BYTES = 8 * 1024 * 1024;
export const VACUUM_INSERTED_BYTES = 4 * 1024 * 1024;

/** PGlite start parameters: how much WAL a checkpoint keeps for reuse (PostgreSQL's defaults are 80 MB to 1 GB). */
export const walStartParams = ['-c', 'min_wal_size=32MB', '-c', 'max_wal_size=64MB'];

export interface UpkeepRound {
  /** Whether the round read the tables' counts: false when nothing was written since the last round. */
  looked: boolean;
  vacuumed: string[];
  checkpointed: boolean;
}

/**
 * SQL: the bytes that `count` rows of a relation (its oid in `relation`; 0 for a table without TOAST) take, as their
 * share of its size (the main fork: no indexes); the size is read only when there are such rows.
 */
const bytesOf = (relation: string, count: string, live: string, dead: string) =>
  `case when ${count} > 0 then pg_relation_size(${relation}) * ${count} / greatest(${live} + ${dead}, ${count}, 1) else 0 end`;

/**
 * The tables to vacuum: their dead rows, and their rows inserted since their last vacuum, counted on the main relation
 * and on its TOAST table each (changing a stored file's owner leaves dead only a small row; a replaced file's parts
 * leave dead their TOAST chunks).
 */
const tablesToVacuum = `with counts as (
    select format('%I.%I', n.nspname, c.relname) as name, c.oid, c.reltoastrelid as toast,
      pg_stat_get_live_tuples(c.oid) as live, pg_stat_get_dead_tuples(c.oid) as dead,
      pg_stat_get_ins_since_vacuum(c.oid) as inserted,
      pg_stat_get_live_tuples(c.reltoastrelid) as toast_live, pg_stat_get_dead_tuples(c.reltoastrelid) as toast_dead,
      pg_stat_get_ins_since_vacuum(c.reltoastrelid) as toast_inserted
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname !~ '^pg_toast'
  )
  select name from counts
  where dead > 50 + 0.2 * live
    or ${bytesOf('oid', 'dead', 'live', 'dead')} + ${bytesOf('toast', 'toast_dead', 'toast_live', 'toast_dead')} > $1
    or ${bytesOf('oid', 'inserted', 'live', 'dead')} + ${bytesOf('toast', 'toast_inserted', 'toast_live', 'toast_dead')} > $2
  order by dead + toast_dead desc`;

/** The upkeep of one embedded database: rounds on demand or every UPKEEP_INTERVAL_MS. */
export class EmbeddedUpkeep {
  /** The WAL's insert position when the last round ended. */
  private walAfterLast?: string;

  constructor(private readonly client: PGlite) {}

  /** One round: vacuum the tables that need it, then checkpoint when the WAL since the last one is large enough. */
  async round(): Promise<UpkeepRound> {
    const { client } = this;
    // Table statistics reach the functions at most once a second: the next statement sees this session's latest.
    const [{ at }] = (await client.query<{ at: string }>('select pg_stat_force_next_flush(), pg_current_wal_insert_lsn()::text as at'))
      .rows;
    if (at === this.walAfterLast) return { looked: false, vacuumed: [], checkpointed: false };
    const { rows: tables } = await client.query<{ name: string }>(tablesToVacuum, [VACUUM_DEAD_BYTES, VACUUM_INSERTED_BYTES]);
    for (const { name } of tables) await client.exec(`vacuum ${name}`);
    const { rows } = await client.query<{ since: string; at: string }>(
      `select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::text as since, pg_current_wal_insert_lsn()::text as at
       from pg_control_checkpoint()`,
    );
    const checkpointed = Number(rows[0].since) > CHECKPOINT_WAL_BYTES;
    if (checkpointed) await client.exec('checkpoint');
    this.walAfterLast = checkpointed
      ? (await client.query<{ at: string }>('select pg_current_wal_insert_lsn()::text as at')).rows[0].at
      : rows[0].at;
    return { looked: true, vacuumed: tables.map((table) => table.name), checkpointed };
  }

  /** Runs a round every UPKEEP_INTERVAL_MS until stopped. */
  start(onError: (error: unknown) => void): Every {
    return every(UPKEEP_INTERVAL_MS, async () => (this.client.closed ? undefined : this.round()), onError);
  }
}
