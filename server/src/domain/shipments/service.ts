// Shipments: reading with filters and the retention window, and the sandbox helper that ships an order at once.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, gte, inArray, lt } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { schema, type Db } from '../../db/index.ts';
import { apiError } from '../../http/errors.ts';
import type { Page } from '../../http/query.ts';
import { clientNow, type Client } from '../clients/service.ts';
import { dayAfter, daysBefore, startOfDay } from '../time.ts';
import { warehouseShippingMethod } from '../reference/service.ts';
import { requireOrder } from '../orders/service.ts';

const { shipments, shipmentItems, orders, orderItems, products, shippingMethods } = schema;

export type ShipmentRow = typeof shipments.$inferSelect;
export type ShipmentItemRow = typeof shipmentItems.$inferSelect;

export interface ShipmentFilters {
  shippedOnLt?: string;
  shippedOnGt?: string;
  statuses?: string[];
  orderTypes?: number[];
  references?: string[];
  orderId?: number;
  externalOrderNumber?: string;
}

const visible = (client: Client) => gte(shipments.createdAt, daysBefore(clientNow(client), limits.shipmentRetentionDays));

export async function listShipments(db: Db, client: Client, filters: ShipmentFilters, page: Page): Promise<ShipmentRow[]> {
  const conditions = [eq(shipments.clientId, client.id), gt(shipments.id, page.cursor), visible(client)];
  if (filters.shippedOnLt) conditions.push(lt(shipments.shippedOn, startOfDay(filters.shippedOnLt)));
  if (filters.shippedOnGt) conditions.push(gte(shipments.shippedOn, dayAfter(filters.shippedOnGt)));
  if (filters.statuses) conditions.push(inArray(shipments.status, filters.statuses));
  if (filters.orderTypes) conditions.push(inArray(shipments.orderTypeId, filters.orderTypes));
  if (filters.orderId) conditions.push(eq(shipments.orderId, filters.orderId));
  if (filters.externalOrderNumber || filters.references) {
    const orderConditions = [eq(orders.clientId, client.id)];
    if (filters.externalOrderNumber) orderConditions.push(eq(orders.externalOrderNumber, filters.externalOrderNumber));
    if (filters.references) orderConditions.push(inArray(orders.reference, filters.references));
    const matching = db.select({ id: orders.id }).from(orders).where(and(...orderConditions));
    conditions.push(inArray(shipments.orderId, matching));
  }
  return db.select().from(shipments).where(and(...conditions)).orderBy(asc(shipments.id)).limit(page.size);
}

export async function findShipment(db: Db, client: Client, id: number): Promise<ShipmentRow | undefined> {
  const [row] = await db.select().from(shipments).where(and(eq(shipments.clientId, client.id), eq(shipments.id, id), visible(client)));
  return row;
}

export async function itemsOf(db: Db, shipmentIds: number[]): Promise<ShipmentItemRow[]> {
  if (!shipmentIds.length) return [];
  return db.select().from(shipmentItems).where(inArray(shipmentItems.shipmentId, shipmentIds)).orderBy(asc(shipmentItems.id));
}

const trackingNumber = () => `3S${randomBytes(6).toString('hex').toUpperCase()}`;
const trackingUrl = (carrier: string, number: string, postcode: string | null) =>
  `https://tracking.sandbox.invalid/${encodeURIComponent(carrier.toLowerCase())}/${number}${postcode ? `?postcode=${encodeURIComponent(postcode)}` : ''}`;

/**
 * Sandbox helper: ships everything still open on the order in one shipment, straight to SHIPPED with tracking,
 * and marks the order fulfilled. The simulated warehouse will take over this path.
 */
export async function shipOrderNow(db: Db, client: Client, orderId: number): Promise<number> {
  const order = await requireOrder(db, client.id, orderId);
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for('update');
    if (locked.fulfilledAt) throw apiError('422', `Order ${order.id} is already fulfilled.`);
    if (!locked.isValid) throw apiError('422', `Order ${order.id} is Not Valid: its delivery address lacks a house number. It is not shipped until one is added.`);
    const items = await tx.select({ item: orderItems, weight: products.weight }).from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
    const shipped = await tx.select({ orderItemId: shipmentItems.orderItemId, quantity: shipmentItems.quantity }).from(shipmentItems)
      .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId)).where(eq(shipments.orderId, order.id));
    const covered = new Map<number, number>();
    for (const s of shipped) covered.set(s.orderItemId!, (covered.get(s.orderItemId!) ?? 0) + s.quantity);
    const open = items.map(({ item, weight }) => ({ item, weight, quantity: item.quantity - (covered.get(item.id) ?? 0) })).filter((o) => o.quantity > 0);
    if (!open.length) throw apiError('422', `Order ${order.id} has nothing left to ship.`);

    const warehouse = order.fulfillFrom ?? client.defaultWarehouse;
    const method = (await warehouseShippingMethod(tx as unknown as Db, client.id, order.preferredShippingMethodId, warehouse))
      ?? (await tx.select().from(shippingMethods).where(eq(shippingMethods.id, order.preferredShippingMethodId)))[0];
    const [delivery] = await tx.select().from(schema.addresses).where(eq(schema.addresses.id, order.deliveryAddressId));
    const now = clientNow(client);
    const weight = open.reduce((sum, o) => sum + (o.weight ?? 0) * o.quantity, 0);
    const number = trackingNumber();
    const url = trackingUrl(method.carrier, number, delivery?.postcode ?? null);
    const [shipment] = await tx.insert(shipments).values({
      clientId: client.id, orderId: order.id, orderTypeId: order.orderTypeId, shippingMethodId: method.id,
      status: 'SHIPPED', readyToPickOn: now, readyToShipOn: now, shippedOn: now, warehouseCode: warehouse,
      weight, invoicingWeight: weight, metadata: order.metadata,
      tracking: { carrier: method.carrier, number, stage: 'LABELLED', status: 'OK', url },
      trackingUpdatedAt: now,
      colli: [{ number: 1, parcelNumber: number, trackingUrl: url }],
      createdAt: now,
    }).returning({ id: shipments.id });
    await tx.insert(shipmentItems).values(open.map((o) => ({
      clientId: client.id, shipmentId: shipment.id, orderItemId: o.item.id, productId: o.item.productId, sku: o.item.sku, quantity: o.quantity,
    })));
    await tx.update(orders).set({ fulfilledAt: now }).where(eq(orders.id, order.id));
    return shipment.id;
  });
}
