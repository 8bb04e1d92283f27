// Shipments: reading with filters and the retention window. The simulated warehouse (src/warehouse) makes and moves them.
import { and, asc, eq, gt, gte, inArray, lt } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { anyOf, schema, type Db } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { dayAfter, daysBefore, startOfDay } from '../../platform/time.ts';

const { shipments, shipmentItems, orders } = schema;

export type ShipmentRow = typeof shipments.$inferSelect;
export type ShipmentItemRow = typeof shipmentItems.$inferSelect;

export interface ShipmentFilters {
  shippedOnLt?: string;
  shippedOnGt?: string;
  statuses?: string[];
  orderTypes?: number[];
  references?: string[];
  orderIds?: number[];
  externalOrderNumbers?: string[];
}

const visible = (client: Client) => gte(shipments.createdAt, daysBefore(clientNow(client), limits.shipmentRetentionDays));

/** The ids of one page of the client's shipments, as a query (the v3 documents are built around it in one statement). */
export function shipmentPage(db: Db, client: Client, filters: ShipmentFilters, page: Page) {
  const conditions = [eq(shipments.clientId, client.id), gt(shipments.id, page.cursor), visible(client)];
  if (filters.shippedOnLt) conditions.push(lt(shipments.shippedOn, startOfDay(filters.shippedOnLt)));
  if (filters.shippedOnGt) conditions.push(gte(shipments.shippedOn, dayAfter(filters.shippedOnGt)));
  if (filters.statuses) conditions.push(inArray(shipments.status, filters.statuses));
  if (filters.orderTypes) conditions.push(inArray(shipments.orderTypeId, filters.orderTypes));
  if (filters.orderIds) conditions.push(inArray(shipments.orderId, filters.orderIds));
  if (filters.externalOrderNumbers || filters.references) {
    const orderConditions = [eq(orders.clientId, client.id)];
    if (filters.externalOrderNumbers) orderConditions.push(inArray(orders.externalOrderNumber, filters.externalOrderNumbers));
    if (filters.references) orderConditions.push(inArray(orders.reference, filters.references));
    const matching = db
      .select({ id: orders.id })
      .from(orders)
      .where(and(...orderConditions));
    conditions.push(inArray(shipments.orderId, matching));
  }
  return db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(...conditions))
    .orderBy(asc(shipments.id))
    .limit(page.size);
}

/** The client's shipment with this id, within the retention window. */
const ownShipment = (client: Client, id: number) => and(eq(shipments.clientId, client.id), eq(shipments.id, id), visible(client));

/** The id of the client's shipment as a query; another client's or a shipment past the retention window selects nothing. */
export function shipmentById(db: Db, client: Client, id: number) {
  return db.select({ id: shipments.id }).from(shipments).where(ownShipment(client, id));
}

/** The id of the client's shipment item as a query; like its shipment, it is not there after the retention window. */
export function shipmentItemById(db: Db, client: Client, id: number) {
  return db
    .select({ id: shipmentItems.id })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(and(eq(shipmentItems.clientId, client.id), eq(shipmentItems.id, id), eq(shipments.clientId, client.id), visible(client)));
}

export async function findShipment(db: Db, client: Client, id: number): Promise<ShipmentRow | undefined> {
  const [row] = await db.select().from(shipments).where(ownShipment(client, id));
  return row;
}

export async function itemsOf(db: Db, shipmentIds: number[]): Promise<ShipmentItemRow[]> {
  if (!shipmentIds.length) return [];
  return db.select().from(shipmentItems).where(anyOf(shipmentItems.shipmentId, shipmentIds)).orderBy(asc(shipmentItems.id));
}
