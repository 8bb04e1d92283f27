// The simulated warehouse, driven by each client's clock: what falls due runs in order, whether the clock moves by
// real time (the pacer, one warehouse step every SANDBOX_STEP_SECONDS) or by the sandbox's clock advance.
import type { Db } from '../platform/db/index.ts';
import { every } from '../platform/every.ts';
import { allClients, clientNow, moveClock } from '../modules/clients/service.ts';
import type { Client } from '../modules/clients/client.ts';
import { arrivedPackingSlips, completeDueInbounds, receivePackingSlip } from '../modules/inbound/service.ts';
import { updateExpirationStatuses } from '../modules/inventory/expiration.ts';
import { ordersToStart, startOrder } from '../modules/shipments/service.ts';
import { runNextShipmentStep, scheduleFirstMove } from './outbound.ts';

export interface WarehouseOptions {
  /** Seconds of the client's clock between two moves of a shipment. */
  stepSeconds: number;
}

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
  for (const id of await arrivedPackingSlips(db, client.id, now.toISOString().slice(0, 10))) await receivePackingSlip(db, client, id);
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
  const { before, after: client } = await moveClock(db, clientId, seconds);
  const from = clientNow(before);
  await runWarehouse(db, client, from, clientNow(client), opts);
  return client;
}

export interface Pacer {
  stop(): Promise<void>;
}

/** The warehouse on real time: every stepSeconds, one step for every client at its own clock. */
export function startPacer(db: Db, opts: WarehouseOptions & { onError(error: unknown): void }): Pacer {
  return every(
    Math.max(1, opts.stepSeconds) * 1000,
    async (stopped) => {
      for (const client of await allClients(db)) {
        if (stopped()) return;
        const now = clientNow(client);
        await runWarehouse(db, client, now, now, opts).catch(opts.onError);
      }
    },
    opts.onError,
  );
}
