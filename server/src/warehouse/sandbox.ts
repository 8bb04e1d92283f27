// Sandbox controls over the simulated warehouse: ship an order now, move or fail one shipment, return shipped goods.
// They go through the same moves as the clock does, so the same transition checks, stock bookings and events apply.
// While the client's clock advances they answer 409 (refuseWhileAdvancing): the catch-up works through the same
// shipments in clock order, and a control's move at the clock's passing moment would race it.
import type { Db } from '../platform/db/index.ts';
import type { ModuleServices } from '../modules/services.ts';
import { clientNow } from '../modules/clients/service.ts';
import { refuseWhileAdvancing } from '../modules/clients/clock.ts';
import type { Client } from '../modules/clients/client.ts';
import { requireOrder } from '../modules/orders/service.ts';
import { itemsOfReturn, processReturnItems, registerReturn, type ReturnCondition, type ReturnItemRow } from '../modules/returns/service.ts';
import { itemsOf, requireShipment, ShortageError, shipOrderNow, stepShipment, type StepResult } from '../modules/shipments/service.ts';
import { putInError, schedule } from './outbound.ts';
import type { WarehouseOptions } from './simulator.ts';
import { DomainError, domainError } from '../platform/errors.ts';

/**
 * Ships the order now, whatever the stock and even on hold (see shipOrderNow); the tracking of what shipped is left to
 * the clock. Returns the id of the last shipment shipped.
 */
export async function shipNow(db: Db, services: ModuleServices, client: Client, orderId: number, opts: WarehouseOptions): Promise<number> {
  const order = await requireOrder(db, client.id, orderId);
  await refuseWhileAdvancing(db, client.id);
  return db.transaction(async (tx) => {
    const now = clientNow(client);
    const shipped = await shipOrderNow(tx, services.eventPayloads, client, order.id, now);
    for (const id of shipped) await schedule(tx, client.id, 'shipment', id, new Date(now.getTime() + opts.stepSeconds * 1000));
    return shipped[shipped.length - 1];
  });
}

/** A step that would ship goods not on the shelf: receive them first, or ship the order now (the API words how). */
export class ShortageRefusal extends DomainError {
  constructor(
    readonly shortage: string,
    readonly orderId: number,
  ) {
    super({ code: '409', detail: `${shortage} Receive goods first, or ship the order now.` });
  }
}

/** One step of one shipment now (an operator resolving an ERROR, or the next status or tracking stage). */
export async function advanceShipment(
  db: Db,
  services: ModuleServices,
  client: Client,
  shipmentId: number,
  opts: WarehouseOptions,
): Promise<void> {
  await refuseWhileAdvancing(db, client.id);
  await db.transaction(async (tx) => {
    const shipment = await requireShipment(tx, client, shipmentId, { lock: true, pastRetention: true });
    const now = clientNow(client);
    let result: StepResult;
    try {
      result = await stepShipment(tx, services.eventPayloads, client, shipment, now, { correctShortage: false, operator: true });
    } catch (error) {
      if (error instanceof ShortageError) throw new ShortageRefusal(error.message, shipment.orderId);
      throw error;
    }
    if (result === 'done') throw domainError('409', `Shipment ${shipment.id} has been delivered: nothing more happens to it.`);
    await schedule(tx, client.id, 'shipment', shipment.id, new Date(now.getTime() + opts.stepSeconds * 1000));
  });
}

export async function failShipmentNow(db: Db, services: ModuleServices, client: Client, shipmentId: number): Promise<void> {
  await refuseWhileAdvancing(db, client.id);
  await db.transaction(async (tx) => {
    const shipment = await requireShipment(tx, client, shipmentId, { lock: true, pastRetention: true });
    await putInError(tx, services.eventPayloads, client.id, shipment, clientNow(client));
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
  const shipment = await requireShipment(db, client, shipmentId, { pastRetention: true });
  const lines = await itemsOf(db, [shipment.id]);
  const problems = goods.flatMap((g, index) =>
    lines.some((l) => l.sku === g.sku)
      ? []
      : [{ code: '404-1' as const, detail: `SKU "${g.sku}" is not on shipment ${shipment.id}.`, path: ['items', index, 'sku'] }],
  );
  if (problems.length) throw new DomainError(problems);
  await refuseWhileAdvancing(db, client.id);
  const returnId = await registerReturn(db, client, {
    shipmentId: shipment.id,
    items: goods.map((g) => ({
      shipmentItemId: lines.find((l) => l.sku === g.sku)!.id,
      quantity: g.quantity,
      returnReasonId: g.returnReasonId ?? null,
    })),
  });
  const registered = await itemsOfReturn(db, returnId);
  await processReturnItems(
    db,
    client,
    returnId,
    registered.map((item, index) => ({ returnItemId: item.id, condition: goods[index].condition, comment: goods[index].comment ?? null })),
  );
  return itemsOfReturn(db, returnId);
}
