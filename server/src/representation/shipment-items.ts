// Shipment items: what a shipment carries. Read alone and included in shipments, through the SQL fast path.
import { ShipmentItem } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { ShipmentItemRow } from '../modules/shipments/service.ts';
import { one, self, type IdQuery, type ResourceObject } from './resource.ts';
import { oneText, resource, tableDocuments } from './sql.ts';

const { shipmentItems } = schema;

/** The shipment item from its row: the definition the SQL below is held to (server/test/representation.test.ts). */
export function shipmentItemResource(i: ShipmentItemRow, base: string): ResourceObject {
  return {
    type: 'shipmentItem',
    id: i.id,
    attributes: {
      sku: i.sku,
      quantity: i.quantity,
      lotNumber: i.lotNumber,
      expirationDate: i.expirationDate,
      serialNumbers: i.serialNumbers,
    },
    relationships: {
      orderItem: one('orderItem', i.orderItemId),
      product: one('product', i.productId),
      shipment: one('shipment', i.shipmentId),
    },
    links: self(base, 'shipmentItems', i.id),
  };
}

export const shipmentItemSql = resource(ShipmentItem, shipmentItems.id, 'shipmentItems', {
  attributes: {
    sku: shipmentItems.sku,
    quantity: shipmentItems.quantity,
    lotNumber: shipmentItems.lotNumber,
    expirationDate: shipmentItems.expirationDate,
    serialNumbers: shipmentItems.serialNumbers,
  },
  relationships: {
    orderItem: oneText('orderItem', shipmentItems.orderItemId),
    product: oneText('product', shipmentItems.productId),
    shipment: oneText('shipment', shipmentItems.shipmentId),
  },
});

/** The shipment items whose ids `ids` selects, in id order. */
export const shipmentItemDocuments = (db: Db, ids: IdQuery, base: string) => tableDocuments(db, shipmentItemSql, ids, base);
