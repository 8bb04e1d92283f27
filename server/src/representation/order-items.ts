// Order items: one line of an order. Read alone and included in orders, through the SQL fast path.
import { OrderItem } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { OrderItemRow } from '../modules/orders/service.ts';
import type { IdQuery, ResourceObject } from './resource.ts';
import { describe, toOne } from './description.ts';
import { tableDocuments } from './sql.ts';

const { orderItems } = schema;

/** The order item: each attribute from a column of its row, its relationships; its mapper and its SQL both come from here. */
const orderItem = describe(OrderItem, orderItems, 'orderItems', {
  attributes: {
    sku: 'sku',
    quantity: 'quantity',
    channelIdentifier: 'channelIdentifier',
    fulfillFrom: 'fulfillFrom',
    price: 'price',
    vat: 'vat',
    name: 'name',
    metadata: 'metadata',
  },
  relationships: { order: toOne('order', 'orderId'), product: toOne('product', 'productId') },
});

/** The order item from its row (server/test/representation.test.ts holds it to the SQL on real rows). */
export const orderItemResource = (i: OrderItemRow, base: string): ResourceObject => orderItem.map(i, {}, base);
export const orderItemSql = orderItem.sql;

/** The order items whose ids `ids` selects, in id order. */
export const orderItemDocuments = (db: Db, ids: IdQuery, base: string) => tableDocuments(db, orderItemSql, ids, base);
