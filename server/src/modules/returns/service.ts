// Returns: registering a return authorisation (v2 RMA) for shipped goods, processing its items in a warehouse with
// RETURN stock mutations, and reading the processed return items.
import { and, asc, eq, gt, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import type { returnConditions } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import type { Metadata } from '../../platform/db/schema/orders.ts';
import type { Page } from '../../platform/page.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { dayAfter, startOfDay } from '../../platform/time.ts';
import { lockClientWarehouse, pickLocation, putStock } from '../inventory/service.ts';
import { domainError, ProblemCollector } from '../../platform/errors.ts';

const { returns, returnItems, shipments, shipmentItems, orders, returnReasons } = schema;

export type ReturnItemRow = typeof returnItems.$inferSelect;
export type ReturnCondition = (typeof returnConditions)[number];

export interface NewReturn {
  shipmentId: number;
  remark?: string | null;
  externalReference?: string | null;
  items: {
    shipmentItemId: number;
    quantity: number;
    returnReasonId?: number | null;
    externalReference?: string | null;
    metadata?: Metadata | null;
  }[];
}

/**
 * Registers a return of shipped goods: the return (RMA) and its announced items, not yet processed.
 * Unknown shipments, shipment items of another shipment, more than was shipped, or unknown reasons are refused together.
 */
export async function registerReturn(db: Db, client: Client, input: NewReturn): Promise<number> {
  const [shipment] = await db
    .select()
    .from(shipments)
    .where(and(ownedBy(shipments, client.id), eq(shipments.id, input.shipmentId)));
  if (!shipment) throw domainError('404', `Shipment ${input.shipmentId} not found.`);
  if (shipment.status !== 'SHIPPED')
    throw domainError('409', `Shipment ${shipment.id} is ${shipment.status}: only shipped goods can be returned.`);
  const [order] = await db.select({ externalOrderNumber: orders.externalOrderNumber }).from(orders).where(eq(orders.id, shipment.orderId));
  const shipped = await db.select().from(shipmentItems).where(eq(shipmentItems.shipmentId, shipment.id));
  const reasonIds = input.items.map((i) => i.returnReasonId).filter((id): id is number => id != null);
  const reasons = reasonIds.length
    ? await db
        .select({ id: returnReasons.id })
        .from(returnReasons)
        .where(and(ownedBy(returnReasons, client.id), inArray(returnReasons.id, reasonIds)))
    : [];
  const problems = new ProblemCollector();
  if (!input.items.length) problems.add('400', 'A return needs at least one item.');
  input.items.forEach((item, index) => {
    const line = shipped.find((s) => s.id === item.shipmentItemId);
    if (!line)
      problems.add('404', `Shipment item ${item.shipmentItemId} is not part of shipment ${shipment.id}.`, {
        path: ['items', index, 'shipmentItemId'],
      });
    else if (item.quantity < 1 || item.quantity > line.quantity)
      problems.add('400', `Quantity must be 1 to ${line.quantity}, the shipped quantity.`, { path: ['items', index, 'quantity'] });
    if (item.returnReasonId != null && !reasons.some((r) => r.id === item.returnReasonId))
      problems.add('404', `Return reason ${item.returnReasonId} not found.`, { path: ['items', index, 'returnReasonId'] });
  });
  problems.throwIfAny();

  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(returns)
      .values({
        clientId: client.id,
        shipmentId: shipment.id,
        orderId: shipment.orderId,
        remark: input.remark ?? null,
        externalReference: input.externalReference ?? null,
        createdOn: clientNow(client),
      })
      .returning({ id: returns.id });
    await tx.insert(returnItems).values(
      input.items.map((item) => {
        const line = shipped.find((s) => s.id === item.shipmentItemId)!;
        return {
          clientId: client.id,
          returnId: row.id,
          orderId: shipment.orderId,
          orderItemId: line.orderItemId,
          shipmentItemId: line.id,
          productId: line.productId,
          sku: line.sku,
          quantity: item.quantity,
          returnReasonId: item.returnReasonId ?? null,
          externalOrderNumber: order.externalOrderNumber,
          externalReference: item.externalReference ?? null,
          metadata: item.metadata ?? {},
        };
      }),
    );
    return row.id;
  });
}

export interface ProcessedReturnItem {
  returnItemId: number;
  condition: ReturnCondition;
  comment?: string | null;
  redeliver?: boolean;
}

/**
 * The warehouse processes returned items in one of its warehouses (default: the shipment's): RETURN goods go back on the
 * pick location as sellable stock, DAMAGED goods onto a DAMAGED location with quality DAMAGED, UNKNOWN goods wait on a
 * RETURN location (excluded from fulfilment). Each books a RETURN mutation linked to its return item.
 */
export async function processReturnItems(
  db: Db,
  client: Client,
  returnId: number,
  processed: ProcessedReturnItem[],
  warehouseCode?: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    // Before the return items' rows: the lock order of every transaction that books stock (see lockClientWarehouse).
    await lockClientWarehouse(tx, client.id);
    const [row] = await tx
      .select({ id: returns.id, warehouse: shipments.warehouseCode })
      .from(returns)
      .innerJoin(shipments, eq(shipments.id, returns.shipmentId))
      .where(and(ownedBy(returns, client.id), eq(returns.id, returnId)));
    if (!row) throw domainError('404', `Return ${returnId} not found.`);
    const warehouse = warehouseCode ?? row.warehouse;
    const items = await tx.select().from(returnItems).where(eq(returnItems.returnId, row.id)).for('update');
    const now = clientNow(client);
    for (const p of processed) {
      const item = items.find((i) => i.id === p.returnItemId);
      if (!item) throw domainError('404', `Return item ${p.returnItemId} is not part of return ${row.id}.`);
      if (item.processedOn) throw domainError('409', `Return item ${item.id} has been processed already.`);
      const restock = p.condition === 'RETURN';
      const place = restock
        ? pickLocation(warehouse, item.productId)
        : pickLocation(warehouse, item.productId, p.condition === 'DAMAGED' ? 'DAMAGED' : 'RETURN');
      await putStock(
        tx,
        client.id,
        place,
        { productId: item.productId, sku: item.sku, quantity: item.quantity, quality: p.condition === 'DAMAGED' ? 'DAMAGED' : 'OK' },
        { type: 'RETURN', returnItemId: item.id, remarks: p.comment ?? null },
        now,
      );
      await tx
        .update(returnItems)
        .set({
          condition: p.condition,
          processedOn: now,
          processedIn: warehouse,
          comment: p.comment ?? null,
          redeliver: p.redeliver ?? false,
          restockIn: restock ? warehouse : null,
          restockOn: restock ? now : null,
        })
        .where(eq(returnItems.id, item.id));
    }
  });
}

/** The items of one return, in the order they were registered. */
export async function itemsOfReturn(db: Db, returnId: number): Promise<ReturnItemRow[]> {
  return db.select().from(returnItems).where(eq(returnItems.returnId, returnId)).orderBy(asc(returnItems.id));
}

export async function listReturnItems(
  db: Db,
  clientId: number,
  filters: { processedOnLt?: string; processedOnGt?: string },
  page: Page,
): Promise<ReturnItemRow[]> {
  const conditions = [ownedBy(returnItems, clientId), gt(returnItems.id, page.cursor), isNotNull(returnItems.processedOn)];
  if (filters.processedOnLt) conditions.push(lt(returnItems.processedOn, startOfDay(filters.processedOnLt)));
  if (filters.processedOnGt) conditions.push(gte(returnItems.processedOn, dayAfter(filters.processedOnGt)));
  return db
    .select()
    .from(returnItems)
    .where(and(...conditions))
    .orderBy(asc(returnItems.id))
    .limit(page.size);
}

/** One processed return item; an announced item not yet processed is not one. */
export async function findReturnItem(db: Db, clientId: number, id: number): Promise<ReturnItemRow | undefined> {
  const [row] = await db
    .select()
    .from(returnItems)
    .where(and(ownedBy(returnItems, clientId), eq(returnItems.id, id), isNotNull(returnItems.processedOn)));
  return row;
}

/** Processed return items of one order and/or a processing period, oldest first, at most `limit` (the v2 return-items query). */
export async function processedReturnItems(
  db: Db,
  clientId: number,
  filters: { externalOrderNumber?: string | null; from?: Date; to?: Date },
  limit: number,
): Promise<ReturnItemRow[]> {
  const conditions = [ownedBy(returnItems, clientId), isNotNull(returnItems.processedOn)];
  if (filters.externalOrderNumber) conditions.push(eq(returnItems.externalOrderNumber, filters.externalOrderNumber));
  if (filters.from) conditions.push(gte(returnItems.processedOn, filters.from));
  if (filters.to) conditions.push(lt(returnItems.processedOn, filters.to));
  return db
    .select()
    .from(returnItems)
    .where(and(...conditions))
    .orderBy(asc(returnItems.id))
    .limit(limit);
}

/** These returns (RMAs). No client filter: the ids come from the client's own return items. */
export async function returnsByIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.select().from(returns).where(inArray(returns.id, ids));
}
