// The simulated warehouse's outbound agenda: when each shipment makes its next move. The moves themselves (what ships,
// stock bookings, transitions and the events they emit) belong to the shipments module; this file claims what is due,
// runs it at its due moment and schedules the next.
import { and, asc, eq, lte } from 'drizzle-orm';
import { type Db, ownedBy, schema, type Tx } from '../platform/db/index.ts';
import type { Client } from '../modules/clients/client.ts';
import type { EventPayloads } from '../modules/webhooks/payloads.ts';
import { lockClientWarehouse } from '../modules/inventory/service.ts';
import {
  failShipment,
  findShipment,
  followsRoad,
  ShortageError,
  stepShipment,
  type ShipmentRow,
  type StepResult,
} from '../modules/shipments/service.ts';

const { warehouseTasks } = schema;

// ---- the agenda

export async function schedule(tx: Db, clientId: number, entity: 'shipment' | 'inbound', entityId: number, dueOn: Date) {
  await tx
    .insert(warehouseTasks)
    .values({ clientId, entity, entityId, dueOn })
    .onConflictDoUpdate({ target: [warehouseTasks.entity, warehouseTasks.entityId], set: { dueOn } });
}

async function unschedule(tx: Db, entity: 'shipment' | 'inbound', entityId: number) {
  await tx.delete(warehouseTasks).where(and(eq(warehouseTasks.entity, entity), eq(warehouseTasks.entityId, entityId)));
}

/** A new shipment makes its first move one step after it starts; a shipment created in ERROR waits for an operator. */
export async function scheduleFirstMove(tx: Db, shipment: ShipmentRow, now: Date, stepSeconds: number) {
  if (shipment.status === 'READY_TO_PICK')
    await schedule(tx, shipment.clientId, 'shipment', shipment.id, new Date(now.getTime() + stepSeconds * 1000));
}

/** Puts a shipment in ERROR, where it waits for an operator (the sandbox's advance): it leaves the agenda. */
export async function putInError(tx: Tx, payloads: EventPayloads, clientId: number, shipment: ShipmentRow, now: Date) {
  await failShipment(tx, payloads, clientId, shipment, now);
  await unschedule(tx, 'shipment', shipment.id);
}

// ---- running what is due

/**
 * Claims the client's earliest move due by `until` and runs it at its due moment, in one transaction, then schedules the
 * next. SKIP LOCKED: a move another process is running is left to it. A shortage when shipping puts the shipment in
 * ERROR instead. Returns the moment of the move, or undefined when nothing is due. Shipments past the retention window
 * still move (see ShipmentLookup).
 */
export async function runNextShipmentStep(
  db: Db,
  payloads: EventPayloads,
  client: Client,
  until: Date,
  stepSeconds: number,
): Promise<Date | undefined> {
  return db.transaction(async (tx) => {
    // The client's warehouse lock before the task's row: the lock order of every transaction that moves shipments.
    await lockClientWarehouse(tx, client.id);
    const [task] = await tx
      .select()
      .from(warehouseTasks)
      .where(and(ownedBy(warehouseTasks, client.id), eq(warehouseTasks.entity, 'shipment'), lte(warehouseTasks.dueOn, until)))
      .orderBy(asc(warehouseTasks.dueOn), asc(warehouseTasks.id))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!task) return undefined;
    const shipment = await findShipment(tx, client, task.entityId, { lock: true, pastRetention: true });
    // A shipment in ERROR waits for an operator, unless a scenario's road put it there and resolves it.
    if (!shipment || (shipment.status === 'ERROR' && !(await followsRoad(tx, shipment)))) {
      await unschedule(tx, 'shipment', task.entityId);
      return task.dueOn;
    }
    let result: StepResult;
    try {
      // In a savepoint: a shortage undoes the step alone, and the shipment goes to ERROR while this transaction still
      // holds it, so no other process runs the failed step again meanwhile.
      result = await tx.transaction((step) => stepShipment(step, payloads, client, shipment, task.dueOn, { correctShortage: false }));
    } catch (error) {
      if (!(error instanceof ShortageError)) throw error;
      await putInError(tx, payloads, client.id, shipment, task.dueOn);
      return task.dueOn;
    }
    if (result === 'moved') await schedule(tx, client.id, 'shipment', shipment.id, new Date(task.dueOn.getTime() + stepSeconds * 1000));
    else await unschedule(tx, 'shipment', shipment.id);
    return task.dueOn;
  });
}
