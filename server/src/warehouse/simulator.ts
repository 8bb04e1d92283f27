// The simulated warehouse, driven by each client's clock: what falls due runs in order, whether the clock moves by
// real time (the pacer, one warehouse step every SANDBOX_STEP_SECONDS) or by the sandbox's clock advance.
import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { type Db, ownedBy, schema } from '../platform/db/index.ts';
import { clientNow } from '../modules/clients/service.ts';
import type { Client } from '../modules/clients/client.ts';
import { completeDueInbounds, receivePackingSlip } from '../modules/inbound/service.ts';
import { ordersToStart, startOrder } from '../modules/shipments/service.ts';
import { runNextShipmentStep, scheduleFirstMove } from './outbound.ts';
import { updateExpirationStatuses } from './expiration.ts';

const { clients, inboundPackingSlips } = schema;

export interface WarehouseOptions {
  /** Seconds of the client's clock between two moves of a shipment. */
  stepSeconds: number;
}

const asClient = (row: typeof clients.$inferSelect): Client => ({
  id: row.id,
  username: row.username,
  defaultWarehouse: row.defaultWarehouse,
  clockOffsetSeconds: row.clockOffsetSeconds,
});

/** Starts a shipment for every order the warehouse can work on now; each order in its own transaction. */
async function startOrders(db: Db, client: Client, now: Date, opts: WarehouseOptions) {
  for (const id of await ordersToStart(db, client.id)) {
    await db.transaction(async (tx) => {
      const shipment = await startOrder(tx, client, id, now);
      if (shipment) await scheduleFirstMove(tx, shipment, now, opts.stepSeconds);
    });
  }
}

/** Packing slips expected by today arrive: the warehouse receives everything still expected. */
async function receiveArrivedGoods(db: Db, client: Client, now: Date) {
  const today = now.toISOString().slice(0, 10);
  const arrived = await db
    .select({ id: inboundPackingSlips.id })
    .from(inboundPackingSlips)
    .where(
      and(
        ownedBy(inboundPackingSlips, client.id),
        eq(inboundPackingSlips.status, 'EXPECTED'),
        isNotNull(inboundPackingSlips.expectedOn),
        lte(inboundPackingSlips.expectedOn, today),
      ),
    )
    .orderBy(asc(inboundPackingSlips.id));
  for (const { id } of arrived) await receivePackingSlip(db, client, id);
}

/** Runs every shipment move due up to `until` on the client's clock, earliest first, each at its own due moment. */
async function runDueTasks(db: Db, client: Client, until: Date, opts: WarehouseOptions) {
  while (await runNextShipmentStep(db, client, until, opts.stepSeconds));
}

/**
 * Everything that falls due for the client between its clock's `from` and `until`: new goods are received, orders
 * start, shipments move step by step, checked inbounds complete, expiration statuses follow the date; orders that the
 * arrived goods unblock start at the end.
 */
export async function runWarehouse(db: Db, client: Client, from: Date, until: Date, opts: WarehouseOptions) {
  await receiveArrivedGoods(db, client, from);
  await startOrders(db, client, from, opts);
  await runDueTasks(db, client, until, opts);
  await completeDueInbounds(db, client);
  await receiveArrivedGoods(db, client, until);
  await startOrders(db, client, until, opts);
  await updateExpirationStatuses(db, client, until);
}

/** Moves the client's clock forward and runs what falls due meanwhile. Returns the client with its new offset. */
export async function advanceClock(db: Db, clientId: number, seconds: number, opts: WarehouseOptions): Promise<Client> {
  const [before] = await db.select().from(clients).where(eq(clients.id, clientId));
  const from = clientNow(asClient(before));
  const [after] = await db
    .update(clients)
    .set({ clockOffsetSeconds: sql`${clients.clockOffsetSeconds} + ${seconds}` })
    .where(eq(clients.id, clientId))
    .returning();
  const client = asClient(after);
  await runWarehouse(db, client, from, clientNow(client), opts);
  return client;
}

export interface Pacer {
  stop(): Promise<void>;
}

/** The warehouse on real time: every stepSeconds, one step for every client at its own clock. */
export function startPacer(db: Db, opts: WarehouseOptions & { onError(error: unknown): void }): Pacer {
  let round: Promise<void> | undefined;
  let stopped = false;
  const step = async () => {
    for (const row of await db.select().from(clients).orderBy(asc(clients.id))) {
      if (stopped) return;
      const client = asClient(row);
      const now = clientNow(client);
      await runWarehouse(db, client, now, now, opts).catch(opts.onError);
    }
  };
  const timer = setInterval(() => {
    if (round || stopped) return;
    round = step()
      .catch(opts.onError)
      .finally(() => {
        round = undefined;
      });
  }, Math.max(1, opts.stepSeconds) * 1000);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}
