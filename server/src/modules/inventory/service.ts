// Stock: reading stock, locations, stock levels and the mutation ledger, and the two bookings every stock movement goes
// through (putStock, takeStock), so inbound, returns, shipments and corrections keep stock and ledger in step.
import { and, asc, eq, gt, gte, inArray, isNull, lt, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import { limits, type correctionCodes, type stockMutationTypes } from '@shopapi/contract';
import { type Db, ownedBy, schema, type Tx } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { dayAfter, daysBefore, startOfDay } from '../../platform/time.ts';
import {
  emptyComponents,
  isRelevant,
  locationTypesExcludedFromFulfilment,
  stockLevel,
  type LevelComponents,
  type StockLevelValues,
} from './levels.ts';

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
export type StockMutationType = (typeof stockMutationTypes)[number];
export type CorrectionCode = (typeof correctionCodes)[number];

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

// ---- stock levels

export interface ProductStockLevels {
  productId: number;
  sku: string;
  mutatedOn: Date | null;
  levels: StockLevelValues[];
}

export interface StockLevelFilters {
  skus?: string[];
  mutatedOnGte?: string;
  sort: 'id' | 'mutatedOn,id';
}

const sumOf = (column: SQL | typeof stock.quantity, where?: SQL) =>
  sql<number>`coalesce(sum(${column})${where ? sql` filter (where ${where})` : sql``}, 0)`.mapWith(Number);

/** Products without mutations sort first under mutatedOn,id. */
const epoch = sql`'epoch'::timestamptz`;

export async function listStockLevels(db: Db, client: Client, filters: StockLevelFilters, page: Page): Promise<ProductStockLevels[]> {
  const lastMutation = db
    .select({
      productId: stockMutations.productId,
      mutatedOn: sql<Date>`max(${stockMutations.createdOn})`.mapWith(stockMutations.createdOn).as('mutated_on'),
    })
    .from(stockMutations)
    .where(ownedBy(stockMutations, client.id))
    .groupBy(stockMutations.productId)
    .as('last_mutation');
  const key = sql`coalesce(${lastMutation.mutatedOn}, ${epoch})`;

  const conditions: SQL[] = [ownedBy(products, client.id)];
  if (filters.skus) conditions.push(inArray(products.sku, filters.skus));
  if (filters.mutatedOnGte) conditions.push(sql`${lastMutation.mutatedOn} >= ${new Date(filters.mutatedOnGte).toISOString()}::timestamptz`);
  if (page.cursor > 0) {
    if (filters.sort === 'id') conditions.push(gt(products.id, page.cursor));
    else {
      // Keyset on (mutatedOn, id): the cursor is the last product id seen; its mutatedOn is looked up again.
      const cursorKey = sql`coalesce((select max(m.created_on) from stock_mutations m where m.client_id = ${client.id} and m.product_id = ${page.cursor}), ${epoch})`;
      conditions.push(sql`(${key}, ${products.id}) > (${cursorKey}, ${page.cursor}::integer)`);
    }
  }
  const rows = await db
    .select({ productId: products.id, sku: products.sku, mutatedOn: lastMutation.mutatedOn })
    .from(products)
    .leftJoin(lastMutation, eq(lastMutation.productId, products.id))
    .where(and(...conditions))
    .orderBy(...(filters.sort === 'id' ? [asc(products.id)] : [asc(key), asc(products.id)]))
    .limit(page.size);
  const levels = await stockLevelsOf(
    db,
    client,
    rows.map((r) => r.productId),
  );
  return rows.map((r) => ({ ...r, mutatedOn: r.mutatedOn ?? null, levels: levels.get(r.productId) ?? [] }));
}

export async function findStockLevels(db: Db, client: Client, productId: number): Promise<ProductStockLevels | undefined> {
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(ownedBy(products, client.id), eq(products.id, productId)));
  if (!product) return undefined;
  const [row] = await listStockLevels(db, client, { sort: 'id' }, { cursor: productId - 1, size: 1 });
  return row;
}

/** The levels per warehouse of the given products, from stock, open shipments, open orders and open packing slips. */
export async function stockLevelsOf(db: Db, client: Client, productIds: number[]): Promise<Map<number, StockLevelValues[]>> {
  const result = new Map<number, StockLevelValues[]>();
  if (!productIds.length) return result;
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
      .where(and(ownedBy(stock, client.id), inArray(stock.productId, productIds)))
      .groupBy(stock.productId, stock.warehouseCode),
    db
      .select({ productId: shipmentItems.productId, warehouse: shipments.warehouseCode, outbound: sumOf(shipmentItems.quantity as never) })
      .from(shipmentItems)
      .innerJoin(shipments, eq(shipments.id, shipmentItems.shipmentId))
      .where(and(ownedBy(shipmentItems, client.id), inArray(shipmentItems.productId, productIds), ne(shipments.status, 'SHIPPED')))
      .groupBy(shipmentItems.productId, shipments.warehouseCode),
    openOrderQuantities(db, client.id, productIds),
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
          ownedBy(inboundPackingSlipItems, client.id),
          inArray(inboundPackingSlipItems.productId, productIds),
          inArray(inboundPackingSlips.status, ['EXPECTED', 'IN_PROGRESS']),
        ),
      )
      .groupBy(inboundPackingSlipItems.productId, inboundPackingSlips.expectedIn),
  ]);

  const components = new Map<number, Map<string, LevelComponents>>();
  const at = (productId: number, warehouse: string) => {
    let byWarehouse = components.get(productId);
    if (!byWarehouse) {
      byWarehouse = new Map();
      components.set(productId, byWarehouse);
    }
    let c = byWarehouse.get(warehouse);
    if (!c) {
      c = emptyComponents();
      byWarehouse.set(warehouse, c);
    }
    return c;
  };
  for (const { productId, warehouse, ...sums } of stockSums) Object.assign(at(productId, warehouse), sums);
  for (const r of outboundSums) at(r.productId, r.warehouse).outbound += r.outbound;
  for (const r of orderedSums) at(r.productId, r.fulfillFrom ?? client.defaultWarehouse).ordered += r.ordered;
  for (const r of expectedSums) at(r.productId, r.warehouse).expected += r.expected;

  for (const [productId, byWarehouse] of components) {
    result.set(
      productId,
      [...byWarehouse.entries()]
        .filter(([, c]) => isRelevant(c))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([warehouse, c]) => stockLevel(warehouse, c)),
    );
  }
  return result;
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

const mutationVisible = (client: Client) => gte(stockMutations.createdOn, daysBefore(clientNow(client), limits.stockMutationRetentionDays));

export async function listStockMutations(db: Db, client: Client, filters: StockMutationFilters, page: Page): Promise<StockMutationRow[]> {
  const conditions = [ownedBy(stockMutations, client.id), gt(stockMutations.id, page.cursor), mutationVisible(client)];
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

/** One mutation of the ledger, within the same retention window as the list. */
export async function findStockMutation(db: Db, client: Client, id: number): Promise<StockMutationRow | undefined> {
  const [row] = await db
    .select()
    .from(stockMutations)
    .where(and(ownedBy(stockMutations, client.id), eq(stockMutations.id, id), mutationVisible(client)));
  return row;
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

// ---- bookings (inside the caller's transaction; each takes the client's warehouse lock, which its caller takes first)

export interface StockPlace {
  warehouseCode: string;
  locationType: string;
  locationCode: string;
}

export interface Goods {
  productId: number;
  sku: string;
  quantity: number;
  quality?: string;
  status?: string;
  lotNumber?: string | null;
  expirationDate?: string | null;
  expirationStatus?: string;
  inboundItemId?: number | null;
}

export interface MutationLink {
  type: StockMutationType;
  correctionCode?: CorrectionCode | null;
  remarks?: string | null;
  inboundItemId?: number | null;
  shipmentItemId?: number | null;
  returnItemId?: number | null;
}

/** Where a product is picked from in a warehouse: one pick location per product keeps the sandbox's stock easy to read. */
export const pickLocation = (warehouseCode: string, productId: number, locationType = 'PICKABLE'): StockPlace => ({
  warehouseCode,
  locationType,
  locationCode: `${warehouseCode}-${locationType.slice(0, 3)}-${String(productId).padStart(6, '0')}`,
});

const placeOf = ({ warehouseCode, locationType, locationCode }: StockPlace): StockPlace => ({ warehouseCode, locationType, locationCode });

async function locationId(tx: Db, clientId: number, place: StockPlace): Promise<number> {
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

async function bookMutation(tx: Db, client: Client, place: StockPlace, goods: Goods, quantity: number, link: MutationLink, now: Date) {
  await tx.insert(stockMutations).values({
    clientId: client.id,
    productId: goods.productId,
    sku: goods.sku,
    type: link.type,
    createdOn: now,
    ...placeOf(place),
    quantity,
    quality: goods.quality ?? 'OK',
    status: goods.status ?? 'OK',
    expirationDate: goods.expirationDate ?? null,
    lotNumber: goods.lotNumber ?? null,
    correctionCode: link.correctionCode ?? null,
    remarks: link.remarks ?? null,
    inboundItemId: link.inboundItemId ?? null,
    shipmentItemId: link.shipmentItemId ?? null,
    returnItemId: link.returnItemId ?? null,
  });
}

/** Puts goods on a location and books the mutation; goods equal in lot, date, quality, status and receipt join one stock row. */
export async function putStock(tx: Tx, client: Client, place: StockPlace, goods: Goods, link: MutationLink, now: Date): Promise<void> {
  if (goods.quantity <= 0) return;
  await lockClientWarehouse(tx, client.id);
  const stockLocationId = await locationId(tx, client.id, place);
  const quality = goods.quality ?? 'OK';
  const status = goods.status ?? 'OK';
  const [same] = await tx
    .select({ id: stock.id })
    .from(stock)
    .where(
      and(
        ownedBy(stock, client.id),
        eq(stock.productId, goods.productId),
        eq(stock.stockLocationId, stockLocationId),
        eq(stock.quality, quality),
        eq(stock.status, status),
        eq(stock.quarantined, false),
        sql`${stock.lotNumber} is not distinct from ${goods.lotNumber ?? null}::text`,
        sql`${stock.expirationDate} is not distinct from ${goods.expirationDate ?? null}::date`,
        sql`${stock.inboundItemId} is not distinct from ${goods.inboundItemId ?? null}::integer`,
      ),
    )
    .for('update');
  if (same) {
    await tx
      .update(stock)
      .set({ quantity: sql`${stock.quantity} + ${goods.quantity}`, modifiedOn: now })
      .where(eq(stock.id, same.id));
  } else {
    await tx.insert(stock).values({
      clientId: client.id,
      productId: goods.productId,
      sku: goods.sku,
      stockLocationId,
      ...placeOf(place),
      quantity: goods.quantity,
      quality,
      status,
      expirationDate: goods.expirationDate ?? null,
      expirationStatus: goods.expirationStatus ?? 'OK',
      lotNumber: goods.lotNumber ?? null,
      modifiedOn: now,
      receivedOn: now,
      inboundItemId: goods.inboundItemId ?? null,
    });
  }
  await bookMutation(tx, client, place, { ...goods, quality, status }, goods.quantity, link, now);
}

export interface TakenStock {
  quantity: number;
  lotNumber: string | null;
  expirationDate: string | null;
}

/**
 * Takes goods of a product out of a warehouse's sellable stock (first expiring first) and books a negative mutation per
 * stock row. Returns what it took and how much was missing; the caller decides what a shortage means.
 */
export async function takeStock(
  tx: Tx,
  client: Client,
  input: { productId: number; warehouseCode: string; quantity: number },
  link: MutationLink,
  now: Date,
) {
  await lockClientWarehouse(tx, client.id);
  const rows = await tx
    .select()
    .from(stock)
    .where(
      and(
        ownedBy(stock, client.id),
        eq(stock.productId, input.productId),
        eq(stock.warehouseCode, input.warehouseCode),
        eq(stock.quarantined, false),
        eq(stock.quality, 'OK'),
        eq(stock.status, 'OK'),
        notInArray(stock.locationType, [...locationTypesExcludedFromFulfilment]),
      ),
    )
    .orderBy(sql`${stock.expirationDate} asc nulls last`, asc(stock.id))
    .for('update');
  const taken: TakenStock[] = [];
  let missing = input.quantity;
  for (const row of rows) {
    if (missing === 0) break;
    const quantity = Math.min(row.quantity, missing);
    missing -= quantity;
    // A stock row holds a positive quantity: an emptied row goes.
    if (quantity === row.quantity) await tx.delete(stock).where(eq(stock.id, row.id));
    else
      await tx
        .update(stock)
        .set({ quantity: row.quantity - quantity, modifiedOn: now })
        .where(eq(stock.id, row.id));
    await bookMutation(tx, client, row, row, -quantity, link, now);
    taken.push({ quantity, lotNumber: row.lotNumber, expirationDate: row.expirationDate });
  }
  return { taken, missing };
}
