// Stock: reading stock, locations, stock levels and the mutation ledger, and the two bookings every stock movement goes
// through (putStock, takeStock), so inbound, returns, shipments and corrections keep stock and ledger in step. The SQL is
// in repository.ts; this file keeps the rules: which goods join a stock row, what is taken first, retention, levels.
import { limits, type correctionCodes, type stockMutationTypes } from '@shopapi/contract';
import type { Db, Tx } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { daysBefore } from '../../platform/time.ts';
import { emptyComponents, isRelevant, stockLevel, type LevelComponents, type StockLevelValues } from './levels.ts';
import {
  addToStockRow,
  deleteStockRow,
  findStockMutation as findVisibleStockMutation,
  insertStockMutations,
  insertStockRow,
  levelSums,
  listStockMutations as listVisibleStockMutations,
  locationId,
  lockClientWarehouse,
  lockSameStock,
  lockSellableStock,
  placeOf,
  productExists,
  productsByLastMutation,
  setStockQuantity,
  type StockLevelFilters,
  type StockMutationFilters,
  type StockMutationRow,
  type StockPlace,
} from './repository.ts';

export {
  findStock,
  findStockLocation,
  listStock,
  locationsOf,
  lockClientWarehouse,
  openOrderQuantities,
  type StockFilters,
  type StockLevelFilters,
  type StockLocationRow,
  type StockMutationFilters,
  type StockMutationRow,
  type StockPlace,
  type StockRow,
} from './repository.ts';

export type StockMutationType = (typeof stockMutationTypes)[number];
export type CorrectionCode = (typeof correctionCodes)[number];

// ---- stock levels

export interface ProductStockLevels {
  productId: number;
  sku: string;
  mutatedOn: Date | null;
  levels: StockLevelValues[];
}

export async function listStockLevels(db: Db, client: Client, filters: StockLevelFilters, page: Page): Promise<ProductStockLevels[]> {
  const rows = await productsByLastMutation(db, client.id, filters, page);
  const levels = await stockLevelsOf(
    db,
    client,
    rows.map((r) => r.productId),
  );
  return rows.map((r) => ({ ...r, mutatedOn: r.mutatedOn ?? null, levels: levels.get(r.productId) ?? [] }));
}

export async function findStockLevels(db: Db, client: Client, productId: number): Promise<ProductStockLevels | undefined> {
  if (!(await productExists(db, client.id, productId))) return undefined;
  const [row] = await listStockLevels(db, client, { sort: 'id' }, { cursor: productId - 1, size: 1 });
  return row;
}

/**
 * The levels per warehouse of the given products, from stock, open shipments, open orders and open packing slips. An
 * order that names no warehouse counts in the client's default one.
 */
export async function stockLevelsOf(db: Db, client: Client, productIds: number[]): Promise<Map<number, StockLevelValues[]>> {
  const result = new Map<number, StockLevelValues[]>();
  if (!productIds.length) return result;
  const { stockSums, outboundSums, orderedSums, expectedSums } = await levelSums(db, client.id, productIds);

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

// ---- the mutation ledger

/** Mutations older than the retention window on the client's clock are not returned. */
const mutationsVisibleFrom = (client: Client) => daysBefore(clientNow(client), limits.stockMutationRetentionDays);

export async function listStockMutations(db: Db, client: Client, filters: StockMutationFilters, page: Page): Promise<StockMutationRow[]> {
  return listVisibleStockMutations(db, client.id, mutationsVisibleFrom(client), filters, page);
}

/** One mutation of the ledger, within the same retention window as the list. */
export async function findStockMutation(db: Db, client: Client, id: number): Promise<StockMutationRow | undefined> {
  return findVisibleStockMutation(db, client.id, mutationsVisibleFrom(client), id);
}

// ---- bookings (inside the caller's transaction; each takes the client's warehouse lock (lockClientWarehouse), which its
// caller takes first)

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

const mutationRow = (clientId: number, place: StockPlace, goods: Goods, quantity: number, link: MutationLink, now: Date) => ({
  clientId,
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

async function bookMutation(tx: Db, clientId: number, place: StockPlace, goods: Goods, quantity: number, link: MutationLink, now: Date) {
  await insertStockMutations(tx, mutationRow(clientId, place, goods, quantity, link, now));
}

/** Puts goods on a location and books the mutation; goods equal in lot, date, quality, status and receipt join one stock row. */
export async function putStock(tx: Tx, clientId: number, place: StockPlace, goods: Goods, link: MutationLink, now: Date): Promise<void> {
  if (goods.quantity <= 0) return;
  await lockClientWarehouse(tx, clientId);
  const stockLocationId = await locationId(tx, clientId, place);
  const quality = goods.quality ?? 'OK';
  const status = goods.status ?? 'OK';
  const same = await lockSameStock(tx, clientId, {
    productId: goods.productId,
    stockLocationId,
    quality,
    status,
    lotNumber: goods.lotNumber ?? null,
    expirationDate: goods.expirationDate ?? null,
    inboundItemId: goods.inboundItemId ?? null,
  });
  if (same) {
    await addToStockRow(tx, same.id, goods.quantity, now);
  } else {
    await insertStockRow(tx, {
      clientId,
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
  await bookMutation(tx, clientId, place, { ...goods, quality, status }, goods.quantity, link, now);
}

/**
 * What putStock of goods the warehouse does not have, then takeStock of them, leave, in three statements where those
 * take ten: the place's location (made when new) and two mutations, `bookedIn`'s of +quantity and `takenBy`'s of
 * -quantity, in that order. The stock row putStock would make, takeStock would empty and delete again, so it is not
 * written. Only right where no sellable unit of the product is left in the place's warehouse (takeStock has just found
 * some missing, under the client's warehouse lock, which this leaves held and needs no more of: it changes no stock row).
 * "Ship now" books a shortage in and out this way.
 */
export async function bookInAndOut(
  tx: Tx,
  clientId: number,
  place: StockPlace,
  goods: Pick<Goods, 'productId' | 'sku' | 'quantity'>,
  bookedIn: MutationLink,
  takenBy: MutationLink,
  now: Date,
): Promise<TakenStock> {
  await locationId(tx, clientId, place);
  await insertStockMutations(tx, [
    mutationRow(clientId, place, goods, goods.quantity, bookedIn, now),
    mutationRow(clientId, place, goods, -goods.quantity, takenBy, now),
  ]);
  return { quantity: goods.quantity, lotNumber: null, expirationDate: null };
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
  clientId: number,
  input: { productId: number; warehouseCode: string; quantity: number },
  link: MutationLink,
  now: Date,
) {
  await lockClientWarehouse(tx, clientId);
  const rows = await lockSellableStock(tx, clientId, input.productId, input.warehouseCode);
  const taken: TakenStock[] = [];
  let missing = input.quantity;
  for (const row of rows) {
    if (missing === 0) break;
    const quantity = Math.min(row.quantity, missing);
    missing -= quantity;
    // A stock row holds a positive quantity: an emptied row goes.
    if (quantity === row.quantity) await deleteStockRow(tx, row.id);
    else await setStockQuantity(tx, row.id, row.quantity - quantity, now);
    await bookMutation(tx, clientId, row, row, -quantity, link, now);
    taken.push({ quantity, lotNumber: row.lotNumber, expirationDate: row.expirationDate });
  }
  return { taken, missing };
}
