// Orders: the hottest list of the API, with its items, addresses and pick-up point as includes, written by the database
// (sql.ts) in one statement per page. Orders and their items are read from their stored JSON (stored.ts), which
// triggers write from the expressions below; addresses and pick-up points are written by the page's statement.
import { sql, type SQL } from 'drizzle-orm';
import { Order, orderIncludes } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { OrderRow, PlacedOrder } from '../modules/orders/service.ts';
import type { IdQuery, ResourceObject } from './resource.ts';
import { describe, heldMany, heldOne, toOne } from './description.ts';
import { documentBody, documents, inPage, madeOnce, pageText, type Parts } from './sql.ts';
import { orderItemResource } from './order-items.ts';
import { addressResource, addressSql } from './addresses.ts';
import { pickUpPointResource, pickUpPointSql } from './pick-up-points.ts';

const { orders, orderItems, addresses, pickUpPoints, orderAttachments, orderJson, orderItemJson } = schema;

/** The order: each attribute from a column of its row, its relationships; its mapper and its SQL both come from here. */
const order = describe(Order, orders, 'orders', {
  attributes: {
    externalOrderNumber: 'externalOrderNumber',
    locale: 'locale',
    reference: 'reference',
    orderedOn: 'orderedOn',
    consumerReference: 'consumerReference',
    promotionCode: 'promotionCode',
    email: 'email',
    phoneNumber: 'phoneNumber',
    vatNumber: 'vatNumber',
    fulfillFrom: 'fulfillFrom',
    preferredShippingDate: 'preferredShippingDate',
    allowPartialDelivery: 'allowPartialDelivery',
    onHold: 'onHold',
    metadata: 'metadata',
    channelIdentifier: 'channelIdentifier',
    currency: 'currency',
    createdOn: 'createdAt',
  },
  relationships: {
    orderType: toOne('orderType', 'orderTypeId'),
    preferredShippingMethod: toOne('shippingMethod', 'preferredShippingMethodId'),
    deliveryAddress: toOne('address', 'deliveryAddressId'),
    billingAddress: toOne('address', 'billingAddressId'),
    pickUpPoint: heldOne('pickUpPoint', pickUpPoints.id, pickUpPoints.orderId),
    orderItems: heldMany('orderItem', orderItems.id, orderItems.orderId),
    orderAttachments: heldMany('orderAttachment', orderAttachments.id, orderAttachments.orderId),
  },
});

/** The ids of the resources an order points to that are not columns of its row. */
export interface OrderRelated {
  pickUpPointId: number | null;
  orderItemIds: number[];
  orderAttachmentIds: number[];
}

/** The order from its row (server/test/representation.test.ts holds it to the SQL on real rows). */
export const orderResource = (o: OrderRow, related: OrderRelated, base: string): ResourceObject =>
  order.map(
    o,
    { pickUpPoint: related.pickUpPointId, orderItems: related.orderItemIds, orderAttachments: related.orderAttachmentIds },
    base,
  );

/** The order's resource object as the database writes it: what its stored JSON is made of (stored.ts). */
export const orderSql = order.sql;

/**
 * Orders in page order, and the related resources `include` names grouped by order (items, delivery and billing
 * address, pick-up point), each once; `cut`: a list page that ends early rather than include more items than the
 * per-page bound. Made once per combination, so each statement is rendered once (sql.ts).
 */
function makeOrderParts(include: ReadonlySet<string>, cut: boolean): Parts {
  const included: SQL[] = [];
  if (include.has('orderItems'))
    included.push(
      sql`select ${orderItemJson.json}, ${orderItemJson.orderId}, 0, ${orderItemJson.orderItemId} from ${orderItemJson} where ${inPage(orderItemJson.orderId)}`,
    );
  if (include.has('deliveryAddress'))
    included.push(
      sql`select ${addressSql.json}, ${orders.id}, 1, ${addresses.id} from ${orders} join ${addresses} on ${addresses.id} = ${orders.deliveryAddressId} where ${inPage(orders.id)}`,
    );
  if (include.has('billingAddress')) {
    // An order whose billing address is its delivery address includes that address once.
    const once = include.has('deliveryAddress') ? sql` and ${orders.billingAddressId} <> ${orders.deliveryAddressId}` : sql``;
    included.push(
      sql`select ${addressSql.json}, ${orders.id}, 2, ${addresses.id} from ${orders} join ${addresses} on ${addresses.id} = ${orders.billingAddressId} where ${inPage(orders.id)}${once}`,
    );
  }
  if (include.has('pickUpPoint'))
    included.push(
      sql`select ${pickUpPointSql.json}, ${pickUpPoints.orderId}, 3, ${pickUpPoints.id} from ${pickUpPoints} where ${inPage(pickUpPoints.orderId)}`,
    );
  const data = sql`select ${orderJson.json}, ${orderJson.orderId} from ${orderJson} where ${inPage(orderJson.orderId)}`;
  return { data, included, stored: true, ...(cut && include.has('orderItems') ? { itemsOwner: orderItems.orderId } : {}) };
}
const orderParts = madeOnce((key: string) => {
  const [cut, ...include] = key.split(',');
  return makeOrderParts(new Set(include), cut === 'cut');
});
/** The parts for these includes, the same object for the same includes in any order. */
const orderPartsOf = (include: ReadonlySet<string>, cut: boolean) =>
  orderParts([cut ? 'cut' : 'whole', ...orderIncludes.filter((path) => include.has(path))].join());

/** The orders whose ids `ids` selects, with the related resources `include` names. */
export const orderDocuments = (db: Db, ids: IdQuery, include: ReadonlySet<string>, base: string) =>
  documents(db, base, ids, orderPartsOf(include, false));
/** A list page of orders; with their items included, it ends early rather than include more than the per-page bound. */
export const orderPageText = (db: Db, ids: IdQuery, include: ReadonlySet<string>, base: string) =>
  pageText(db, base, ids, orderPartsOf(include, true));

/**
 * The answer to a create, from the rows placeOrder wrote, through the representation's mappers (the definitions its SQL
 * is held to) and in the order orderDocuments gives: items, delivery address, billing address (once), pick-up point.
 * It saves reading the order back; server/test/orders.test.ts holds it equal to GET /v3/orders/{id}.
 */
export function createdOrderDocument(placed: PlacedOrder, include: ReadonlySet<string>, base: string) {
  const { order, items, deliveryAddress, billingAddress, pickUpPoint } = placed;
  const data = orderResource(
    order,
    { pickUpPointId: pickUpPoint?.id ?? null, orderItemIds: items.map((item) => item.id), orderAttachmentIds: [] },
    base,
  );
  const included: ResourceObject[] = [];
  if (include.has('orderItems')) included.push(...items.map((item) => orderItemResource(item, base)));
  if (include.has('deliveryAddress')) included.push(addressResource(deliveryAddress, base));
  if (include.has('billingAddress') && !(include.has('deliveryAddress') && billingAddress.id === deliveryAddress.id))
    included.push(addressResource(billingAddress, base));
  if (include.has('pickUpPoint') && pickUpPoint) included.push(pickUpPointResource(pickUpPoint, base));
  return { data, ...(include.size ? { included } : {}) };
}

/**
 * The create answer as the JSON text it is sent as: createdOrderDocument written out as the list pages' text is, without
 * the response serializer (the names are the contract's, checked at start; the mappers are held to the SQL the list
 * pages send). Under the create load the serializer took about a twelfth of the server's time per create: choosing the
 * schema of each included resource validated it against every candidate first.
 */
export function createdOrderBody(placed: PlacedOrder, include: ReadonlySet<string>, base: string): Buffer {
  const { data, included } = createdOrderDocument(placed, include, base);
  return documentBody({ data: JSON.stringify(data), ...(included ? { included: JSON.stringify(included) } : {}) });
}
