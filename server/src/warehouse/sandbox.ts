// Sandbox controls over the simulated warehouse: ship an order now, move or fail one shipment, return shipped goods.
// They go through the same moves as the clock does, so the same transition checks, stock bookings and events apply.
import { and, asc, eq, ne } from 'drizzle-orm';
import { schema, type Db } from '../platform/db/index.ts';
import { clientNow } from '../modules/clients/service.ts';
import type { Client } from '../modules/clients/client.ts';
import { requireOrder } from '../modules/orders/service.ts';
import { processReturnItems, registerReturn, type ReturnCondition, type ReturnItemRow } from '../modules/returns/service.ts';
import { createShipment, failShipment, requireShipment, schedule, stepShipment, ShortageError } from './outbound.ts';
import type { WarehouseOptions } from './simulator.ts';
import { DomainError, domainError } from '../platform/errors.ts';

const { orders, shipments, shipmentItems, returnItems } = schema;

/** Walks a shipment to SHIPPED now, booking in what is missing, and leaves its tracking to the clock. */
async function walkToShipped(tx: Db, client: Client, shipmentId: number, now: Date, opts: WarehouseOptions) {
  for (;;) {
    const shipment = await requireShipment(tx, client.id, shipmentId, { lock: true });
    if (shipment.status === 'SHIPPED') break;
    await stepShipment(tx, client, shipment, now, { correctShortage: true });
  }
  await schedule(tx, client.id, 'shipment', shipmentId, new Date(now.getTime() + opts.stepSeconds * 1000));
}

/**
 * Ships the order now, whatever the stock and even on hold: shipments under way go on to SHIPPED, and what is still
 * open gets a shipment that follows. Returns the id of the last shipment shipped.
 */
export async function shipNow(db: Db, client: Client, orderId: number, opts: WarehouseOptions): Promise<number> {
  const order = await requireOrder(db, client.id, orderId);
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
    if (locked.fulfilledAt) throw domainError('422', `Order ${order.id} is already fulfilled.`);
    if (!locked.isValid)
      throw domainError(
        '422',
        `Order ${order.id} is Not Valid: its delivery address lacks a house number. It is not shipped until one is added.`,
      );
    const now = clientNow(client);
    const underWay = await tx
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(eq(shipments.orderId, order.id), ne(shipments.status, 'SHIPPED')))
      .orderBy(asc(shipments.id));
    let last: number | undefined;
    for (const { id } of underWay) {
      await walkToShipped(tx, client, id, now, opts);
      last = id;
    }
    const created = await createShipment(tx, client, locked, now, { force: true, stepSeconds: opts.stepSeconds });
    if (created) {
      await walkToShipped(tx, client, created.id, now, opts);
      last = created.id;
    }
    if (last === undefined) throw domainError('422', `Order ${order.id} has nothing left to ship.`);
    return last;
  });
}

/** One step of one shipment now (an operator resolving an ERROR, or the next status or tracking stage). */
export async function advanceShipment(db: Db, client: Client, shipmentId: number, opts: WarehouseOptions): Promise<void> {
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const shipment = await requireShipment(tx, client.id, shipmentId, { lock: true });
    const now = clientNow(client);
    let result: Awaited<ReturnType<typeof stepShipment>>;
    try {
      result = await stepShipment(tx, client, shipment, now, { correctShortage: false });
    } catch (error) {
      if (error instanceof ShortageError)
        throw domainError(
          '409',
          `${error.message} Receive goods first, or ship the order with POST /sandbox/orders/${shipment.orderId}/ship.`,
        );
      throw error;
    }
    if (result === 'done') throw domainError('409', `Shipment ${shipment.id} has been delivered: nothing more happens to it.`);
    await schedule(tx, client.id, 'shipment', shipment.id, new Date(now.getTime() + opts.stepSeconds * 1000));
  });
}

export async function failShipmentNow(db: Db, client: Client, shipmentId: number): Promise<void> {
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await failShipment(tx, await requireShipment(tx, client.id, shipmentId, { lock: true }));
  });
}

export interface ReturnedGoods {
  sku: string;
  quantity: number;
  condition: ReturnCondition;
  returnReasonId?: number;
  comment?: string;
}

/**
 * Goods of a shipped shipment come back and are processed at once in its warehouse, through the returns service
 * (registration, then processing with RETURN mutations). Each sku is matched to the shipment's line of that sku.
 */
export async function returnShipment(db: Db, client: Client, shipmentId: number, goods: ReturnedGoods[]): Promise<ReturnItemRow[]> {
  const shipment = await requireShipment(db, client.id, shipmentId);
  const lines = await db.select().from(shipmentItems).where(eq(shipmentItems.shipmentId, shipment.id)).orderBy(asc(shipmentItems.id));
  const problems = goods.flatMap((g, index) =>
    lines.some((l) => l.sku === g.sku)
      ? []
      : [{ code: '404-1' as const, detail: `SKU "${g.sku}" is not on shipment ${shipment.id}.`, pointer: `/items/${index}/sku` }],
  );
  if (problems.length) throw new DomainError(problems);
  const returnId = await registerReturn(db, client, {
    shipmentId: shipment.id,
    items: goods.map((g) => ({
      shipmentItemId: lines.find((l) => l.sku === g.sku)!.id,
      quantity: g.quantity,
      returnReasonId: g.returnReasonId ?? null,
    })),
  });
  const registered = await db.select().from(returnItems).where(eq(returnItems.returnId, returnId)).orderBy(asc(returnItems.id));
  await processReturnItems(
    db,
    client,
    returnId,
    registered.map((item, index) => ({ returnItemId: item.id, condition: goods[index].condition, comment: goods[index].comment ?? null })),
  );
  return db.select().from(returnItems).where(eq(returnItems.returnId, returnId)).orderBy(asc(returnItems.id));
}
