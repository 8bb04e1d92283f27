// Shipments: reading with filters and the retention window; making a shipment for an order (what ships now, reserving
// stock: an open shipment's items count as outbound) and moving it READY_TO_PICK → READY_TO_SORT → READY_TO_SHIP →
// SHIPPED (booking the goods out with SHIPMENT mutations), then its tracking stage until DELIVERED. Every move goes
// through lifecycle.ts and emits the events the move returns, in its transaction. The simulated warehouse
// (src/warehouse) decides when.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, gte, inArray, lt } from 'drizzle-orm';
import {
  houseNumberRequiredCountries,
  limits,
  trackTraceCodes,
  type Scenario,
  type ScenarioStep,
  type ShipmentStatus,
  type TrackingStage,
} from '@shopapi/contract';
import { anyOf, type Db, ownedBy, schema, type Tx } from '../../platform/db/index.ts';
import type { Tracking } from '../../platform/db/schema/shipments.ts';
import type { Page } from '../../platform/page.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { bookInAndOut, lockClientWarehouse, pickLocation, takeStock, type TakenStock } from '../inventory/service.ts';
import { warehouseShippingMethod } from '../reference/service.ts';
import { emitShipmentEvent, type EventPayloads } from '../webhooks/payloads.ts';
import { itemsOfReturn, processReturnItems, registerReturn } from '../returns/service.ts';
import { dayAfter, daysBefore, startOfDay } from '../../platform/time.ts';
import { domainError } from '../../platform/errors.ts';
import { nextTrackingStage, shipmentLifecycle, trackingLifecycle } from './lifecycle.ts';
import { isWalked, orderRoad, shipmentSteps } from './road.ts';
import {
  addressById,
  deliveryPostcode,
  fulfilIfComplete,
  hasPickUpPoint,
  insertShipment,
  itemsToBookOut,
  lockOrder,
  openLines,
  ordersToStart,
  partsOfBundles,
  productsByIds,
  returnReasonCoded,
  roadFieldsOfOrder,
  shipmentNumber,
  shipmentsUnderWay,
  shippedItemsOfOrder,
  shippingMethodById,
  unreserved,
  updateShipment,
  updateShipmentItem,
  type Line,
  type OrderRow,
  type ShipmentItemRow,
  type ShipmentRow,
} from './repository.ts';

const { shipments, shipmentItems, orders } = schema;

export type { OrderRow, ShipmentItemRow, ShipmentRow };

export { ordersToStart, shippedItemsOfOrder };

export interface ShipmentFilters {
  shippedOnLt?: string;
  shippedOnGt?: string;
  statuses?: string[];
  orderTypes?: number[];
  references?: string[];
  orderIds?: number[];
  externalOrderNumbers?: string[];
}

const visible = (client: Client) => gte(shipments.createdAt, daysBefore(clientNow(client), limits.shipmentRetentionDays));

/** The ids of one page of the client's shipments, as a query (the v3 documents are built around it in one statement). */
export function shipmentPage(db: Db, client: Client, filters: ShipmentFilters, page: Page) {
  const conditions = [ownedBy(shipments, client.id), gt(shipments.id, page.cursor), visible(client)];
  if (filters.shippedOnLt) conditions.push(lt(shipments.shippedOn, startOfDay(filters.shippedOnLt)));
  if (filters.shippedOnGt) conditions.push(gte(shipments.shippedOn, dayAfter(filters.shippedOnGt)));
  if (filters.statuses) conditions.push(inArray(shipments.status, filters.statuses));
  if (filters.orderTypes) conditions.push(inArray(shipments.orderTypeId, filters.orderTypes));
  if (filters.orderIds) conditions.push(inArray(shipments.orderId, filters.orderIds));
  if (filters.externalOrderNumbers || filters.references) {
    const orderConditions = [ownedBy(orders, client.id)];
    if (filters.externalOrderNumbers) orderConditions.push(inArray(orders.externalOrderNumber, filters.externalOrderNumbers));
    if (filters.references) orderConditions.push(inArray(orders.reference, filters.references));
    const matching = db
      .select({ id: orders.id })
      .from(orders)
      .where(and(...orderConditions));
    conditions.push(inArray(shipments.orderId, matching));
  }
  return db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(...conditions))
    .orderBy(asc(shipments.id))
    .limit(page.size);
}

/** The client's shipment with this id, within the retention window. */
const ownShipment = (client: Client, id: number) => and(ownedBy(shipments, client.id), eq(shipments.id, id), visible(client));

/** The id of the client's shipment as a query; another client's or a shipment past the retention window selects nothing. */
export function shipmentById(db: Db, client: Client, id: number) {
  return db.select({ id: shipments.id }).from(shipments).where(ownShipment(client, id));
}

/** The id of the client's shipment item as a query; like its shipment, it is not there after the retention window. */
export function shipmentItemById(db: Db, client: Client, id: number) {
  return db
    .select({ id: shipmentItems.id })
    .from(shipmentItems)
    .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
    .where(and(ownedBy(shipmentItems, client.id), eq(shipmentItems.id, id), ownedBy(shipments, client.id), visible(client)));
}

export interface ShipmentLookup {
  /**
   * Locks the row for the rest of the transaction, after the client's warehouse lock (lockClientWarehouse): the order in
   * which every transaction that moves shipments takes its locks.
   */
  lock?: boolean;
  /**
   * Reaches shipments past the retention window too. The window hides old shipments from the API's reads; the simulated
   * warehouse and the sandbox controls have always worked on every shipment the warehouse holds (a clock advanced past
   * the window still moves the shipments it started; an old shipment can still be advanced, failed or returned), and
   * applying the window there would change those answers to 404 or leave shipments unmoved.
   */
  pastRetention?: boolean;
}

export async function findShipment(db: Db, client: Client, id: number, opts: ShipmentLookup = {}): Promise<ShipmentRow | undefined> {
  const condition = opts.pastRetention ? and(ownedBy(shipments, client.id), eq(shipments.id, id)) : ownShipment(client, id);
  const query = db.select().from(shipments).where(condition);
  if (!opts.lock) return (await query)[0];
  await lockClientWarehouse(db, client.id);
  return (await query.for('update'))[0];
}

export async function requireShipment(db: Db, client: Client, id: number, opts: ShipmentLookup = {}): Promise<ShipmentRow> {
  const row = await findShipment(db, client, id, opts);
  if (!row) throw domainError('404', `Shipment ${id} not found.`);
  return row;
}

export async function itemsOf(db: Db, shipmentIds: number[]): Promise<ShipmentItemRow[]> {
  if (!shipmentIds.length) return [];
  return db.select().from(shipmentItems).where(anyOf(shipmentItems.shipmentId, shipmentIds)).orderBy(asc(shipmentItems.id));
}

// ---- making shipments

/** Product types that are not goods on a shelf: a bundle ships as its parts, a service not at all. */
const virtualTypes: ReadonlySet<string> = new Set(['BUNDLE', 'SERVICE']);

/** Packaging the carrier weighs on top of the goods. */
const packagingGrams = 150;

/**
 * Starts the order's next shipment, if the order can still start one now (see ordersToStart) and the stock allows.
 * Under the client's warehouse lock, so the stock it counts as free is not being promised to another order meanwhile;
 * an order whose row another transaction holds (a change through the API) is skipped, to start in a later round.
 */
export async function startOrderShipments(
  tx: Tx,
  payloads: EventPayloads,
  client: Client,
  orderId: number,
  now: Date,
): Promise<ShipmentRow[]> {
  await lockClientWarehouse(tx, client.id);
  const order = await lockOrder(tx, orderId, { skipLocked: true });
  if (!order || order.onHold || !order.isValid || order.fulfilledAt) return [];
  if ((await shipmentsUnderWay(tx, orderId)).length) return [];
  return createShipments(tx, payloads, client, order, now, { force: false });
}

/** startOrderShipments for one shipment: the first it started (the split scenario's road starts two). */
export async function startOrder(
  tx: Tx,
  payloads: EventPayloads,
  client: Client,
  orderId: number,
  now: Date,
): Promise<ShipmentRow | undefined> {
  return (await startOrderShipments(tx, payloads, client, orderId, now))[0];
}

/** The goods on the shelf each of these lines needs: a bundle's parts, nothing for a service, else the product itself. */
async function goodsOfLines(tx: Db, open: Line[]) {
  const productRows = await productsByIds(
    tx,
    open.map((l) => l.productId),
  );
  const productOf = (id: number) => productRows.find((p) => p.id === id)!;
  const parts = await partsOfBundles(
    tx,
    productRows.filter((p) => p.type === 'BUNDLE').map((p) => p.id),
  );
  const goodsOf = (line: Line) =>
    productOf(line.productId).type === 'BUNDLE'
      ? parts.filter((p) => p.productId === line.productId).map((p) => ({ productId: p.partId, sku: p.sku, per: p.quantity }))
      : virtualTypes.has(productOf(line.productId).type)
        ? []
        : [{ productId: line.productId, sku: line.sku, per: 1 }];
  return { productOf, goodsOf };
}

/**
 * What free stock in the order's warehouse does not cover of its open lines, per sku of the goods (a bundle's parts):
 * what the order waits for before it can ship in full.
 */
export async function missingGoods(tx: Db, client: Client, order: OrderRow): Promise<{ sku: string; quantity: number }[]> {
  const open = await openLines(tx, order.id);
  if (!open.length) return [];
  const { goodsOf } = await goodsOfLines(tx, open);
  const needed = new Map<number, { sku: string; quantity: number }>();
  for (const line of open) {
    for (const g of goodsOf(line)) {
      const entry = needed.get(g.productId) ?? { sku: g.sku, quantity: 0 };
      needed.set(g.productId, { ...entry, quantity: entry.quantity + line.quantity * g.per });
    }
  }
  const free = await unreserved(tx, client.id, order.fulfillFrom ?? client.defaultWarehouse, [...needed.keys()]);
  return [...needed].flatMap(([id, { sku, quantity }]) => {
    const missing = quantity - Math.max(0, free.get(id) ?? 0);
    return missing > 0 ? [{ sku, quantity: missing }] : [];
  });
}

/**
 * Decides what of the open lines ships now: everything when the stock is there (or when forced), else — only if the
 * order allows partial delivery — what the stock covers. A bundle ships as its parts plus its own (weightless) line.
 */
async function plan(tx: Tx, clientId: number, order: OrderRow, warehouse: string, open: Line[], force: boolean): Promise<Line[]> {
  const { productOf, goodsOf } = await goodsOfLines(tx, open);

  const shippable = new Map<number, number>();
  if (force) for (const line of open) shippable.set(line.orderItemId!, line.quantity);
  else {
    const free = await unreserved(tx, clientId, warehouse, [...new Set(open.flatMap((l) => goodsOf(l).map((g) => g.productId)))]);
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
 * The split scenario's two parcels: the first half of the order's lines in one, the rest in the other; an order of one
 * line splits its units. A bundle's parts stay with their bundle. One parcel when there is nothing to split.
 */
function splitInTwo(lines: Line[]): Line[][] {
  const groups: Line[][] = [];
  for (const line of lines) {
    if (line.orderItemId === null && groups.length) groups[groups.length - 1].push(line);
    else groups.push([line]);
  }
  if (groups.length >= 2) {
    const half = Math.ceil(groups.length / 2);
    return [groups.slice(0, half).flat(), groups.slice(half).flat()];
  }
  const [only] = lines;
  if (lines.length !== 1 || only.quantity < 2) return [lines];
  const first = Math.ceil(only.quantity / 2);
  return [[{ ...only, quantity: first }], [{ ...only, quantity: only.quantity - first }]];
}

/**
 * Creates the order's next shipment at READY_TO_PICK (two on the split scenario's road), or none when the stock does not
 * allow one yet (`force` ships what is open whatever the stock). A delivery address without the house number its country
 * requires puts it in ERROR at once, waiting for an operator.
 */
async function createShipments(
  tx: Tx,
  payloads: EventPayloads,
  client: Client,
  order: OrderRow,
  now: Date,
  opts: { force: boolean },
): Promise<ShipmentRow[]> {
  const open = await openLines(tx, order.id);
  if (!open.length) return [];
  const warehouse = order.fulfillFrom ?? client.defaultWarehouse;
  const lines = await plan(tx, client.id, order, warehouse, open, opts.force);
  if (!lines.length) return [];

  const method =
    (await warehouseShippingMethod(tx, client.id, order.preferredShippingMethodId, warehouse)) ??
    (await shippingMethodById(tx, order.preferredShippingMethodId));
  const delivery = await addressById(tx, order.deliveryAddressId);
  const missingHouseNumber = houseNumberRequiredCountries.has(delivery.countryCode.slice(0, 2)) && !delivery.houseNumber?.trim();
  const status: ShipmentStatus = missingHouseNumber && !opts.force ? 'ERROR' : 'READY_TO_PICK';
  const split = orderRoad(order, delivery.countryCode)?.scenario.name === 'split';
  const created: ShipmentRow[] = [];
  for (const parcel of split ? splitInTwo(lines) : [lines]) {
    const weights = await productsByIds(
      tx,
      parcel.map((l) => l.productId),
    );
    const weight = parcel.reduce((sum, l) => {
      const p = weights.find((w) => w.id === l.productId)!;
      return sum + (virtualTypes.has(p.type) ? 0 : (p.weight ?? 0) * l.quantity);
    }, 0);
    const shipment = await insertShipment(
      tx,
      {
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
      },
      parcel,
    );
    for (const event of shipmentLifecycle.start(status)) await emitShipmentEvent(tx, payloads, client.id, shipment.id, event, now);
    created.push(shipment);
  }
  return created;
}

// ---- moving shipments

const trackingNumber = () => `3S${randomBytes(6).toString('hex').toUpperCase()}`;
const trackingUrl = (carrier: string, number: string, postcode: string | null) =>
  `https://tracking.sandbox.invalid/${encodeURIComponent(carrier.toLowerCase())}/${number}${postcode ? `?postcode=${encodeURIComponent(postcode)}` : ''}`;

/** Thrown inside a shipping transaction when the goods are not on the shelf; the caller puts the shipment in ERROR. */
export class ShortageError extends Error {}

/**
 * Books the goods out (first expiring first) and writes lot numbers, expiration dates and serial numbers on the items.
 * `everyItemTracked` (the lots-and-serials scenario): items whose stock carries no lot get a sandbox lot and an expiration
 * date a year on, and every item gets serial numbers, whatever its product is set up for.
 */
async function bookOut(tx: Tx, clientId: number, shipment: ShipmentRow, now: Date, correctShortage: boolean, everyItemTracked = false) {
  for (const { item, type, hasSerialNumber } of await itemsToBookOut(tx, shipment.id)) {
    if (virtualTypes.has(type)) continue;
    const link = { type: 'SHIPMENT' as const, shipmentItemId: item.id };
    const want = { productId: item.productId, warehouseCode: shipment.warehouseCode, quantity: item.quantity };
    const first = await takeStock(tx, clientId, want, link, now);
    let taken: TakenStock[] = first.taken;
    if (first.missing > 0) {
      if (!correctShortage)
        throw new ShortageError(`Not enough stock of "${item.sku}" in ${shipment.warehouseCode}: ${first.missing} missing.`);
      // The sandbox's "ship now" never blocks: the missing goods are booked in first, visibly, as a correction, and out.
      const bookedIn = { type: 'CORRECTION', correctionCode: 'ADJUSTMENT', remarks: `Booked in to ship shipment ${shipment.id}.` } as const;
      const goods = { productId: item.productId, sku: item.sku, quantity: first.missing };
      taken = taken.concat(
        await bookInAndOut(tx, clientId, pickLocation(shipment.warehouseCode, item.productId), goods, bookedIn, link, now),
      );
    }
    const lot =
      taken.find((t) => t.lotNumber || t.expirationDate) ??
      (everyItemTracked
        ? { lotNumber: `LOT-SANDBOX-${shipment.id}-${item.id}`, expirationDate: daysBefore(now, -365).toISOString().slice(0, 10) }
        : undefined);
    await updateShipmentItem(tx, item.id, {
      lotNumber: lot?.lotNumber ?? null,
      expirationDate: lot?.expirationDate ?? null,
      serialNumbers:
        hasSerialNumber || everyItemTracked
          ? Array.from({ length: item.quantity }, (_, n) => `SN${shipment.id}${String(item.id).padStart(6, '0')}${n + 1}`)
          : [],
    });
  }
}

async function labelFields(tx: Tx, shipment: ShipmentRow, now: Date): Promise<Partial<ShipmentRow>> {
  const method = await shippingMethodById(tx, shipment.shippingMethodId);
  const postcode = await deliveryPostcode(tx, shipment.orderId);
  const number = trackingNumber();
  const url = trackingUrl(method.carrier, number, postcode);
  return {
    tracking: { carrier: method.carrier, number, stage: 'LABELLED', status: 'OK', url },
    trackingUpdatedAt: now,
    colli: [{ number: 1, parcelNumber: number, trackingUrl: url }],
    basketPicture: `https://basket-pictures.sandbox.invalid/${shipment.warehouseCode.toLowerCase()}/${shipment.id}.jpg`,
  };
}

/** Fields a shipment gets on entering a status. */
async function enterFields(tx: Tx, shipment: ShipmentRow, to: ShipmentStatus, now: Date): Promise<Partial<ShipmentRow>> {
  if (to === 'READY_TO_PICK') return { readyToPickOn: now };
  if (to === 'READY_TO_SHIP') return { readyToShipOn: now, ...(shipment.tracking ? {} : await labelFields(tx, shipment, now)) };
  if (to === 'SHIPPED') return { shippedOn: now };
  return {};
}

export type StepResult = 'moved' | 'done';

/** How a move is asked for: by the clock, or by an operator (the sandbox's advance), who does not wait out a road's pauses. */
export interface StepOptions {
  correctShortage: boolean;
  operator?: boolean;
}

/**
 * One move of a shipment at `now`: on a scenario's road the road's next step, else the next status on the normal path
 * (ERROR resumes at READY_TO_PICK), or after SHIPPED the next tracking stage. 'done' once nothing more happens to it.
 * Without `correctShortage`, goods missing when shipping throw a ShortageError.
 */
export async function stepShipment(
  tx: Tx,
  payloads: EventPayloads,
  client: Client,
  shipment: ShipmentRow,
  now: Date,
  opts: StepOptions,
): Promise<StepResult> {
  const road = await walkedRoad(tx, shipment);
  if (road) return stepOnRoad(tx, payloads, client, shipment, now, road, opts);
  const from = shipment.status as ShipmentStatus;
  if (from === 'SHIPPED') return moveTracking(tx, payloads, client.id, shipment, now);
  const to = shipmentLifecycle.next(from)!;
  const events = shipmentLifecycle.move(from, to, `Shipment ${shipment.id}`);
  if (to === 'SHIPPED') await bookOut(tx, client.id, shipment, now, opts.correctShortage);
  await updateShipment(tx, shipment.id, { status: to, roadStep: shipment.roadStep + 1, ...(await enterFields(tx, shipment, to, now)) });
  for (const event of events) await emitShipmentEvent(tx, payloads, client.id, shipment.id, event, now);
  if (to === 'SHIPPED') await fulfilIfComplete(tx, shipment.orderId, now);
  return 'moved';
}

async function moveTracking(tx: Tx, payloads: EventPayloads, clientId: number, shipment: ShipmentRow, now: Date): Promise<StepResult> {
  const tracking = shipment.tracking as Tracking;
  const from = tracking.stage as TrackingStage;
  const to = nextTrackingStage(from, await hasPickUpPoint(tx, shipment.orderId));
  if (!to) return 'done';
  const events = trackingLifecycle.move(from, to, `The tracking of shipment ${shipment.id}`);
  await updateShipment(tx, shipment.id, { tracking: { ...tracking, stage: to }, trackingUpdatedAt: now, roadStep: shipment.roadStep + 1 });
  for (const event of events) await emitShipmentEvent(tx, payloads, clientId, shipment.id, event, now);
  return trackingLifecycle.next(to) ? 'moved' : 'done';
}

// ---- scenario roads

interface WalkedRoad {
  scenario: Scenario;
  steps: ScenarioStep[];
}

/**
 * The catalogue's road this shipment walks, if its order follows a scenario the simulator walks and the shipment is where
 * the road left it: a shipment a control moved elsewhere (an operator's ERROR, a road set after it passed the point where
 * the road leaves the ordinary one) goes on by the ordinary moves.
 */
async function walkedRoad(tx: Db, shipment: ShipmentRow): Promise<WalkedRoad | undefined> {
  const order = await roadFieldsOfOrder(tx, shipment.orderId);
  const road = orderRoad(order, order.countryCode);
  if (!road || !isWalked(road.scenario)) return undefined;
  // Which shipment of the order matters only on roads that tell their shipments apart.
  const number = road.scenario.steps.some((s) => s.shipment) ? await shipmentNumber(tx, shipment) : 1;
  const steps = shipmentSteps(road.scenario, number);
  const here = steps.filter((s) => s.at <= shipment.roadStep).pop();
  if (!here || here.status !== shipment.status || (here.trackingStage ?? null) !== (shipment.tracking?.stage ?? null)) return undefined;
  return { scenario: road.scenario, steps };
}

/** Whether the shipment walks a scenario's road: one the road put in ERROR goes on by itself (the clock keeps it). */
export async function followsRoad(tx: Db, shipment: ShipmentRow): Promise<boolean> {
  return (await walkedRoad(tx, shipment)) !== undefined;
}

/**
 * The road's next step: a status move (checked by the lifecycle, with its events and stock bookings), or a tracking
 * change (stage, status, a v2-only code), with the goods coming back where the road books RETURN mutations. A pause in
 * the road (no step at the next moment) is a move that changes nothing visible; an operator skips it.
 */
async function stepOnRoad(
  tx: Tx,
  payloads: EventPayloads,
  client: Client,
  shipment: ShipmentRow,
  now: Date,
  road: WalkedRoad,
  opts: StepOptions,
): Promise<StepResult> {
  const next = road.steps.find((s) => s.at > shipment.roadStep);
  if (!next) return 'done';
  if (next.at > shipment.roadStep + 1 && !opts.operator) {
    await updateShipment(tx, shipment.id, { roadStep: shipment.roadStep + 1 });
    return 'moved';
  }
  const from = shipment.status as ShipmentStatus;
  let events: string[];
  if (next.status && next.status !== from) {
    const to = next.status;
    events = shipmentLifecycle.move(from, to, `Shipment ${shipment.id}`);
    if (to === 'SHIPPED') await bookOut(tx, client.id, shipment, now, opts.correctShortage, road.scenario.name === 'lots-and-serials');
    await updateShipment(tx, shipment.id, { status: to, roadStep: next.at, ...(await enterFields(tx, shipment, to, now)) });
  } else {
    const tracking = shipment.tracking as Tracking;
    const stage = next.trackingStage ?? tracking.stage;
    // RETURNED is descriptive, outside the carrier's lifecycle; the road's other stage changes go through it.
    events =
      stage !== tracking.stage && stage !== 'RETURNED'
        ? trackingLifecycle.move(tracking.stage as TrackingStage, stage as TrackingStage, `The tracking of shipment ${shipment.id}`)
        : [];
    const stageCode = trackTraceCodes[stage as TrackingStage];
    await updateShipment(tx, shipment.id, {
      tracking: { ...tracking, stage, status: next.trackingStatus ?? tracking.status },
      trackingUpdatedAt: now,
      trackTraceCode: next.trackTraceCode !== undefined && next.trackTraceCode !== stageCode ? next.trackTraceCode : null,
      roadStep: next.at,
    });
    if (next.stockMutations?.includes('RETURN'))
      await returnEverything(tx, client, shipment, now, road.scenario.name === 'damaged-return' ? 'DAMAGED' : 'RETURN');
  }
  for (const event of events) await emitShipmentEvent(tx, payloads, client.id, shipment.id, event, now);
  if (next.status === 'SHIPPED' && from !== 'SHIPPED') await fulfilIfComplete(tx, shipment.orderId, now);
  return road.steps.some((s) => s.at > next.at) ? 'moved' : 'done';
}

/**
 * Every item of the shipment comes back and is processed at `now`, through the returns service: RETURN goes back to
 * stock, DAMAGED onto a DAMAGED location with the client's return reason coded DAMAGED, if it has one.
 */
async function returnEverything(tx: Tx, client: Client, shipment: ShipmentRow, now: Date, condition: 'RETURN' | 'DAMAGED') {
  // The returns service dates what it writes by the client's clock: here, the moment of the move.
  const atMove = { ...client, clockOffsetSeconds: (now.getTime() - Date.now()) / 1000 };
  const reason = condition === 'DAMAGED' ? await returnReasonCoded(tx, client.id, 'DAMAGED') : undefined;
  const items = (await itemsOf(tx, [shipment.id])).filter((i) => i.orderItemId !== null);
  const returnId = await registerReturn(tx, atMove, {
    shipmentId: shipment.id,
    items: items.map((i) => ({ shipmentItemId: i.id, quantity: i.quantity, returnReasonId: reason ?? null })),
  });
  const registered = await itemsOfReturn(tx, returnId);
  await processReturnItems(
    tx,
    atMove,
    returnId,
    registered.map((item) => ({
      returnItemId: item.id,
      condition,
      comment: `Sandbox scenario: returned ${condition === 'DAMAGED' ? 'damaged' : 'refused'}.`,
    })),
  );
}

/** Puts a shipment in ERROR, where it waits for an operator. */
export async function failShipment(tx: Tx, payloads: EventPayloads, clientId: number, shipment: ShipmentRow, now: Date): Promise<void> {
  const events = shipmentLifecycle.move(shipment.status as ShipmentStatus, 'ERROR', `Shipment ${shipment.id}`);
  await updateShipment(tx, shipment.id, { status: 'ERROR' });
  for (const event of events) await emitShipmentEvent(tx, payloads, clientId, shipment.id, event, now);
}

/** Walks a shipment to SHIPPED now, booking in what is missing; its tracking is left to the clock. */
async function walkToShipped(tx: Tx, payloads: EventPayloads, client: Client, shipmentId: number, now: Date) {
  for (;;) {
    const shipment = await requireShipment(tx, client, shipmentId, { lock: true, pastRetention: true });
    if (shipment.status === 'SHIPPED') return;
    await stepShipment(tx, payloads, client, shipment, now, { correctShortage: true, operator: true });
  }
}

/**
 * Ships the order now, whatever the stock and even on hold: shipments under way go on to SHIPPED, and what is still
 * open gets a shipment that follows. Returns the ids of the shipments shipped, in the order they shipped.
 */
export async function shipOrderNow(tx: Tx, payloads: EventPayloads, client: Client, orderId: number, now: Date): Promise<number[]> {
  await lockClientWarehouse(tx, client.id);
  const order = (await lockOrder(tx, orderId))!;
  if (order.fulfilledAt) throw domainError('422', `Order ${orderId} is already fulfilled.`);
  if (!order.isValid)
    throw domainError(
      '422',
      `Order ${orderId} is Not Valid: its delivery address lacks a house number. It is not shipped until one is added.`,
    );
  const shipped: number[] = [];
  for (const id of await shipmentsUnderWay(tx, orderId)) {
    await walkToShipped(tx, payloads, client, id, now);
    shipped.push(id);
  }
  for (const created of await createShipments(tx, payloads, client, order, now, { force: true })) {
    await walkToShipped(tx, payloads, client, created.id, now);
    shipped.push(created.id);
  }
  if (!shipped.length) throw domainError('422', `Order ${orderId} has nothing left to ship.`);
  return shipped;
}
