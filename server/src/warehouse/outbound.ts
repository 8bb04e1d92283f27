// The simulated warehouse's outbound side: orders become shipments that walk READY_TO_PICK → READY_TO_SORT →
// READY_TO_SHIP → SHIPPED, stock is reserved (an open shipment's items count as outbound) and booked out with
// SHIPMENT mutations, and after SHIPPED the carrier moves the tracking stage until DELIVERED.
// Every move goes through the transition tables of domain/shipments/lifecycle.ts and emits its event in its transaction.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, ne, notInArray, sql } from 'drizzle-orm';
import { houseNumberRequiredCountries, type ShipmentStatus, type TrackingStage } from '@shopapi/contract';
import { schema, type Db } from '../platform/db/index.ts';
import type { Tracking } from '../platform/db/schema/shipments.ts';
import type { Client } from '../modules/clients/client.ts';
import { locationTypesExcludedFromFulfilment } from '../modules/inventory/levels.ts';
import { pickLocation, putStock, takeStock, type TakenStock } from '../modules/inventory/service.ts';
import { warehouseShippingMethod } from '../modules/reference/service.ts';
import {
  assertTransition,
  nextShipmentStatus,
  nextTrackingStage,
  shipmentCreatedEvent,
  shipmentEvents,
  shipmentTransitions,
  trackingTransitions,
} from '../modules/shipments/lifecycle.ts';
import { emitShipmentEvent } from '../modules/webhooks/payloads.ts';
import { domainError } from '../platform/errors.ts';

const {
  orders,
  orderItems,
  products,
  productParts,
  shipments,
  shipmentItems,
  addresses,
  pickUpPoints,
  shippingMethods,
  stock,
  warehouseTasks,
} = schema;

type OrderRow = typeof orders.$inferSelect;
type ShipmentRow = typeof shipments.$inferSelect;

/** Product types that are not goods on a shelf: a bundle ships as its parts, a service not at all. */
const virtualTypes = new Set(['BUNDLE', 'SERVICE']);

/** Packaging the carrier weighs on top of the goods. */
const packagingGrams = 150;

// ---- the agenda

export async function schedule(tx: Db, clientId: number, entity: 'shipment' | 'inbound', entityId: number, dueOn: Date) {
  await tx
    .insert(warehouseTasks)
    .values({ clientId, entity, entityId, dueOn })
    .onConflictDoUpdate({ target: [warehouseTasks.entity, warehouseTasks.entityId], set: { dueOn } });
}

export async function unschedule(tx: Db, entity: 'shipment' | 'inbound', entityId: number) {
  await tx.delete(warehouseTasks).where(and(eq(warehouseTasks.entity, entity), eq(warehouseTasks.entityId, entityId)));
}

// ---- creating shipments

interface Line {
  orderItemId: number | null;
  productId: number;
  sku: string;
  quantity: number;
}

/** What is still open on an order: item quantities no shipment covers yet. */
async function openLines(tx: Db, orderId: number): Promise<Line[]> {
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
  const covered = await tx
    .select({ orderItemId: shipmentItems.orderItemId, quantity: sql<number>`sum(${shipmentItems.quantity})`.mapWith(Number) })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(eq(shipments.orderId, orderId))
    .groupBy(shipmentItems.orderItemId);
  return items
    .map((i) => ({
      orderItemId: i.id,
      productId: i.productId,
      sku: i.sku,
      quantity: i.quantity - (covered.find((c) => c.orderItemId === i.id)?.quantity ?? 0),
    }))
    .filter((l) => l.quantity > 0);
}

/** Sellable stock in a warehouse minus what open shipments there have reserved, per product. */
async function unreserved(tx: Db, clientId: number, warehouse: string, productIds: number[]): Promise<Map<number, number>> {
  const result = new Map<number, number>();
  if (!productIds.length) return result;
  const onShelf = await tx
    .select({ productId: stock.productId, quantity: sql<number>`sum(${stock.quantity})`.mapWith(Number) })
    .from(stock)
    .where(
      and(
        eq(stock.clientId, clientId),
        eq(stock.warehouseCode, warehouse),
        inArray(stock.productId, productIds),
        eq(stock.quarantined, false),
        eq(stock.quality, 'OK'),
        eq(stock.status, 'OK'),
        notInArray(stock.locationType, [...locationTypesExcludedFromFulfilment]),
      ),
    )
    .groupBy(stock.productId);
  const reserved = await tx
    .select({ productId: shipmentItems.productId, quantity: sql<number>`sum(${shipmentItems.quantity})`.mapWith(Number) })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(
      and(
        eq(shipments.clientId, clientId),
        eq(shipments.warehouseCode, warehouse),
        ne(shipments.status, 'SHIPPED'),
        inArray(shipmentItems.productId, productIds),
      ),
    )
    .groupBy(shipmentItems.productId);
  for (const id of productIds) {
    result.set(id, (onShelf.find((r) => r.productId === id)?.quantity ?? 0) - (reserved.find((r) => r.productId === id)?.quantity ?? 0));
  }
  return result;
}

/**
 * Decides what of the open lines ships now: everything when the stock is there (or when forced), else — only if the
 * order allows partial delivery — what the stock covers. A bundle ships as its parts plus its own (weightless) line.
 */
async function plan(tx: Db, client: Client, order: OrderRow, warehouse: string, open: Line[], force: boolean): Promise<Line[]> {
  const productRows = await tx
    .select()
    .from(products)
    .where(
      inArray(
        products.id,
        open.map((l) => l.productId),
      ),
    );
  const productOf = (id: number) => productRows.find((p) => p.id === id)!;
  const bundleIds = productRows.filter((p) => p.type === 'BUNDLE').map((p) => p.id);
  const parts = bundleIds.length
    ? await tx
        .select({ productId: productParts.productId, partId: productParts.partId, quantity: productParts.quantity, sku: products.sku })
        .from(productParts)
        .innerJoin(products, eq(products.id, productParts.partId))
        .where(inArray(productParts.productId, bundleIds))
    : [];
  const goodsOf = (line: Line) =>
    productOf(line.productId).type === 'BUNDLE'
      ? parts.filter((p) => p.productId === line.productId).map((p) => ({ productId: p.partId, sku: p.sku, per: p.quantity }))
      : virtualTypes.has(productOf(line.productId).type)
        ? []
        : [{ productId: line.productId, sku: line.sku, per: 1 }];

  const shippable = new Map<number, number>();
  if (force) for (const line of open) shippable.set(line.orderItemId!, line.quantity);
  else {
    const free = await unreserved(tx, client.id, warehouse, [...new Set(open.flatMap((l) => goodsOf(l).map((g) => g.productId)))]);
    for (const line of open) {
      const goods = goodsOf(line);
      const possible = Math.min(line.quantity, ...goods.map((g) => Math.floor(Math.max(0, free.get(g.productId) ?? 0) / g.per)));
      for (const g of goods) free.set(g.productId, (free.get(g.productId) ?? 0) - possible * g.per);
      shippable.set(line.orderItemId!, possible);
    }
    const complete = open.every((l) => shippable.get(l.orderItemId!) === l.quantity);
    if (!complete && !order.allowPartialDelivery) return [];
  }
  return open.flatMap((line) => {
    const quantity = shippable.get(line.orderItemId!) ?? 0;
    if (quantity <= 0) return [];
    const partLines =
      productOf(line.productId).type === 'BUNDLE'
        ? goodsOf(line).map((g) => ({ orderItemId: null, productId: g.productId, sku: g.sku, quantity: quantity * g.per }))
        : [];
    return [{ ...line, quantity }, ...partLines];
  });
}

/**
 * Creates the order's next shipment at READY_TO_PICK, or nothing when the stock does not allow one yet. A delivery
 * address without the house number its country requires puts it in ERROR at once, waiting for an operator.
 */
export async function createShipment(
  tx: Db,
  client: Client,
  order: OrderRow,
  now: Date,
  opts: { force: boolean; stepSeconds: number },
): Promise<ShipmentRow | undefined> {
  const open = await openLines(tx, order.id);
  if (!open.length) return undefined;
  const warehouse = order.fulfillFrom ?? client.defaultWarehouse;
  const lines = await plan(tx, client, order, warehouse, open, opts.force);
  if (!lines.length) return undefined;

  const method =
    (await warehouseShippingMethod(tx, client.id, order.preferredShippingMethodId, warehouse)) ??
    (await tx.select().from(shippingMethods).where(eq(shippingMethods.id, order.preferredShippingMethodId)))[0];
  const [delivery] = await tx.select().from(addresses).where(eq(addresses.id, order.deliveryAddressId));
  const missingHouseNumber = houseNumberRequiredCountries.has(delivery.countryCode.slice(0, 2)) && !delivery.houseNumber?.trim();
  const weights = await tx
    .select({ id: products.id, weight: products.weight, type: products.type })
    .from(products)
    .where(
      inArray(
        products.id,
        lines.map((l) => l.productId),
      ),
    );
  const weight = lines.reduce((sum, l) => {
    const p = weights.find((w) => w.id === l.productId)!;
    return sum + (virtualTypes.has(p.type) ? 0 : (p.weight ?? 0) * l.quantity);
  }, 0);
  const status: ShipmentStatus = missingHouseNumber && !opts.force ? 'ERROR' : 'READY_TO_PICK';
  const [shipment] = await tx
    .insert(shipments)
    .values({
      clientId: client.id,
      orderId: order.id,
      orderTypeId: order.orderTypeId,
      shippingMethodId: method.id,
      status,
      readyToPickOn: status === 'READY_TO_PICK' ? now : null,
      warehouseCode: warehouse,
      weight,
      invoicingWeight: weight + packagingGrams,
      metadata: order.metadata,
      createdAt: now,
    })
    .returning();
  await tx.insert(shipmentItems).values(lines.map((l) => ({ clientId: client.id, shipmentId: shipment.id, ...l })));
  await emitShipmentEvent(tx, client, shipment.id, shipmentCreatedEvent, now);
  if (status === 'READY_TO_PICK') {
    await emitShipmentEvent(tx, client, shipment.id, shipmentEvents.READY_TO_PICK!, now);
    await schedule(tx, client.id, 'shipment', shipment.id, new Date(now.getTime() + opts.stepSeconds * 1000));
  }
  return shipment;
}

// ---- moving shipments

const trackingNumber = () => `3S${randomBytes(6).toString('hex').toUpperCase()}`;
const trackingUrl = (carrier: string, number: string, postcode: string | null) =>
  `https://tracking.sandbox.invalid/${encodeURIComponent(carrier.toLowerCase())}/${number}${postcode ? `?postcode=${encodeURIComponent(postcode)}` : ''}`;

/** Thrown inside a shipping transaction when the goods are not on the shelf; the caller puts the shipment in ERROR. */
export class ShortageError extends Error {}

/** Books the goods out (first expiring first) and writes lot numbers, expiration dates and serial numbers on the items. */
async function bookOut(tx: Db, client: Client, shipment: ShipmentRow, now: Date, correctShortage: boolean) {
  const items = await tx
    .select({ item: shipmentItems, type: products.type, hasSerialNumber: products.hasSerialNumber })
    .from(shipmentItems)
    .innerJoin(products, eq(products.id, shipmentItems.productId))
    .where(eq(shipmentItems.shipmentId, shipment.id))
    .orderBy(asc(shipmentItems.id));
  for (const { item, type, hasSerialNumber } of items) {
    if (virtualTypes.has(type)) continue;
    const link = { type: 'SHIPMENT' as const, shipmentItemId: item.id };
    const want = { productId: item.productId, warehouseCode: shipment.warehouseCode, quantity: item.quantity };
    const first = await takeStock(tx, client, want, link, now);
    let taken: TakenStock[] = first.taken;
    if (first.missing > 0) {
      if (!correctShortage)
        throw new ShortageError(`Not enough stock of "${item.sku}" in ${shipment.warehouseCode}: ${first.missing} missing.`);
      // The sandbox's "ship now" never blocks: the missing goods are booked in first, visibly, as a correction.
      await putStock(
        tx,
        client,
        pickLocation(shipment.warehouseCode, item.productId),
        { productId: item.productId, sku: item.sku, quantity: first.missing },
        { type: 'CORRECTION', correctionCode: 'ADJUSTMENT', remarks: `Booked in to ship shipment ${shipment.id}.` },
        now,
      );
      taken = taken.concat((await takeStock(tx, client, { ...want, quantity: first.missing }, link, now)).taken);
    }
    const lot = taken.find((t) => t.lotNumber || t.expirationDate);
    await tx
      .update(shipmentItems)
      .set({
        lotNumber: lot?.lotNumber ?? null,
        expirationDate: lot?.expirationDate ?? null,
        serialNumbers: hasSerialNumber
          ? Array.from({ length: item.quantity }, (_, n) => `SN${shipment.id}${String(item.id).padStart(6, '0')}${n + 1}`)
          : [],
      })
      .where(eq(shipmentItems.id, item.id));
  }
}

/** Marks the order fulfilled when shipped shipments cover every item. */
async function fulfilIfComplete(tx: Db, orderId: number, now: Date) {
  const items = await tx
    .select({ id: orderItems.id, quantity: orderItems.quantity })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const shipped = await tx
    .select({ orderItemId: shipmentItems.orderItemId, quantity: sql<number>`sum(${shipmentItems.quantity})`.mapWith(Number) })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(and(eq(shipments.orderId, orderId), eq(shipments.status, 'SHIPPED')))
    .groupBy(shipmentItems.orderItemId);
  if (items.every((i) => (shipped.find((s) => s.orderItemId === i.id)?.quantity ?? 0) >= i.quantity)) {
    await tx
      .update(orders)
      .set({ fulfilledAt: now })
      .where(and(eq(orders.id, orderId), isNull(orders.fulfilledAt)));
  }
}

async function labelFields(tx: Db, shipment: ShipmentRow, now: Date): Promise<Partial<ShipmentRow>> {
  const [method] = await tx.select().from(shippingMethods).where(eq(shippingMethods.id, shipment.shippingMethodId));
  const [order] = await tx.select({ deliveryAddressId: orders.deliveryAddressId }).from(orders).where(eq(orders.id, shipment.orderId));
  const [delivery] = await tx.select({ postcode: addresses.postcode }).from(addresses).where(eq(addresses.id, order.deliveryAddressId));
  const number = trackingNumber();
  const url = trackingUrl(method.carrier, number, delivery?.postcode ?? null);
  return {
    tracking: { carrier: method.carrier, number, stage: 'LABELLED', status: 'OK', url },
    trackingUpdatedAt: now,
    colli: [{ number: 1, parcelNumber: number, trackingUrl: url }],
    basketPicture: `https://basket-pictures.sandbox.invalid/${shipment.warehouseCode.toLowerCase()}/${shipment.id}.jpg`,
  };
}

/** Fields a shipment gets on entering a status. */
async function enterFields(tx: Db, shipment: ShipmentRow, to: ShipmentStatus, now: Date): Promise<Partial<ShipmentRow>> {
  if (to === 'READY_TO_PICK') return { readyToPickOn: now };
  if (to === 'READY_TO_SHIP') return { readyToShipOn: now, ...(shipment.tracking ? {} : await labelFields(tx, shipment, now)) };
  if (to === 'SHIPPED') return { shippedOn: now };
  return {};
}

export type StepResult = 'moved' | 'done';

/**
 * One move of a shipment at `now`: the next status on the normal path (ERROR resumes at READY_TO_PICK), or after
 * SHIPPED the next tracking stage. The caller reschedules while the result is 'moved'.
 */
export async function stepShipment(
  tx: Db,
  client: Client,
  shipment: ShipmentRow,
  now: Date,
  opts: { correctShortage: boolean },
): Promise<StepResult> {
  const from = shipment.status as ShipmentStatus;
  if (from === 'SHIPPED') return moveTracking(tx, shipment, now);
  const to = from === 'ERROR' ? 'READY_TO_PICK' : nextShipmentStatus(from)!;
  assertTransition(shipmentTransitions, `Shipment ${shipment.id}`, from, to);
  if (to === 'SHIPPED') await bookOut(tx, client, shipment, now, opts.correctShortage);
  await tx
    .update(shipments)
    .set({ status: to, ...(await enterFields(tx, shipment, to, now)) })
    .where(eq(shipments.id, shipment.id));
  const event = shipmentEvents[to];
  if (event) await emitShipmentEvent(tx, client, shipment.id, event, now);
  if (to === 'SHIPPED') await fulfilIfComplete(tx, shipment.orderId, now);
  return 'moved';
}

async function moveTracking(tx: Db, shipment: ShipmentRow, now: Date): Promise<StepResult> {
  const tracking = shipment.tracking as Tracking;
  const from = tracking.stage as TrackingStage;
  const [pickUpPoint] = await tx.select({ id: pickUpPoints.id }).from(pickUpPoints).where(eq(pickUpPoints.orderId, shipment.orderId));
  const to = nextTrackingStage(from, !!pickUpPoint);
  if (!to) return 'done';
  assertTransition(trackingTransitions, `The tracking of shipment ${shipment.id}`, from, to);
  await tx
    .update(shipments)
    .set({ tracking: { ...tracking, stage: to }, trackingUpdatedAt: now })
    .where(eq(shipments.id, shipment.id));
  return trackingTransitions[to].length ? 'moved' : 'done';
}

/** Puts a shipment in ERROR, where it waits for an operator (the sandbox's advance). */
export async function failShipment(tx: Db, shipment: ShipmentRow) {
  assertTransition(shipmentTransitions, `Shipment ${shipment.id}`, shipment.status as ShipmentStatus, 'ERROR');
  await tx.update(shipments).set({ status: 'ERROR' }).where(eq(shipments.id, shipment.id));
  await unschedule(tx, 'shipment', shipment.id);
}

/**
 * Claims the client's earliest move due by `until` and runs it at its due moment, in one transaction, then schedules the
 * next. SKIP LOCKED: a move another process is running is left to it. A shortage when shipping puts the shipment in
 * ERROR instead. Returns false when nothing is due.
 */
export async function runNextShipmentStep(db: Db, client: Client, until: Date, stepSeconds: number): Promise<boolean> {
  let claimed: number | undefined;
  try {
    const ran = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const [task] = await tx
        .select()
        .from(warehouseTasks)
        .where(and(eq(warehouseTasks.clientId, client.id), eq(warehouseTasks.entity, 'shipment'), lte(warehouseTasks.dueOn, until)))
        .orderBy(asc(warehouseTasks.dueOn), asc(warehouseTasks.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!task) return false;
      claimed = task.entityId;
      const [shipment] = await tx
        .select()
        .from(shipments)
        .where(and(eq(shipments.clientId, client.id), eq(shipments.id, task.entityId)))
        .for('update');
      if (!shipment || shipment.status === 'ERROR') {
        await unschedule(tx, 'shipment', task.entityId);
        return true;
      }
      const result = await stepShipment(tx, client, shipment, task.dueOn, { correctShortage: false });
      if (result === 'moved') await schedule(tx, client.id, 'shipment', shipment.id, new Date(task.dueOn.getTime() + stepSeconds * 1000));
      else await unschedule(tx, 'shipment', shipment.id);
      return true;
    });
    return ran;
  } catch (error) {
    if (!(error instanceof ShortageError) || claimed === undefined) throw error;
    const shipmentId = claimed;
    await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const [shipment] = await tx.select().from(shipments).where(eq(shipments.id, shipmentId)).for('update');
      await failShipment(tx, shipment);
    });
    return true;
  }
}

export async function requireShipment(tx: Db, clientId: number, id: number, opts: { lock?: boolean } = {}): Promise<ShipmentRow> {
  const query = tx
    .select()
    .from(shipments)
    .where(and(eq(shipments.clientId, clientId), eq(shipments.id, id)));
  const [row] = opts.lock ? await query.for('update') : await query;
  if (!row) throw domainError('404', `Shipment ${id} not found.`);
  return row;
}
