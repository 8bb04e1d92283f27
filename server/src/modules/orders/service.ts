// Orders: creation from a plain order (whichever API it came from), reading with related resources, updates, cancellation.
import { and, asc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import { defaults, euCountryCodes, type WarehouseCode } from '@shopapi/contract';
import { type Db, isUniqueViolation, ownedBy, schema } from '../../platform/db/index.ts';
import { clientNow } from '../clients/service.ts';
import type { OrderItemRow, OrderPlacing, OrderRow, PlacedOrder } from './repository.ts';
import { changedFields, type OrderFields, placedFields } from './fields.ts';
import type { Client } from '../clients/client.ts';
import { findOrderType, warehousesOf } from '../reference/service.ts';
import type { Page } from '../../platform/page.ts';
import { noInputWarnings, type InputWarnings } from '../../platform/request-warnings.ts';
import { dayAfter, startOfDay } from '../../platform/time.ts';
import { domainError, ProblemCollector } from '../../platform/errors.ts';

const { orders, orderItems, addresses, pickUpPoints, shipments, shipmentItems } = schema;

export type { OrderFields, OrderItemRow, OrderRow, PlacedOrder };

/** Free fields (extra1..extra5 on an order, extra6 and extra7 on an item). */
type Metadata = Record<string, string | null>;

export interface AddressInput {
  firstName?: string | null;
  lastName?: string | null;
  prefix?: string | null;
  company?: string | null;
  street1: string;
  street2?: string | null;
  houseNumber?: string | null;
  houseNumberExtension?: string | null;
  postcode?: string | null;
  city: string;
  region?: string | null;
  countryCode: string;
  translatedName?: string | null;
}

export interface PickUpPointInput {
  identifier: string;
  registrationNumber?: string | null;
  name?: string | null;
  street1?: string | null;
  street2?: string | null;
  postcode?: string | null;
  houseNumber?: string | null;
  houseNumberExtension?: string | null;
  city?: string | null;
  region?: string | null;
  countryCode: string;
}

export interface OrderItemInput {
  sku: string;
  quantity: number;
  channelIdentifier?: string | null;
  fulfillFrom?: WarehouseCode | null;
  price?: number | null;
  /** A fraction (0.21). */
  vat?: number | null;
  name?: string | null;
  metadata?: Metadata | null;
}

/**
 * An order in domain terms, whichever API it came from (v3 document or v2 flat fields). Problems and warnings name
 * their place by a path into it: ['externalOrderNumber'], ['orderTypeId'], ['items', 0, 'sku'], ['billingAddress'].
 */
export interface NewOrder extends OrderFields {
  orderTypeId: number;
  /** A main shipping method; the client's default when absent. */
  preferredShippingMethodId?: number;
  /** Absent only when the caller has already recorded why in its problems. */
  deliveryAddress: AddressInput | undefined;
  /** Absent: the client gave none, so the delivery address is billed; 'delivery': the client named the delivery address. */
  billingAddress?: AddressInput | 'delivery';
  pickUpPoint?: PickUpPointInput;
  items: OrderItemInput[];
  /** v2: false when the address lacks a required house number; such an order is not shipped until fixed. */
  isValid?: boolean;
}

/** The changes of PUT: every field the order has is given, except that optional ones left out keep their value. */
export interface OrderChanges extends OrderFields {
  onHold: boolean;
}

const existingOrderConflict = (id: number, externalOrderNumber: string) =>
  domainError('409-1', `An order with externalOrderNumber "${externalOrderNumber}" already exists.`, {
    path: ['externalOrderNumber'],
    existing: { type: 'order', id },
  });

async function findByExternalNumber(db: Db, clientId: number, externalOrderNumber: string) {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(ownedBy(orders, clientId), eq(orders.externalOrderNumber, externalOrderNumber)));
  return row;
}

/** What placeOrder filled in for what the client left out, noted once the order is stored. */
function noteDefaults(
  input: NewOrder,
  shippingMethod: { id: number; name: string },
  productBySku: Map<string, { name: string }>,
  warnings: InputWarnings,
) {
  if (input.email == null) warnings.add('default', `not given: the no-reply address ${defaults.noReplyEmail}`, ['email']);
  if (input.currency == null) warnings.add('default', `not given: ${defaults.currency}`, ['currency']);
  if (input.allowPartialDelivery == null) warnings.add('default', `not given: ${defaults.allowPartialDelivery}`, ['allowPartialDelivery']);
  if (input.preferredShippingMethodId === undefined)
    warnings.add('default', `not given: your main shipping method ${shippingMethod.id} (${shippingMethod.name})`, [
      'preferredShippingMethodId',
    ]);
  if (input.billingAddress === undefined)
    warnings.add('default', 'no billing address: the delivery address is the billing address', ['billingAddress']);
  input.items.forEach((item, index) => {
    if (item.vat == null) warnings.add('default', `not given: ${defaults.vat}`, ['items', index, 'vat']);
    if (!item.name) warnings.add('default', `not given: the product name "${productBySku.get(item.sku)!.name}"`, ['items', index, 'name']);
  });
}

/**
 * Checks an order against the client's data and stores it; every problem is reported together. One statement looks up
 * everything the order refers to and, when nothing is wrong, writes it and returns the rows written. The client's clock
 * (createdAt) is read by that statement, so the client's id is all it takes.
 * `placing`: the statement, with what the app has it write besides the order (ModuleServices.orderPlacing).
 */
export async function placeOrder(
  db: Db,
  placing: OrderPlacing,
  clientId: number,
  input: NewOrder,
  problems = new ProblemCollector(),
  warnings: InputWarnings = noInputWarnings,
): Promise<PlacedOrder> {
  const { deliveryAddress: delivery, billingAddress: billing, items } = input;
  const international = delivery && !euCountryCodes.has(delivery.countryCode.slice(0, 2));
  const needsPrice = (item: OrderItemInput) => international && !(Number(item.price ?? 0) > 0);
  // Problems found without the database: the statement then only looks up, so that every problem is reported together.
  const refused = problems.items.length > 0 || !delivery || items.some(needsPrice);
  let answer: Awaited<ReturnType<OrderPlacing['placeOrderRows']>>;
  try {
    answer = await placing.placeOrderRows(
      db,
      clientId,
      new Date(),
      {
        orderTypeId: input.orderTypeId,
        shippingMethodId: input.preferredShippingMethodId,
        order: { ...placedFields(input), isValid: input.isValid ?? true },
        delivery,
        billing: billing && billing !== 'delivery' ? billing : undefined,
        pickUpPoint: input.pickUpPoint,
        items: items.map((item) => ({
          sku: item.sku,
          quantity: item.quantity,
          channelIdentifier: item.channelIdentifier ?? null,
          fulfillFrom: item.fulfillFrom ?? null,
          price: item.price ?? null,
          vat: item.vat ?? defaults.vat,
          name: item.name || null,
          metadata: item.metadata ?? {},
        })),
      },
      !refused,
    );
  } catch (error) {
    if (isUniqueViolation(error, 'orders_client_external_key')) {
      const winner = await findByExternalNumber(db, clientId, input.externalOrderNumber);
      throw existingOrderConflict(winner?.id ?? 0, input.externalOrderNumber);
    }
    throw error;
  }
  const { orderType, shippingMethod, existing, productBySku } = answer.references;
  if (!orderType) problems.add('404-2', `Order type ${input.orderTypeId} not found.`, { path: ['orderTypeId'] });
  if (!shippingMethod)
    problems.add('404-3', `Shipping method ${input.preferredShippingMethodId} is not one of your main shipping methods.`, {
      path: ['preferredShippingMethodId'],
    });
  if (existing) problems.items.push(existingOrderConflict(existing.id, input.externalOrderNumber).items[0]);
  items.forEach((item, index) => {
    if (!productBySku.has(item.sku)) problems.add('404-1', `SKU "${item.sku}" not found.`, { path: ['items', index, 'sku'] });
    if (needsPrice(item)) {
      problems.add('400', 'Items shipped outside the EU need a price above 0 for customs.', { path: ['items', index, 'price'] });
    }
  });
  problems.throwIfAny();
  // No problem, so the statement wrote the order.
  noteDefaults(input, shippingMethod!, productBySku, warnings);
  return answer.placed!;
}

/** The client's order (or order item) with this id; another client's is not there. */
const ownOrder = (clientId: number, id: number) => and(ownedBy(orders, clientId), eq(orders.id, id));
const ownOrderItem = (clientId: number, id: number) => and(ownedBy(orderItems, clientId), eq(orderItems.id, id));

export async function findOrder(db: Db, clientId: number, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(ownOrder(clientId, id));
  return row;
}

/** The id of the client's order as a query; another client's order selects nothing. */
export function orderById(db: Db, clientId: number, id: number) {
  return db.select({ id: orders.id }).from(orders).where(ownOrder(clientId, id));
}

/**
 * The external number and order type of these orders. No client filter: callers pass ids read from the client's own
 * rows (shipments, return items), which is the tenancy check.
 */
export async function ordersByIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db
    .select({ id: orders.id, externalOrderNumber: orders.externalOrderNumber, orderTypeId: orders.orderTypeId })
    .from(orders)
    .where(inArray(orders.id, ids));
}

export async function requireOrder(db: Db, clientId: number, id: number): Promise<OrderRow> {
  const order = await findOrder(db, clientId, id);
  if (!order) throw domainError('404-5', `Order ${id} not found.`);
  return order;
}

export interface OrderFilters {
  orderedOnLt?: string;
  orderedOnGt?: string;
  externalOrderNumbers?: string[];
  references?: string[];
}

/** The ids of one page of the client's orders, as a query (the v3 documents are built around it in one statement). */
export function orderPage(db: Db, clientId: number, filters: OrderFilters, page: Page) {
  const conditions = [ownedBy(orders, clientId), gt(orders.id, page.cursor)];
  if (filters.orderedOnLt) conditions.push(lt(orders.orderedOn, startOfDay(filters.orderedOnLt)));
  if (filters.orderedOnGt) conditions.push(gte(orders.orderedOn, dayAfter(filters.orderedOnGt)));
  if (filters.externalOrderNumbers) conditions.push(inArray(orders.externalOrderNumber, filters.externalOrderNumbers));
  if (filters.references) conditions.push(inArray(orders.reference, filters.references));
  return db
    .select({ id: orders.id })
    .from(orders)
    .where(and(...conditions))
    .orderBy(asc(orders.id))
    .limit(page.size);
}

/** The order with this external order number; another client's number is not found (404-6). */
export async function requireOrderByExternalNumber(db: Db, clientId: number, externalOrderNumber: string): Promise<OrderRow> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(ownedBy(orders, clientId), eq(orders.externalOrderNumber, externalOrderNumber)));
  if (!row) throw domainError('404-6', `Order "${externalOrderNumber}" not found.`);
  return row;
}

/** Takes an order off hold so the warehouse may ship it; an order not on hold stays as it is. */
export async function releaseOrder(db: Db, clientId: number, externalOrderNumber: string): Promise<void> {
  const order = await requireOrderByExternalNumber(db, clientId, externalOrderNumber);
  await db.update(orders).set({ onHold: false }).where(ownOrder(clientId, order.id));
}

export function assertNotFulfilled(order: OrderRow, code: '422' | '422-1' = '422') {
  if (order.fulfilledAt) throw domainError(code, `Order ${order.id} is already fulfilled and cannot be modified; no changes were applied.`);
}

/** Changes the order (read by the caller with requireOrder); a fulfilled order is not changed (422). */
export async function updateOrder(
  db: Db,
  client: Client,
  order: OrderRow,
  a: OrderChanges,
  warnings: InputWarnings = noInputWarnings,
): Promise<void> {
  const { id } = order;
  assertNotFulfilled(order);
  const problems = new ProblemCollector();
  if (a.currency != null && a.currency !== order.currency) problems.add('400', 'currency cannot be changed.', { path: ['currency'] });
  if (a.channelIdentifier != null && a.channelIdentifier !== order.channelIdentifier)
    problems.add('400', 'channelIdentifier cannot be changed.', { path: ['channelIdentifier'] });
  const today = clientNow(client).toISOString().slice(0, 10);
  if (a.preferredShippingDate && a.preferredShippingDate < today)
    problems.add('400', `preferredShippingDate must be today (${today}) or later.`, { path: ['preferredShippingDate'] });
  if (a.fulfillFrom && a.fulfillFrom !== order.fulfillFrom) {
    const strategy = await warehousesOf(db, client.id, order.preferredShippingMethodId);
    if (!strategy.includes(a.fulfillFrom))
      problems.add('400', `fulfillFrom must be one of the warehouses of the order's shipping method: ${strategy.join(', ')}.`, {
        path: ['fulfillFrom'],
      });
  }
  if (a.externalOrderNumber !== order.externalOrderNumber) {
    const other = await findByExternalNumber(db, client.id, a.externalOrderNumber);
    if (other) problems.items.push(existingOrderConflict(other.id, a.externalOrderNumber).items[0]);
  }
  problems.throwIfAny();

  let allowPartialDelivery = order.allowPartialDelivery;
  if (a.allowPartialDelivery === null)
    allowPartialDelivery = (await findOrderType(db, client.id, order.orderTypeId))?.allowPartialDelivery ?? defaults.allowPartialDelivery;
  else if (a.allowPartialDelivery !== undefined) allowPartialDelivery = a.allowPartialDelivery;

  try {
    await db.transaction(async (tx) => {
      const [current] = await tx.select({ fulfilledAt: orders.fulfilledAt }).from(orders).where(eq(orders.id, id)).for('update');
      if (current.fulfilledAt)
        throw domainError('422', `Order ${id} is already fulfilled and cannot be modified; no changes were applied.`);
      await tx
        .update(orders)
        .set({ ...changedFields(a, order), allowPartialDelivery })
        .where(eq(orders.id, id));
    });
  } catch (error) {
    if (isUniqueViolation(error, 'orders_client_external_key'))
      throw domainError('409-1', `An order with externalOrderNumber "${a.externalOrderNumber}" already exists.`, {
        path: ['externalOrderNumber'],
      });
    throw error;
  }
  if (a.email == null) warnings.add('default', `not given: the no-reply address ${defaults.noReplyEmail}`, ['email']);
  if (a.allowPartialDelivery === null)
    warnings.add('default', `null: the order type's default, ${allowPartialDelivery}`, ['allowPartialDelivery']);
  if (a.metadata == null && Object.values(order.metadata).some((value) => value != null))
    warnings.add('default', 'not given: the stored metadata is erased', ['metadata']);
}

/** Quantity per order item that shipments already cover (in any state): that part can no longer be cancelled. */
async function coveredQuantities(db: Db, itemIds: number[]): Promise<Map<number, number>> {
  if (!itemIds.length) return new Map();
  const rows = await db
    .select({ orderItemId: shipmentItems.orderItemId, quantity: sql<number>`sum(${shipmentItems.quantity})::int` })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(inArray(shipmentItems.orderItemId, itemIds))
    .groupBy(shipmentItems.orderItemId);
  return new Map(rows.map((r) => [r.orderItemId!, Number(r.quantity)]));
}

/** Cancels what shipments do not cover; returns the ids of the items whose quantity went down. */
export async function cancelItems(db: Db, clientId: number, orderId: number, onlyItemId?: number): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.select({ id: orders.id }).from(orders).where(ownOrder(clientId, orderId)).for('update');
    const conditions = [eq(orderItems.orderId, orderId), ownedBy(orderItems, clientId)];
    if (onlyItemId !== undefined) conditions.push(eq(orderItems.id, onlyItemId));
    const items = await tx
      .select()
      .from(orderItems)
      .where(and(...conditions));
    const covered = await coveredQuantities(
      tx,
      items.map((i) => i.id),
    );
    const modified: number[] = [];
    for (const item of items) {
      const keepQuantity = covered.get(item.id) ?? 0;
      if (item.quantity > keepQuantity) {
        await tx.update(orderItems).set({ quantity: keepQuantity }).where(eq(orderItems.id, item.id));
        modified.push(item.id);
      }
    }
    return modified.sort((x, y) => x - y);
  });
}

/** The id of the client's order item as a query. */
export function orderItemById(db: Db, clientId: number, id: number) {
  return db.select({ id: orderItems.id }).from(orderItems).where(ownOrderItem(clientId, id));
}

export async function findOrderItem(db: Db, clientId: number, id: number): Promise<OrderItemRow | undefined> {
  const [row] = await db.select().from(orderItems).where(ownOrderItem(clientId, id));
  return row;
}

/** The metadata of these order items. No client filter: the ids come from the client's own shipment items. */
export async function orderItemMetadataByIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.select({ id: orderItems.id, metadata: orderItems.metadata }).from(orderItems).where(inArray(orderItems.id, ids));
}

/** The id of the client's address (delivery or billing) as a query; another client's selects nothing. */
export function addressById(db: Db, clientId: number, id: number) {
  return db
    .select({ id: addresses.id })
    .from(addresses)
    .where(and(ownedBy(addresses, clientId), eq(addresses.id, id)));
}

/** The id of the client's pick-up point as a query; another client's selects nothing. */
export function pickUpPointById(db: Db, clientId: number, id: number) {
  return db
    .select({ id: pickUpPoints.id })
    .from(pickUpPoints)
    .where(and(ownedBy(pickUpPoints, clientId), eq(pickUpPoints.id, id)));
}
