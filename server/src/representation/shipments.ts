// Shipments: the second hot list, with their items as includes, written by the database (sql.ts) in one statement per
// page. Webhook payloads of shipments are made here too (events.ts).
import { sql } from 'drizzle-orm';
import { Shipment, metadataExtraFields } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { ShipmentRow } from '../modules/shipments/service.ts';
import { extras, many, one, self, type IdQuery, type ResourceObject } from './resource.ts';
import { iso } from '../platform/time.ts';
import { documents, inPage, isoText, manyText, oneText, pageArray, pageText, resource, type Parts } from './sql.ts';
import { shipmentItemSql } from './shipment-items.ts';

const { shipments, shipmentItems } = schema;

/** The shipment from its row and the ids of its items: the definition the SQL below is held to. */
export function shipmentResource(s: ShipmentRow, itemIds: number[], base: string): ResourceObject {
  return {
    type: 'shipment',
    id: s.id,
    attributes: {
      status: s.status,
      readyToPickOn: iso(s.readyToPickOn),
      readyToShipOn: iso(s.readyToShipOn),
      shippedOn: iso(s.shippedOn),
      warehouseCode: s.warehouseCode,
      weight: s.weight,
      invoicingWeight: s.invoicingWeight,
      basketPicture: s.basketPicture,
      returnLabel: s.returnLabel,
      metadata: extras(s.metadata, metadataExtraFields),
      tracking: s.tracking && {
        carrier: s.tracking.carrier ?? null,
        number: s.tracking.number ?? null,
        stage: s.tracking.stage ?? null,
        status: s.tracking.status ?? null,
        url: s.tracking.url ?? null,
      },
      colli: s.colli.map((c) => ({ number: c.number ?? null, parcelNumber: c.parcelNumber ?? null, trackingUrl: c.trackingUrl ?? null })),
    },
    relationships: {
      order: one('order', s.orderId),
      orderType: one('orderType', s.orderTypeId),
      shipmentItems: many('shipmentItem', itemIds),
      shippingMethod: one('shippingMethod', s.shippingMethodId),
    },
    links: self(base, 'shipments', s.id),
  };
}

const shipmentSql = resource(Shipment, shipments.id, 'shipments', {
  attributes: {
    status: shipments.status,
    readyToPickOn: isoText(shipments.readyToPickOn),
    readyToShipOn: isoText(shipments.readyToShipOn),
    shippedOn: isoText(shipments.shippedOn),
    warehouseCode: shipments.warehouseCode,
    weight: shipments.weight,
    invoicingWeight: shipments.invoicingWeight,
    basketPicture: shipments.basketPicture,
    returnLabel: shipments.returnLabel,
    metadata: shipments.metadata,
    tracking: shipments.tracking,
    colli: shipments.colli,
  },
  relationships: {
    order: oneText('order', shipments.orderId),
    orderType: oneText('orderType', shipments.orderTypeId),
    shipmentItems: manyText('shipmentItem', shipmentItems.id, shipmentItems.shipmentId),
    shippingMethod: oneText('shippingMethod', shipments.shippingMethodId),
  },
});

const items = sql`select ${shipmentItemSql.json}, 0, 0, ${shipmentItems.id} from ${shipmentItems} where ${inPage(shipmentItems.shipmentId)}`;
/** The kinds of shipment pages, each rendered once (sql.ts): with or without items, and a list page that ends early rather than include more items than the per-page bound. */
const shipmentParts = {
  alone: { data: pageArray(shipmentSql), included: [] },
  withItems: { data: pageArray(shipmentSql), included: [items] },
  listWithItems: { data: pageArray(shipmentSql), included: [items], itemsOwner: shipmentItems.shipmentId },
} satisfies Record<string, Parts>;

/** The shipments whose ids `ids` selects, with their items when `withItems`. */
export const shipmentDocuments = (db: Db, ids: IdQuery, withItems: boolean, base: string) =>
  documents(db, base, ids, withItems ? shipmentParts.withItems : shipmentParts.alone);
/** A list page of shipments; with their items included, it ends early rather than include more than the per-page bound. */
export const shipmentPageText = (db: Db, ids: IdQuery, withItems: boolean, base: string) =>
  pageText(db, base, ids, withItems ? shipmentParts.listWithItems : shipmentParts.alone);
