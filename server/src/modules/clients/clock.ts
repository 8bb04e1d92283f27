// A client's simulated clock: its offset, the advance under way, and the lease of the process that works on its warehouse.
// The state lives in the clients row, so every server process on the database reads the same clock, and an advance cut
// off by a crash is taken over by another process once its lease runs out.
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { type Db, schema } from '../../platform/db/index.ts';
import { DomainError, domainError } from '../../platform/errors.ts';
import type { Client } from './client.ts';
import type { TokenCache } from './token-cache.ts';
import { asClient, timeAtOffset } from './service.ts';

const { clients } = schema;

export interface ClockState {
  clientId: number;
  offsetSeconds: number;
  /** Set while an advance is under way: the offset it started from and the one it moves to. */
  advance?: { fromOffsetSeconds: number; toOffsetSeconds: number };
}

const stateOf = (row: typeof clients.$inferSelect): ClockState => ({
  clientId: row.id,
  offsetSeconds: row.clockOffsetSeconds,
  ...(row.advanceToOffsetSeconds === null
    ? {}
    : { advance: { fromOffsetSeconds: row.advanceFromOffsetSeconds!, toOffsetSeconds: row.advanceToOffsetSeconds } }),
});

export async function readClock(db: Db, clientId: number): Promise<ClockState> {
  const [row] = await db.select().from(clients).where(eq(clients.id, clientId));
  return stateOf(row);
}

/**
 * Starts an advance of `seconds`: the clock's target is set, and the warehouse (warehouse/worker.ts) moves the offset
 * there as it catches up. Refused with 409 while another advance runs, or when the clock would run more than
 * limits.clockAheadMaxSeconds ahead of real time. One statement: two advances sent together cannot both start.
 */
export async function beginAdvance(db: Db, clientId: number, seconds: number): Promise<ClockState> {
  const [row] = await db
    .update(clients)
    .set({
      advanceFromOffsetSeconds: sql`${clients.clockOffsetSeconds}`,
      advanceToOffsetSeconds: sql`${clients.clockOffsetSeconds} + ${seconds}`,
    })
    .where(
      and(
        eq(clients.id, clientId),
        isNull(clients.advanceToOffsetSeconds),
        sql`${clients.clockOffsetSeconds} + ${seconds} <= ${limits.clockAheadMaxSeconds}`,
      ),
    )
    .returning();
  if (row) return stateOf(row);
  const clock = await readClock(db, clientId);
  if (clock.advance) throw new ClockAdvancingRefusal(timeAtOffset(clock.advance.toOffsetSeconds), 'advance');
  throw domainError(
    '409',
    `Your clock may run at most ${limits.clockAheadMaxSeconds} seconds (${limits.clockAheadMaxSeconds / (366 * 86_400)} years) ahead of real time; it is ${clock.offsetSeconds} seconds ahead.`,
  );
}

/**
 * A 409 while the client's clock advances, to `target`: for a second advance, or for a sandbox control that moves the
 * warehouse (it would race the catch-up). The API words where to wait (api/shared/refusals.ts).
 */
export class ClockAdvancingRefusal extends DomainError {
  constructor(
    readonly target: Date,
    readonly refused: 'advance' | 'control',
  ) {
    super({ code: '409', detail: `Your clock is advancing, to ${target.toISOString()}: the warehouse is catching up.` });
  }
}

/** Refuses sandbox controls that move the warehouse while the client's clock advances (they would race its catch-up). */
export async function refuseWhileAdvancing(db: Db, clientId: number): Promise<void> {
  const clock = await readClock(db, clientId);
  if (clock.advance) throw new ClockAdvancingRefusal(timeAtOffset(clock.advance.toOffsetSeconds), 'control');
}

/** The lease as a condition: nobody holds it, it ran out, or `owner` holds it. */
const leaseFreeFor = (owner: string) =>
  or(isNull(clients.warehouseLeaseUntil), lt(clients.warehouseLeaseUntil, sql`now()`), eq(clients.warehouseLeaseOwner, owner));

/**
 * Takes (or renews) the lease on the client's warehouse for `owner`, for `leaseMs`, and returns the client with its
 * clock as they are now; undefined while another process holds the lease.
 */
export async function leaseWarehouse(
  db: Db,
  clientId: number,
  owner: string,
  leaseMs: number,
): Promise<{ client: Client; clock: ClockState } | undefined> {
  const [row] = await db
    .update(clients)
    .set({ warehouseLeaseOwner: owner, warehouseLeaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
    .where(and(eq(clients.id, clientId), leaseFreeFor(owner)))
    .returning();
  return row && { client: asClient(row), clock: stateOf(row) };
}

/**
 * Moves the advancing clock forward to `offsetSeconds` (never back, never past the advance's target), while `owner`
 * holds the lease. Returns the offset now.
 */
export async function moveAdvancingClock(
  db: Db,
  cache: TokenCache,
  clientId: number,
  owner: string,
  offsetSeconds: number,
): Promise<number | undefined> {
  const [row] = await db
    .update(clients)
    .set({
      clockOffsetSeconds: sql`least(${clients.advanceToOffsetSeconds}, greatest(${clients.clockOffsetSeconds}, ${offsetSeconds}))`,
    })
    .where(and(eq(clients.id, clientId), eq(clients.warehouseLeaseOwner, owner), isNotNull(clients.advanceToOffsetSeconds)))
    .returning({ offsetSeconds: clients.clockOffsetSeconds });
  // Cached clients carry the offset too (the routes that take them from the cache do not read it): none stays older.
  cache.forgetClient(clientId);
  return row?.offsetSeconds;
}

/** The advance is done: the clock stands at its target, is ready, and the lease is given back. */
export async function finishAdvance(db: Db, cache: TokenCache, clientId: number, owner: string): Promise<void> {
  await db
    .update(clients)
    .set({
      clockOffsetSeconds: sql`${clients.advanceToOffsetSeconds}`,
      advanceFromOffsetSeconds: null,
      advanceToOffsetSeconds: null,
      warehouseLeaseOwner: null,
      warehouseLeaseUntil: null,
    })
    .where(and(eq(clients.id, clientId), eq(clients.warehouseLeaseOwner, owner), isNotNull(clients.advanceToOffsetSeconds)));
  cache.forgetClient(clientId);
}

/** Gives back `owner`'s lease on one client's warehouse. */
export async function releaseWarehouse(db: Db, clientId: number, owner: string): Promise<void> {
  await db
    .update(clients)
    .set({ warehouseLeaseOwner: null, warehouseLeaseUntil: null })
    .where(and(eq(clients.warehouseLeaseOwner, owner), eq(clients.id, clientId)));
}

/** Gives back every lease `owner` holds (a process shutting down). */
export async function releaseWarehouses(db: Db, owner: string): Promise<void> {
  await db
    .update(clients)
    .set({ warehouseLeaseOwner: null, warehouseLeaseUntil: null })
    .where(and(eq(clients.warehouseLeaseOwner, owner)));
}

/** Clients whose advance no process works on: none holds the lease, or its holder stopped renewing it (a crash). */
export async function orphanedAdvances(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: clients.id })
    .from(clients)
    .where(
      and(isNotNull(clients.advanceToOffsetSeconds), or(isNull(clients.warehouseLeaseUntil), lt(clients.warehouseLeaseUntil, sql`now()`))),
    )
    .orderBy(clients.id);
  return rows.map((row) => row.id);
}
