// The v2 view of shipments: unsynced and labeled lists, the all-or-nothing sync, search and tracking in transit.
import { and, asc, eq, gte, inArray, isNotNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import { requireEveryId } from '../shared/sync.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { daysBefore, dayAfter, startOfDay } from '../../platform/time.ts';
import type { ShipmentRow } from './service.ts';

const { shipments, orders } = schema;

/** A shipment is labeled once it has a tracking number; it is shipped when SHIPPED. Each list has its own synced flag. */
export type SyncList = 'shipped' | 'labeled';

const visible = (client: Client) => gte(shipments.createdAt, daysBefore(clientNow(client), limits.shipmentRetentionDays));
const unsynced = (list: SyncList) =>
  list === 'shipped'
    ? and(eq(shipments.status, 'SHIPPED'), eq(shipments.synced, false))
    : and(isNotNull(shipments.tracking), eq(shipments.labeledSynced, false));

export async function unsyncedShipments(db: Db, client: Client, list: SyncList, orderTypeIds?: number[]): Promise<ShipmentRow[]> {
  const conditions = [ownedBy(shipments, client.id), visible(client), unsynced(list)];
  if (orderTypeIds) conditions.push(inArray(shipments.orderTypeId, orderTypeIds));
  return db
    .select()
    .from(shipments)
    .where(and(...conditions))
    .orderBy(asc(shipments.id))
    .limit(limits.v2ShipmentListMax);
}

/** Marks shipments synced, all or nothing: an id that is unknown or another client's leaves every shipment as it was. */
export async function syncShipments(db: Db, client: Client, list: SyncList, ids: number[]): Promise<void> {
  await db.transaction(async (tx) => {
    const found = await tx
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(ownedBy(shipments, client.id), inArray(shipments.id, ids), visible(client)))
      // In id order, as the warehouse locks several shipments of an order: no two lockers wait for each other's rows.
      .orderBy(asc(shipments.id))
      .for('update');
    requireEveryId(ids, found);
    await tx
      .update(shipments)
      .set(list === 'shipped' ? { synced: true } : { labeledSynced: true })
      .where(and(ownedBy(shipments, client.id), inArray(shipments.id, ids)));
  });
}

export interface ShipmentSearch {
  id?: number | null;
  externalOrderNumber?: string | null;
  shippingDate?: string | null;
}

/** Shipments matching every criterion given; with none, those shipped in the past 24 hours of the client's clock. */
export async function searchShipments(db: Db, client: Client, search: ShipmentSearch): Promise<ShipmentRow[]> {
  const conditions: (SQL | undefined)[] = [ownedBy(shipments, client.id), visible(client)];
  if (search.id) conditions.push(eq(shipments.id, search.id));
  if (search.externalOrderNumber) {
    conditions.push(
      inArray(
        shipments.orderId,
        db
          .select({ id: orders.id })
          .from(orders)
          .where(and(ownedBy(orders, client.id), eq(orders.externalOrderNumber, search.externalOrderNumber))),
      ),
    );
  }
  if (search.shippingDate)
    conditions.push(gte(shipments.shippedOn, startOfDay(search.shippingDate)), lt(shipments.shippedOn, dayAfter(search.shippingDate)));
  if (!search.id && !search.externalOrderNumber && !search.shippingDate)
    conditions.push(gte(shipments.shippedOn, daysBefore(clientNow(client), 1)));
  return db
    .select()
    .from(shipments)
    .where(and(...conditions))
    .orderBy(asc(shipments.id))
    .limit(limits.v2ShipmentListMax);
}

/** Shipments with tracking that are not delivered yet. */
export async function shipmentsInTransit(db: Db, client: Client): Promise<ShipmentRow[]> {
  const stage = sql`${shipments.tracking}->>'stage'`;
  return db
    .select()
    .from(shipments)
    .where(
      and(ownedBy(shipments, client.id), visible(client), isNotNull(shipments.tracking), or(sql`${stage} is null`, ne(stage, 'DELIVERED'))),
    )
    .orderBy(asc(shipments.id));
}
