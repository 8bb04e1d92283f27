// Shipments: the second hot list, with their items as includes, written by the database (sql.ts) in one statement per
// page. Webhook payloads of shipments are made here too (events.ts).
import { sql } from 'drizzle-orm';
import { Shipment } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { ShipmentRow } from '../modules/shipments/service.ts';
import type { IdQuery, ResourceObject } from './resource.ts';
import { describe, heldMany, toOne } from './description.ts';
import { documents, inPage, pageRows, pageText, type Parts } from './sql.ts';
import { shipmentItemSql } from './shipment-items.ts';

const { shipments, shipmentItems } = schema;

/** The shipment: each attribute from a column of its row, its relationships; its mapper and its SQL both come from here. */
const shipment = describe(Shipment, shipments, 'shipments', {
  attributes: {
    status: 'status',
    readyToPickOn: 'readyToPickOn',
    readyToShipOn: 'readyToShipOn',
    shippedOn: 'shippedOn',
    warehouseCode: 'warehouseCode',
    weight: 'weight',
    invoicingWeight: 'invoicingWeight',
    basketPicture: 'basketPicture',
    returnLabel: 'returnLabel',
    metadata: 'metadata',
    tracking: 'tracking',
    colli: 'colli',
  },
  relationships: {
    order: toOne('order', 'orderId'),
    orderType: toOne('orderType', 'orderTypeId'),
    shipmentItems: heldMany('shipmentItem', shipmentItems.id, shipmentItems.shipmentId),
    shippingMethod: toOne('shippingMethod', 'shippingMethodId'),
  },
});

/** The shipment from its row and the ids of its items (server/test/representation.test.ts holds it to the SQL on real rows). */
export const shipmentResource = (s: ShipmentRow, itemIds: number[], base: string): ResourceObject =>
  shipment.map(s, { shipmentItems: itemIds }, base);
export const shipmentSql = shipment.sql;

const items = sql`select ${shipmentItemSql.json}, 0, 0, ${shipmentItems.id} from ${shipmentItems} where ${inPage(shipmentItems.shipmentId)}`;
/** The kinds of shipment pages, each rendered once (sql.ts): with or without items, and a list page that ends early rather than include more items than the per-page bound. */
const shipmentParts = {
  alone: { data: pageRows(shipmentSql), included: [] },
  withItems: { data: pageRows(shipmentSql), included: [items] },
  listWithItems: { data: pageRows(shipmentSql), included: [items], itemsOwner: shipmentItems.shipmentId },
} satisfies Record<string, Parts>;

/** The shipments whose ids `ids` selects, with their items when `withItems`. */
export const shipmentDocuments = (db: Db, ids: IdQuery, withItems: boolean, base: string) =>
  documents(db, base, ids, withItems ? shipmentParts.withItems : shipmentParts.alone);
/** A list page of shipments; with their items included, it ends early rather than include more than the per-page bound. */
export const shipmentPageText = (db: Db, ids: IdQuery, withItems: boolean, base: string) =>
  pageText(db, base, ids, withItems ? shipmentParts.listWithItems : shipmentParts.alone);
