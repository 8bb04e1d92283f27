// Shipment items: what a shipment carries. Read alone and included in shipments, through the SQL fast path.
import { ShipmentItem } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { ShipmentItemRow } from '../modules/shipments/service.ts';
import type { IdQuery, ResourceObject } from './resource.ts';
import { describe, toOne } from './description.ts';
import { tableDocuments } from './sql.ts';

const { shipmentItems } = schema;

/** The shipment item: each attribute from a column of its row, its relationships; its mapper and its SQL both come from here. */
const shipmentItem = describe(ShipmentItem, shipmentItems, 'shipmentItems', {
  attributes: {
    sku: 'sku',
    quantity: 'quantity',
    lotNumber: 'lotNumber',
    expirationDate: 'expirationDate',
    serialNumbers: 'serialNumbers',
  },
  relationships: {
    orderItem: toOne('orderItem', 'orderItemId'),
    product: toOne('product', 'productId'),
    shipment: toOne('shipment', 'shipmentId'),
  },
});

/** The shipment item from its row (server/test/representation.test.ts holds it to the SQL on real rows). */
export const shipmentItemResource = (i: ShipmentItemRow, base: string): ResourceObject => shipmentItem.map(i, {}, base);
export const shipmentItemSql = shipmentItem.sql;

/** The shipment items whose ids `ids` selects, in id order. */
export const shipmentItemDocuments = (db: Db, ids: IdQuery, base: string) => tableDocuments(db, shipmentItemSql, ids, base);
