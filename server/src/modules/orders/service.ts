// Orders: creation (from a v3 document or a domain-level input), reading with related resources, updates, cancellation.
import { and, asc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import {
  defaults,
  euCountryCodes,
  limits,
  type AddressWriteAttributes,
  type OrderCreateAttributes,
  type OrderCreateDocument,
  type OrderItemWriteAttributes,
  type OrderUpdateDocument,
  type PickUpPointWriteAttributes,
} from '@shopapi/contract';
import { isUniqueViolation, schema, type Db } from '../../platform/db/index.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { defaultMainShippingMethod, findMainShippingMethod, findOrderType, warehousesOf } from '../reference/service.ts';
import type { Page } from '../../platform/page.ts';
import { noWarnings, type WarningSink } from '../../platform/request-warnings.ts';
import { dayAfter, startOfDay } from '../../platform/time.ts';
import { domainError, ProblemCollector } from '../../platform/errors.ts';

const { orders, orderItems, addresses, pickUpPoints, products, shipments, shipmentItems } = schema;

export type OrderRow = typeof orders.$inferSelect;
export type OrderItemRow = typeof orderItems.$inferSelect;

type CreateDocument = Static<typeof OrderCreateDocument>;
type UpdateDocument = Static<typeof OrderUpdateDocument>;
type Included = NonNullable<CreateDocument['included']>[number];

const provisionalKey = (ref: { id?: string | number; lid?: string | number }) =>
  (ref.lid ?? ref.id) === undefined ? undefined : String(ref.lid ?? ref.id);

function orderedOnOf(value: string | null | undefined): Date | null {
  if (!value) return null;
  return new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
}

const existingOrderConflict = (id: number, externalOrderNumber: string, base: string) =>
  domainError('409-1', `An order with externalOrderNumber "${externalOrderNumber}" already exists.`, {
    pointer: '/data/attributes/externalOrderNumber',
    related: `${base}/v3/orders/${id}`,
  });

async function findByExternalNumber(db: Db, clientId: number, externalOrderNumber: string) {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.clientId, clientId), eq(orders.externalOrderNumber, externalOrderNumber)));
  return row;
}

/** Where a v3 document carries the order fields that have defaults. */
const documentSources: OrderSources = {
  email: '/data/attributes/email',
  currency: '/data/attributes/currency',
  allowPartialDelivery: '/data/attributes/allowPartialDelivery',
  preferredShippingMethod: '/data/relationships/preferredShippingMethod',
  billingAddress: '/data/relationships/billingAddress',
};

export async function createOrder(
  db: Db,
  client: Client,
  document: CreateDocument,
  base: string,
  warnings: WarningSink = noWarnings,
): Promise<number> {
  const { attributes, relationships } = document.data;
  const included = document.included ?? [];
  const problems = new ProblemCollector();

  const addressesByKey = new Map<string, { index: number; resource: Included }>();
  const items: { index: number; resource: Extract<Included, { type: 'orderItem' }> }[] = [];
  const pickUps: { index: number; resource: Extract<Included, { type: 'pickUpPoint' }> }[] = [];
  included.forEach((resource, index) => {
    if (resource.type === 'address') {
      const key = provisionalKey(resource);
      if (key === undefined)
        problems.add('400', 'An included address needs a provisional id that a relationship points to.', { pointer: `/included/${index}` });
      else if (addressesByKey.has(key))
        problems.add('400', `The provisional id "${key}" is used by two included addresses.`, { pointer: `/included/${index}/id` });
      else addressesByKey.set(key, { index, resource });
    } else if (resource.type === 'orderItem') items.push({ index, resource });
    else pickUps.push({ index, resource });
  });
  if (pickUps.length > 1) problems.add('400', 'An order has at most one pick-up point.', { pointer: `/included/${pickUps[1].index}` });
  if (items.length > limits.orderItemsMax)
    problems.add('400', `An order has at most ${limits.orderItemsMax} items; this one has ${items.length}.`, {
      pointer: `/included/${items[limits.orderItemsMax].index}`,
    });

  const linkedAddress = (name: 'deliveryAddress' | 'billingAddress') => {
    const ref = relationships[name];
    if (!ref) return undefined;
    const key = provisionalKey(ref.data);
    const found = key === undefined ? undefined : addressesByKey.get(key);
    if (!found)
      problems.add('400', `${name} must point to an address in included by its provisional id.`, {
        pointer: `/data/relationships/${name}`,
      });
    return found;
  };
  const delivery = linkedAddress('deliveryAddress');
  const billing = linkedAddress('billingAddress');
  for (const [key, entry] of addressesByKey) {
    if (entry !== delivery && entry !== billing)
      problems.add('400', `The included address "${key}" is not linked from the order.`, { pointer: `/included/${entry.index}` });
  }

  const addressOf = (entry: { resource: Included } | undefined) => entry?.resource.attributes as AddressInput | undefined;
  return placeOrder(
    db,
    client,
    {
      attributes,
      orderTypeId: Number(relationships.orderType.data.id),
      preferredShippingMethodId: relationships.preferredShippingMethod ? Number(relationships.preferredShippingMethod.data.id) : undefined,
      delivery: addressOf(delivery),
      billing: billing === undefined ? undefined : billing === delivery ? 'delivery' : addressOf(billing),
      pickUpPoint: pickUps[0]?.resource.attributes,
      items: items.map(({ index, resource }) => ({ attributes: resource.attributes, pointer: `/included/${index}/attributes` })),
      sources: documentSources,
    },
    base,
    problems,
    warnings,
  );
}

export type AddressInput = Static<typeof AddressWriteAttributes>;

/** An order in domain terms, whichever API it came from (v3 document or v2 flat fields). */
export interface NewOrder {
  attributes: Static<typeof OrderCreateAttributes>;
  orderTypeId: number;
  /** A main shipping method; the client's default when absent. */
  preferredShippingMethodId?: number;
  /** Absent only when the caller has already recorded why in its problems. */
  delivery: AddressInput | undefined;
  /** Absent: the client gave none, so the delivery address is billed; 'delivery': the client named the delivery address. */
  billing?: AddressInput | 'delivery';
  pickUpPoint?: Static<typeof PickUpPointWriteAttributes>;
  /** pointer: where the item is in the request, for error sources. */
  items: { attributes: Static<typeof OrderItemWriteAttributes>; pointer: string }[];
  /** v2: false when the address lacks a required house number; such an order is not shipped until fixed. */
  isValid?: boolean;
  /** Where the request carries the fields that have defaults: a warning for a default applied names that place. */
  sources: OrderSources;
}

export interface OrderSources {
  email: string;
  currency: string;
  allowPartialDelivery: string;
  preferredShippingMethod: string;
  billingAddress?: string;
}

/** What placeOrder filled in for what the client left out, noted once the order is stored. */
function noteDefaults(
  input: NewOrder,
  shippingMethod: { id: number; name: string },
  productBySku: Map<string, { name: string }>,
  warnings: WarningSink,
) {
  const { attributes, sources } = input;
  if (attributes.email == null) warnings.add('default', `not given: the no-reply address ${defaults.noReplyEmail}`, sources.email);
  if (attributes.currency == null) warnings.add('default', `not given: ${defaults.currency}`, sources.currency);
  if (attributes.allowPartialDelivery == null)
    warnings.add('default', `not given: ${defaults.allowPartialDelivery}`, sources.allowPartialDelivery);
  if (input.preferredShippingMethodId === undefined)
    warnings.add(
      'default',
      `not given: your main shipping method ${shippingMethod.id} (${shippingMethod.name})`,
      sources.preferredShippingMethod,
    );
  if (input.billing === undefined)
    warnings.add('default', 'no billing address: the delivery address is the billing address', sources.billingAddress);
  for (const { attributes: item, pointer } of input.items) {
    if (item.vat == null) warnings.add('default', `not given: ${defaults.vat}`, `${pointer}/vat`);
    if (!item.name) warnings.add('default', `not given: the product name "${productBySku.get(item.sku)!.name}"`, `${pointer}/name`);
  }
}

/** Checks an order against the client's data and stores it in one transaction; every problem is reported together. */
export async function placeOrder(
  db: Db,
  client: Client,
  input: NewOrder,
  base: string,
  problems = new ProblemCollector(),
  warnings: WarningSink = noWarnings,
): Promise<number> {
  const { attributes, delivery, billing, items } = input;
  const [orderType, shippingMethod, existing] = await Promise.all([
    findOrderType(db, client.id, input.orderTypeId),
    input.preferredShippingMethodId !== undefined
      ? findMainShippingMethod(db, client.id, input.preferredShippingMethodId)
      : defaultMainShippingMethod(db, client.id),
    findByExternalNumber(db, client.id, attributes.externalOrderNumber),
  ]);
  if (!orderType) problems.add('404-2', `Order type ${input.orderTypeId} not found.`, { pointer: '/data/relationships/orderType' });
  if (!shippingMethod)
    problems.add('404-3', `Shipping method ${input.preferredShippingMethodId} is not one of your main shipping methods.`, {
      pointer: '/data/relationships/preferredShippingMethod',
    });
  if (existing) problems.items.push(existingOrderConflict(existing.id, attributes.externalOrderNumber, base).items[0]);

  const skus = [...new Set(items.map((i) => i.attributes.sku))];
  const productRows = skus.length
    ? await db
        .select({ id: products.id, sku: products.sku, name: products.name })
        .from(products)
        .where(and(eq(products.clientId, client.id), inArray(products.sku, skus)))
    : [];
  const productBySku = new Map(productRows.map((p) => [p.sku, p]));
  const international = delivery && !euCountryCodes.has(delivery.countryCode.slice(0, 2));
  for (const { attributes: item, pointer } of items) {
    if (!productBySku.has(item.sku)) problems.add('404-1', `SKU "${item.sku}" not found.`, { pointer: `${pointer}/sku` });
    if (international && !(Number(item.price ?? 0) > 0)) {
      problems.add('400', 'Items shipped outside the EU need a price above 0 for customs.', { pointer: `${pointer}/price` });
    }
  }
  problems.throwIfAny();

  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const insertAddress = async (address: AddressInput) => {
        const [row] = await tx
          .insert(addresses)
          .values({ clientId: client.id, ...address })
          .returning({ id: addresses.id });
        return row.id;
      };
      const deliveryId = await insertAddress(delivery!);
      const billingId = billing && billing !== 'delivery' ? await insertAddress(billing) : deliveryId;
      const [order] = await tx
        .insert(orders)
        .values({
          clientId: client.id,
          externalOrderNumber: attributes.externalOrderNumber,
          locale: attributes.locale,
          reference: attributes.reference || null,
          orderedOn: orderedOnOf(attributes.orderedOn),
          consumerReference: attributes.consumerReference || null,
          promotionCode: attributes.promotionCode || null,
          email: attributes.email ?? defaults.noReplyEmail,
          phoneNumber: attributes.phoneNumber ?? null,
          vatNumber: attributes.vatNumber ?? null,
          fulfillFrom: attributes.fulfillFrom ?? null,
          preferredShippingDate: attributes.preferredShippingDate ?? null,
          allowPartialDelivery: attributes.allowPartialDelivery ?? defaults.allowPartialDelivery,
          onHold: attributes.onHold ?? defaults.onHold,
          metadata: attributes.metadata ?? {},
          channelIdentifier: attributes.channelIdentifier ?? null,
          currency: attributes.currency ?? defaults.currency,
          orderTypeId: orderType!.id,
          preferredShippingMethodId: shippingMethod!.id,
          deliveryAddressId: deliveryId,
          billingAddressId: billingId,
          isValid: input.isValid ?? true,
          createdAt: clientNow(client),
        })
        .returning({ id: orders.id });
      await tx
        .update(addresses)
        .set({ orderId: order.id })
        .where(inArray(addresses.id, [deliveryId, billingId]));
      if (input.pickUpPoint) await tx.insert(pickUpPoints).values({ clientId: client.id, orderId: order.id, ...input.pickUpPoint });
      if (items.length) {
        await tx.insert(orderItems).values(
          items.map(({ attributes: item }) => {
            const product = productBySku.get(item.sku)!;
            return {
              clientId: client.id,
              orderId: order.id,
              productId: product.id,
              sku: item.sku,
              quantity: item.quantity,
              orderedQuantity: item.quantity,
              channelIdentifier: item.channelIdentifier ?? null,
              fulfillFrom: item.fulfillFrom ?? null,
              price: item.price ?? null,
              vat: item.vat ?? defaults.vat,
              name: item.name || product.name,
              metadata: item.metadata ?? {},
            };
          }),
        );
      }
      return order.id;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'orders_client_external_key')) {
      const winner = await findByExternalNumber(db, client.id, attributes.externalOrderNumber);
      throw existingOrderConflict(winner?.id ?? 0, attributes.externalOrderNumber, base);
    }
    throw error;
  }
  noteDefaults(input, shippingMethod!, productBySku, warnings);
  return id;
}

/** The client's order (or order item) with this id; another client's is not there. */
const ownOrder = (clientId: number, id: number) => and(eq(orders.clientId, clientId), eq(orders.id, id));
const ownOrderItem = (clientId: number, id: number) => and(eq(orderItems.clientId, clientId), eq(orderItems.id, id));

export async function findOrder(db: Db, clientId: number, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(ownOrder(clientId, id));
  return row;
}

/** The id of the client's order as a query; another client's order selects nothing. */
export function orderById(db: Db, clientId: number, id: number) {
  return db.select({ id: orders.id }).from(orders).where(ownOrder(clientId, id));
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
  const conditions = [eq(orders.clientId, clientId), gt(orders.id, page.cursor)];
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
    .where(and(eq(orders.clientId, clientId), eq(orders.externalOrderNumber, externalOrderNumber)));
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

export async function updateOrder(
  db: Db,
  client: Client,
  id: number,
  document: UpdateDocument,
  base: string,
  warnings: WarningSink = noWarnings,
): Promise<void> {
  const order = await requireOrder(db, client.id, id);
  if (Number(document.data.id) !== id)
    throw domainError('409', `The id in the document (${document.data.id}) does not match the id in the path (${id}).`, {
      pointer: '/data/id',
    });
  assertNotFulfilled(order);
  for (const name in document.data.relationships)
    warnings.add('ignored', 'relationships cannot change; not read', `/data/relationships/${name}`);
  const a = document.data.attributes;
  const problems = new ProblemCollector();
  if (a.currency != null && a.currency !== order.currency)
    problems.add('400', 'currency cannot be changed.', { pointer: '/data/attributes/currency' });
  if (a.channelIdentifier != null && a.channelIdentifier !== order.channelIdentifier)
    problems.add('400', 'channelIdentifier cannot be changed.', { pointer: '/data/attributes/channelIdentifier' });
  const today = clientNow(client).toISOString().slice(0, 10);
  if (a.preferredShippingDate && a.preferredShippingDate < today)
    problems.add('400', `preferredShippingDate must be today (${today}) or later.`, { pointer: '/data/attributes/preferredShippingDate' });
  if (a.fulfillFrom && a.fulfillFrom !== order.fulfillFrom) {
    const strategy = await warehousesOf(db, client.id, order.preferredShippingMethodId);
    if (!strategy.includes(a.fulfillFrom))
      problems.add('400', `fulfillFrom must be one of the warehouses of the order's shipping method: ${strategy.join(', ')}.`, {
        pointer: '/data/attributes/fulfillFrom',
      });
  }
  if (a.externalOrderNumber !== order.externalOrderNumber) {
    const other = await findByExternalNumber(db, client.id, a.externalOrderNumber);
    if (other) problems.items.push(existingOrderConflict(other.id, a.externalOrderNumber, base).items[0]);
  }
  problems.throwIfAny();

  const erasable = (value: string | null | undefined, current: string | null) => (value === '' ? null : (value ?? current));
  const keep = <T>(value: T | undefined, current: T) => (value === undefined ? current : value);
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
        .set({
          externalOrderNumber: a.externalOrderNumber,
          locale: a.locale,
          onHold: a.onHold,
          reference: erasable(a.reference, order.reference),
          consumerReference: erasable(a.consumerReference, order.consumerReference),
          promotionCode: erasable(a.promotionCode, order.promotionCode),
          email: a.email ?? defaults.noReplyEmail,
          phoneNumber: keep(a.phoneNumber, order.phoneNumber),
          vatNumber: keep(a.vatNumber, order.vatNumber),
          fulfillFrom: keep(a.fulfillFrom, order.fulfillFrom),
          preferredShippingDate: keep(a.preferredShippingDate, order.preferredShippingDate),
          orderedOn: a.orderedOn === undefined ? order.orderedOn : orderedOnOf(a.orderedOn),
          allowPartialDelivery,
          metadata: a.metadata ?? {},
        })
        .where(eq(orders.id, id));
    });
  } catch (error) {
    if (isUniqueViolation(error, 'orders_client_external_key'))
      throw domainError('409-1', `An order with externalOrderNumber "${a.externalOrderNumber}" already exists.`, {
        pointer: '/data/attributes/externalOrderNumber',
      });
    throw error;
  }
  if (a.email == null) warnings.add('default', `not given: the no-reply address ${defaults.noReplyEmail}`, '/data/attributes/email');
  if (a.allowPartialDelivery === null)
    warnings.add('default', `null: the order type's default, ${allowPartialDelivery}`, '/data/attributes/allowPartialDelivery');
  if (a.metadata == null && Object.values(order.metadata).some((value) => value != null))
    warnings.add('default', 'not given: the stored metadata is erased', '/data/attributes/metadata');
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
    const conditions = [eq(orderItems.orderId, orderId), eq(orderItems.clientId, clientId)];
    if (onlyItemId !== undefined) conditions.push(eq(orderItems.id, onlyItemId));
    const items = await tx
      .select()
      .from(orderItems)
      .where(and(...conditions));
    const covered = await coveredQuantities(
      tx as unknown as Db,
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

/** The id of the client's address (delivery or billing) as a query; another client's selects nothing. */
export function addressById(db: Db, clientId: number, id: number) {
  return db
    .select({ id: addresses.id })
    .from(addresses)
    .where(and(eq(addresses.clientId, clientId), eq(addresses.id, id)));
}

/** The id of the client's pick-up point as a query; another client's selects nothing. */
export function pickUpPointById(db: Db, clientId: number, id: number) {
  return db
    .select({ id: pickUpPoints.id })
    .from(pickUpPoints)
    .where(and(eq(pickUpPoints.clientId, clientId), eq(pickUpPoints.id, id)));
}
