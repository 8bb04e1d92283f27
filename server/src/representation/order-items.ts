// Order items: one line of an order. Read alone and included in orders, through the SQL fast path.
import { OrderItem } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { OrderItemRow } from '../modules/orders/service.ts';
import { extras, one, self, type IdQuery, type ResourceObject } from './resource.ts';
import { oneText, resource, tableDocuments } from './sql.ts';

const { orderItems } = schema;

/** The order item from its row: the definition the SQL below is held to (server/test/representation.test.ts). */
export function orderItemResource(i: OrderItemRow, base: string): ResourceObject {
  return {
    type: 'orderItem',
    id: i.id,
    attributes: {
      sku: i.sku,
      quantity: i.quantity,
      channelIdentifier: i.channelIdentifier,
      fulfillFrom: i.fulfillFrom,
      price: i.price,
      vat: i.vat,
      name: i.name,
      metadata: extras(i.metadata, ['extra6', 'extra7']),
    },
    relationships: { order: one('order', i.orderId), product: one('product', i.productId) },
    links: self(base, 'orderItems', i.id),
  };
}

export const orderItemSql = resource(OrderItem, orderItems.id, 'orderItems', {
  attributes: {
    sku: orderItems.sku,
    quantity: orderItems.quantity,
    channelIdentifier: orderItems.channelIdentifier,
    fulfillFrom: orderItems.fulfillFrom,
    price: orderItems.price,
    vat: orderItems.vat,
    name: orderItems.name,
    metadata: orderItems.metadata,
  },
  relationships: { order: oneText('order', orderItems.orderId), product: oneText('product', orderItems.productId) },
});

/** The order items whose ids `ids` selects, in id order. */
export const orderItemDocuments = (db: Db, ids: IdQuery, base: string) => tableDocuments(db, orderItemSql, ids, base);
