// The simulated warehouse, driven by each client's clock: what falls due runs in clock order, each at its own moment,
// whether the clock moves by real time or by an advance. The work comes in slices that hold the database for a few tens
// of milliseconds; the worker (worker.ts) gives clients their slices in turn.
import type { Db } from '../platform/db/index.ts';
import type { ModuleServices } from '../modules/services.ts';
import { clientNow } from '../modules/clients/service.ts';
import type { Client } from '../modules/clients/client.ts';
import { arrivedPackingSlips, completeDueInbounds, nextInboundMoment, receivePackingSlip } from '../modules/inbound/service.ts';
import { updateExpirationStatuses } from '../modules/inventory/expiration.ts';
import { ordersToStart, startOrderShipments } from '../modules/shipments/service.ts';
import { runNextShipmentStep, scheduleFirstMove } from './outbound.ts';

export interface WarehouseOptions {
  /** Seconds of the client's clock between two moves of a shipment. */
  stepSeconds: number;
}

/**
 * Where one client's catch-up stands between its slices; the worker keeps it while it works on the client. What falls
 * due at a moment of its own (goods expected on a day, an inbound that completes, orders that can start) is done when
 * the clock gets there; the moves in between bring none of it, so the clock moves through them without looking again.
 */
export interface CatchUp {
  /** The day whose expiration statuses are set. */
  expirationDay?: string;
  /** What is due at the clock's moment has been done, and `inbound` found: the moves may go on. */
  settled?: boolean;
  /** At this moment: the orders still to try, once the goods that arrived are received and the inbounds due completed. */
  orders?: number[];
  /** At this moment: the orders after this id are still to be looked at (ordersToStart's pages); absent once all were. */
  ordersAfter?: number;
  /** The next moment an inbound falls due, found when the moment was settled. */
  inbound?: Date;
}

export interface Slice {
  /** Where the slice leaves the clock: the moment up to which everything due has been done. */
  offsetSeconds: number;
  /** Nothing more is due up to the target. */
  done: boolean;
}

const dayOf = (moment: Date) => moment.toISOString().slice(0, 10);

/** The offset at which the clock shows `moment` now; rounded up, so the clock never shows less than what was done. */
const offsetShowing = (moment: Date) => Math.ceil((moment.getTime() - Date.now()) / 1000);

/**
 * One slice of the client's catch-up with the clock offset `targetOffsetSeconds` (its own offset, on real time; an
 * advance's target while it advances). It works until `sliceMs` have passed, at the end of a transaction (each stays
 * short), and stops. In clock order: first what is due at the clock's moment (expiration statuses of the day, goods
 * expected by today arrive, checked inbounds complete, orders start), then the shipments' moves, earliest first, each at
 * its own due moment, up to the next moment an inbound falls due or the target, whichever comes first. The clock then
 * shows how far the moves got; the next slice does what falls due there.
 */
export async function runSlice(
  db: Db,
  services: ModuleServices,
  client: Client,
  targetOffsetSeconds: number,
  catchUp: CatchUp,
  opts: WarehouseOptions & { sliceMs: number },
): Promise<Slice> {
  const deadline = performance.now() + opts.sliceMs;
  const spent = () => performance.now() >= deadline;
  const offset = client.clockOffsetSeconds;
  const now = clientNow(client);
  const stay: Slice = { offsetSeconds: offset, done: false };

  if (catchUp.expirationDay !== dayOf(now)) {
    await updateExpirationStatuses(db, client.id, now);
    catchUp.expirationDay = dayOf(now);
    if (spent()) return stay;
  }
  if (!catchUp.settled) {
    if (!catchUp.orders) {
      for (const id of await arrivedPackingSlips(db, client.id, dayOf(now))) {
        await receivePackingSlip(db, services.eventPayloads, client, id);
        if (spent()) return stay;
      }
      await completeDueInbounds(db, services.eventPayloads, client);
      // Listed after the goods arrived, a page at a time: they may let orders go that could not before.
      catchUp.orders = [];
      catchUp.ordersAfter = 0;
    }
    for (;;) {
      for (let id = catchUp.orders.shift(); id !== undefined; id = catchUp.orders.shift()) {
        await db.transaction(async (tx) => {
          for (const shipment of await startOrderShipments(tx, services.eventPayloads, client, id, now))
            await scheduleFirstMove(tx, shipment, now, opts.stepSeconds);
        });
        if (spent()) return stay;
      }
      if (catchUp.ordersAfter === undefined) break;
      const page = await ordersToStart(db, client.id, { after: catchUp.ordersAfter });
      catchUp.orders = page.ids;
      catchUp.ordersAfter = page.next;
      if (spent()) return stay;
    }
    // On real time (the clock stays where it is) what an inbound brings is due at the next round.
    catchUp.inbound = offset === targetOffsetSeconds ? undefined : await nextInboundMoment(db, client.id, now);
    catchUp.orders = undefined;
    catchUp.settled = true;
    if (spent()) return stay;
  }

  const target = clientNow({ clockOffsetSeconds: targetOffsetSeconds });
  const horizon = catchUp.inbound && catchUp.inbound < target ? catchUp.inbound : target;
  /**
   * The clock moves on to `moment`, at least to `atLeast`, at most to the target. Short of the horizon nothing but moves
   * falls due; at the horizon (an inbound's moment, or the target) the next slice first does what falls due there.
   */
  const moveTo = (moment: Date, atLeast: number, horizonReached: boolean): Slice => {
    const offsetSeconds = Math.min(targetOffsetSeconds, Math.max(atLeast, offsetShowing(moment)));
    if (horizonReached || offsetSeconds === targetOffsetSeconds) catchUp.settled = false;
    return { offsetSeconds, done: false };
  };
  for (;;) {
    const moved = await runNextShipmentStep(db, services.eventPayloads, client, horizon, opts.stepSeconds);
    if (!moved) break;
    if (spent()) return moveTo(moved, offset, false);
  }
  if (offset === targetOffsetSeconds) return { offsetSeconds: offset, done: true };
  if (horizon === target) {
    catchUp.settled = false;
    return { offsetSeconds: targetOffsetSeconds, done: false };
  }
  // At least a second on, so the clock shows the inbound's moment.
  return moveTo(horizon, offset + 1, true);
}
