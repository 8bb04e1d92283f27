// The inventory module's SQL: stock rows, locations, the mutation ledger, the sums stock levels are made of, and the
// client's warehouse lock. The rules (what a booking does, retention, how sums become levels) live in service.ts and
// expiration.ts; the v2 views in sync.ts keep their own reads.
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';
import { dayAfter, startOfDay } from '../../platform/time.ts';
import { locationTypesExcludedFromFulfilment } from './levels.ts';

const {
  stock,
  stockLocations,
  stockMutations,
  products,
  orders,
  orderItems,
  shipments,
  shipmentItems,
  inboundPackingSlips,
  inboundPackingSlipItems,
} = schema;

export type StockRow = typeof stock.$inferSelect;
export type StockLocationRow = typeof stockLocations.$inferSelect;
export type StockMutationRow = typeof stockMutations.$inferSelect;
export type NewStockRow = typeof stock.$inferInsert;
export type NewStockMutation = typeof stockMutations.$inferInsert;

// ---- reading stock

export interface StockFilters {
  locationTypes?: string[];
  skus?: string[];
  modifiedOnLt?: string;
  modifiedOnGt?: string;
  expirationStatuses?: string[];
}

export async function listStock(db: Db, clientId: number, filters: StockFilters, page: Page): Promise<StockRow[]> {
  const conditions = [ownedBy(stock, clientId), gt(stock.id, page.cursor)];
  if (filters.locationTypes) conditions.push(inArray(stock.locationType, filters.locationTypes));
  if (filters.skus) conditions.push(inArray(stock.sku, filters.skus));
  if (filters.modifiedOnLt) conditions.push(lt(stock.modifiedOn, startOfDay(filters.modifiedOnLt)));
  if (filters.modifiedOnGt) conditions.push(gte(stock.modifiedOn, dayAfter(filters.modifiedOnGt)));
  if (filters.expirationStatuses) conditions.push(inArray(stock.expirationStatus, filters.expirationStatuses));
  return db
    .select()
    .from(stock)
    .where(and(...conditions))
    .orderBy(asc(stock.id))
    .limit(page.size);
}

export async function findStock(db: Db, clientId: number, id: number): Promise<StockRow | undefined> {
  const [row] = await db
    .select()
    .from(stock)
    .where(and(ownedBy(stock, clientId), eq(stock.id, id)));
  return row;
}

export async function locationsOf(db: Db, clientId: number, ids: number[]): Promise<StockLocationRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(stockLocations)
    .where(and(ownedBy(stockLocations, clientId), inArray(stockLocations.id, [...new Set(ids)])))
    .orderBy(asc(stockLocations.id));
}

export async function findStockLocation(db: Db, clientId: number, id: number): Promise<StockLocationRow | undefined> {
  const [row] = await db
    .select()
    .from(stockLocations)
    .where(and(ownedBy(stockLocations, clientId), eq(stockLocations.id, id)));
  return row;
}

// ---- what stock levels are summed from

export interface StockLevelFilters {
  skus?: string[];
  mutatedOnGte?: string;
  sort: 'id' | 'mutatedOn,id';
}

const sumOf = (column: SQL | typeof stock.quantity, where?: SQL) =>
  sql<number>`coalesce(sum(${column})${where ? sql` filter (where ${where})` : sql``}, 0)`.mapWith(Number);

/** Products without mutations sort first under mutatedOn,id. */
const epoch = sql`'epoch'::timestamptz`;

/** A page of the client's products with the moment of each one's last mutation, in the order the filters ask for. */
export async function productsByLastMutation(db: Db, clientId: number, filters: StockLevelFilters, page: Page) {
  const lastMutation = db
    .select({
      productId: stockMutations.productId,
      mutatedOn: sql<Date>`max(${stockMutations.createdOn})`.mapWith(stockMutations.createdOn).as('mutated_on'),
    })
    .from(stockMutations)
    .where(ownedBy(stockMutations, clientId))
    .groupBy(stockMutations.productId)
    .as('last_mutation');
  const key = sql`coalesce(${lastMutation.mutatedOn}, ${epoch})`;

  const conditions: SQL[] = [ownedBy(products, clientId)];
  if (filters.skus) conditions.push(inArray(products.sku, filters.skus));
  if (filters.mutatedOnGte) conditions.push(sql`${lastMutation.mutatedOn} >= ${new Date(filters.mutatedOnGte).toISOString()}::timestamptz`);
  if (page.cursor > 0) {
    if (filters.sort === 'id') conditions.push(gt(products.id, page.cursor));
    else {
      // Keyset on (mutatedOn, id): the cursor is the last product id seen; its mutatedOn is looked up again.
      const cursorKey = sql`coalesce((select max(m.created_on) from stock_mutations m where m.client_id = ${clientId} and m.product_id = ${page.cursor}), ${epoch})`;
      conditions.push(sql`(${key}, ${products.id}) > (${cursorKey}, ${page.cursor}::integer)`);
    }
  }
  return db
    .select({ productId: products.id, sku: products.sku, mutatedOn: lastMutation.mutatedOn })
    .from(products)
    .leftJoin(lastMutation, eq(lastMutation.productId, products.id))
    .where(and(...conditions))
    .orderBy(...(filters.sort === 'id' ? [asc(products.id)] : [asc(key), asc(products.id)]))
    .limit(page.size);
}

/** Whether the client has this product. */
export async function productExists(db: Db, clientId: number, productId: number): Promise<boolean> {
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(ownedBy(products, clientId), eq(products.id, productId)));
  return product !== undefined;
}

/**
 * The four sums of the given products' levels, per product and warehouse, read at once: stock by kind, what open
 * shipments carry, what open orders still need (with the warehouse they name, if any) and what open packing slips expect.
 */
export async function levelSums(db: Db, clientId: number, productIds: number[]) {
  const usable = sql`not ${stock.quarantined} and ${stock.quality} = 'OK'`;
  const [stockSums, outboundSums, orderedSums, expectedSums] = await Promise.all([
    db
      .select({
        productId: stock.productId,
        warehouse: stock.warehouseCode,
        physical: sumOf(stock.quantity),
        quarantined: sumOf(stock.quantity, sql`${stock.quarantined}`),
        damaged: sumOf(stock.quantity, sql`not ${stock.quarantined} and ${stock.quality} = 'DAMAGED'`),
        toScrap: sumOf(stock.quantity, sql`not ${stock.quarantined} and ${stock.quality} = 'TO_SCRAP'`),
        overdue: sumOf(stock.quantity, sql`not ${stock.quarantined} and ${stock.quality} = 'OVERDUE'`),
        expired: sumOf(stock.quantity, sql`not ${stock.quarantined} and ${stock.quality} = 'EXPIRED'`),
        unmatched: sumOf(stock.quantity, sql`${usable} and ${stock.status} <> 'OK'`),
        onExcludedLocations: sumOf(
          stock.quantity,
          sql`${usable} and ${stock.status} = 'OK' and ${inArray(stock.locationType, [...locationTypesExcludedFromFulfilment])}`,
        ),
      })
      .from(stock)
      .where(and(ownedBy(stock, clientId), inArray(stock.productId, productIds)))
      .groupBy(stock.productId, stock.warehouseCode),
    db
      .select({ productId: shipmentItems.productId, warehouse: shipments.warehouseCode, outbound: sumOf(shipmentItems.quantity as never) })
      .from(shipmentItems)
      .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
      .where(and(ownedBy(shipmentItems, clientId), inArray(shipmentItems.productId, productIds), ne(shipments.status, 'SHIPPED')))
      .groupBy(shipmentItems.productId, shipments.warehouseCode),
    openOrderQuantities(db, clientId, productIds),
    db
      .select({
        productId: inboundPackingSlipItems.productId,
        warehouse: inboundPackingSlips.expectedIn,
        expected: sumOf(sql`greatest(${inboundPackingSlipItems.quantity} - ${inboundPackingSlipItems.received}, 0)`),
      })
      .from(inboundPackingSlipItems)
      .innerJoin(inboundPackingSlips, eq(inboundPackingSlips.id, inboundPackingSlipItems.inboundPackingSlipId))
      .where(
        and(
          ownedBy(inboundPackingSlipItems, clientId),
          inArray(inboundPackingSlipItems.productId, productIds),
          inArray(inboundPackingSlips.status, ['EXPECTED', 'IN_PROGRESS']),
        ),
      )
      .groupBy(inboundPackingSlipItems.productId, inboundPackingSlips.expectedIn),
  ]);
  return { stockSums, outboundSums, orderedSums, expectedSums };
}

/**
 * Open order quantities per product and item warehouse: what orders still need that no shipment covers yet.
 * Open means not on hold, valid (v2 Not Valid orders are not shipped) and not fulfilled.
 */
export async function openOrderQuantities(db: Db, clientId: number, productIds: number[]) {
  const covered = db
    .select({ orderItemId: shipmentItems.orderItemId, quantity: sql<number>`sum(${shipmentItems.quantity})`.as('covered_quantity') })
    .from(shipmentItems)
    .where(ownedBy(shipmentItems, clientId))
    .groupBy(shipmentItems.orderItemId)
    .as('covered');
  const rows = await db
    .select({
      productId: orderItems.productId,
      itemFulfillFrom: orderItems.fulfillFrom,
      orderFulfillFrom: orders.fulfillFrom,
      ordered: sumOf(sql`greatest(${orderItems.quantity} - coalesce(${covered.quantity}, 0), 0)`),
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .leftJoin(covered, eq(covered.orderItemId, orderItems.id))
    .where(
      and(
        ownedBy(orderItems, clientId),
        inArray(orderItems.productId, productIds),
        isNull(orders.fulfilledAt),
        eq(orders.onHold, false),
        eq(orders.isValid, true),
      ),
    )
    .groupBy(orderItems.productId, orderItems.fulfillFrom, orders.fulfillFrom);
  return rows.map((r) => ({ productId: r.productId, fulfillFrom: r.itemFulfillFrom ?? r.orderFulfillFrom, ordered: r.ordered }));
}

// ---- the mutation ledger

export interface StockMutationFilters {
  createdOnLt?: string;
  createdOnGt?: string;
  types?: string[];
  synced?: boolean;
}

/** The client's mutations booked from `visibleFrom` on (the retention window's start). */
export async function listStockMutations(
  db: Db,
  clientId: number,
  visibleFrom: Date,
  filters: StockMutationFilters,
  page: Page,
): Promise<StockMutationRow[]> {
  const conditions = [ownedBy(stockMutations, clientId), gt(stockMutations.id, page.cursor), gte(stockMutations.createdOn, visibleFrom)];
  if (filters.createdOnLt) conditions.push(lt(stockMutations.createdOn, startOfDay(filters.createdOnLt)));
  if (filters.createdOnGt) conditions.push(gte(stockMutations.createdOn, dayAfter(filters.createdOnGt)));
  if (filters.types) conditions.push(inArray(stockMutations.type, filters.types));
  if (filters.synced !== undefined) conditions.push(eq(stockMutations.synced, filters.synced));
  return db
    .select()
    .from(stockMutations)
    .where(and(...conditions))
    .orderBy(asc(stockMutations.id))
    .limit(page.size);
}

export async function findStockMutation(db: Db, clientId: number, visibleFrom: Date, id: number): Promise<StockMutationRow | undefined> {
  const [row] = await db
    .select()
    .from(stockMutations)
    .where(and(ownedBy(stockMutations, clientId), eq(stockMutations.id, id), gte(stockMutations.createdOn, visibleFrom)));
  return row;
}

/** Books one mutation, or several in one statement. */
export async function insertStockMutations(tx: Db, values: NewStockMutation | NewStockMutation[]): Promise<void> {
  await tx.insert(stockMutations).values(values as NewStockMutation[]);
}

// ---- the client's warehouse lock

/** The client warehouse locks' own key space among the database's advisory locks (two-key form: this, client id). */
const warehouseLockSpace = 724_311_907;

/**
 * Takes the client's warehouse lock until the transaction ends. Every transaction that books the client's stock in or out,
 * changes its quality, reserves it (starts a shipment) or moves a shipment takes it, before any row lock. Those
 * transactions of one client then run one after another, whichever process runs them: a reservation sees every booking
 * committed before it, so stock is never promised or taken twice, and none of them can hold a row another one waits for
 * while waiting for one of its rows, so they never deadlock. It is the client's own lock: no other client ever waits on
 * it. Call it inside a transaction (outside one it would last one statement); taking it again in the same transaction
 * costs a round trip and nothing else.
 */
export async function lockClientWarehouse(tx: Db, clientId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${warehouseLockSpace}::integer, ${clientId}::integer)`);
}

// ---- stock rows (inside the caller's transaction, under the client's warehouse lock)

export interface StockPlace {
  warehouseCode: string;
  locationType: string;
  locationCode: string;
}

export const placeOf = ({ warehouseCode, locationType, locationCode }: StockPlace): StockPlace => ({
  warehouseCode,
  locationType,
  locationCode,
});

/** The id of the client's location at this place, made when it is new. */
export async function locationId(tx: Db, clientId: number, place: StockPlace): Promise<number> {
  await tx
    .insert(stockLocations)
    .values({ clientId, ...placeOf(place) })
    .onConflictDoNothing({ target: [stockLocations.clientId, stockLocations.warehouseCode, stockLocations.locationCode] });
  const [row] = await tx
    .select({ id: stockLocations.id })
    .from(stockLocations)
    .where(
      and(
        ownedBy(stockLocations, clientId),
        eq(stockLocations.warehouseCode, place.warehouseCode),
        eq(stockLocations.locationCode, place.locationCode),
      ),
    );
  return row.id;
}

/** What makes goods join a stock row on a location: equal in all of these (and not quarantined). */
export interface StockIdentity {
  productId: number;
  stockLocationId: number;
  quality: string;
  status: string;
  lotNumber: string | null;
  expirationDate: string | null;
  inboundItemId: number | null;
}

/** The client's stock row these goods would join, locked for the booking. */
export async function lockSameStock(tx: Db, clientId: number, goods: StockIdentity): Promise<{ id: number } | undefined> {
  const [same] = await tx
    .select({ id: stock.id })
    .from(stock)
    .where(
      and(
        ownedBy(stock, clientId),
        eq(stock.productId, goods.productId),
        eq(stock.stockLocationId, goods.stockLocationId),
        eq(stock.quality, goods.quality),
        eq(stock.status, goods.status),
        eq(stock.quarantined, false),
        sql`${stock.lotNumber} is not distinct from ${goods.lotNumber}::text`,
        sql`${stock.expirationDate} is not distinct from ${goods.expirationDate}::date`,
        sql`${stock.inboundItemId} is not distinct from ${goods.inboundItemId}::integer`,
      ),
    )
    .for('update');
  return same;
}

export async function addToStockRow(tx: Db, id: number, quantity: number, now: Date): Promise<void> {
  await tx
    .update(stock)
    .set({ quantity: sql`${stock.quantity} + ${quantity}`, modifiedOn: now })
    .where(eq(stock.id, id));
}

export async function insertStockRow(tx: Db, values: NewStockRow): Promise<void> {
  await tx.insert(stock).values(values);
}

/** The client's sellable stock of a product in a warehouse, first expiring first, locked for taking. */
export async function lockSellableStock(tx: Db, clientId: number, productId: number, warehouseCode: string): Promise<StockRow[]> {
  return tx
    .select()
    .from(stock)
    .where(
      and(
        ownedBy(stock, clientId),
        eq(stock.productId, productId),
        eq(stock.warehouseCode, warehouseCode),
        eq(stock.quarantined, false),
        eq(stock.quality, 'OK'),
        eq(stock.status, 'OK'),
        notInArray(stock.locationType, [...locationTypesExcludedFromFulfilment]),
      ),
    )
    .orderBy(sql`${stock.expirationDate} asc nulls last`, asc(stock.id))
    .for('update');
}

export async function deleteStockRow(tx: Db, id: number): Promise<void> {
  await tx.delete(stock).where(eq(stock.id, id));
}

export async function setStockQuantity(tx: Db, id: number, quantity: number, now: Date): Promise<void> {
  await tx.update(stock).set({ quantity, modifiedOn: now }).where(eq(stock.id, id));
}

// ---- expiration (expiration.ts)

/** The client's dated stock not yet EXPIRED with its product's margins, locked for a status change. */
export async function lockPerishableStock(tx: Db, clientId: number) {
  return tx
    .select({ stock, margin: products.expirationDateMargin, warning: products.expirationDateWarning })
    .from(stock)
    .innerJoin(products, eq(products.id, stock.productId))
    .where(and(ownedBy(stock, clientId), isNotNull(stock.expirationDate), sql`${stock.expirationStatus} <> 'EXPIRED'`))
    .for('update', { of: stock });
}

export async function setExpiration(tx: Db, id: number, values: { expirationStatus: string; quality: string; modifiedOn: Date }) {
  await tx.update(stock).set(values).where(eq(stock.id, id));
}
