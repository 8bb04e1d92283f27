// The v2 view of inventory: stock per product over all warehouses (from the same levels as /v3/stockLevels), the
// products changed in a period, and the stock mutations a v2 integration syncs (all or nothing).
import { and, asc, eq, gte, inArray, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import { clientNow } from '../clients/service.ts';
import type { Client } from '../clients/client.ts';
import { daysBefore } from '../../platform/time.ts';
import { requireEveryId } from '../shared/sync.ts';
import { openOrderQuantities, stockLevelsOf, type StockMutationRow } from './service.ts';

const { stock, stockMutations, products, inboundItems, inbounds, inboundPackingSlips, returnItems, returnReasons, shipmentItems } = schema;

export interface ProductStock {
  productId: number;
  physical: number;
  expected: number;
  outbound: number;
  ordered: number;
  unavailable: number;
  free: number;
  economic: number;
  available: number;
  /** Physical stock per best-before date and lot, for goods that have either. */
  thts: { quantity: number; tht: string | null; lotNumber: string | null }[];
}

/** Each product's v3 stock levels summed over its warehouses, with what open orders hold and its dated or lotted stock. */
export async function stockOfProducts(db: Db, client: Client, productIds: number[]): Promise<Map<number, ProductStock>> {
  const [levels, ordered, batches] = await Promise.all([
    stockLevelsOf(db, client, productIds),
    productIds.length ? openOrderQuantities(db, client.id, productIds) : [],
    productIds.length
      ? db
          .select({
            productId: stock.productId,
            tht: stock.expirationDate,
            lotNumber: stock.lotNumber,
            quantity: sql<number>`sum(${stock.quantity})`.mapWith(Number),
          })
          .from(stock)
          .where(
            and(
              ownedBy(stock, client.id),
              inArray(stock.productId, productIds),
              or(isNotNull(stock.expirationDate), isNotNull(stock.lotNumber)),
            ),
          )
          .groupBy(stock.productId, stock.expirationDate, stock.lotNumber)
          .orderBy(sql`${stock.expirationDate} asc nulls last`, asc(stock.lotNumber))
      : [],
  ]);
  const out = new Map<number, ProductStock>();
  for (const productId of productIds) {
    const sum = (key: 'physical' | 'expected' | 'outbound' | 'unavailable' | 'free' | 'economic' | 'available') =>
      (levels.get(productId) ?? []).reduce((total, level) => total + level[key], 0);
    out.set(productId, {
      productId,
      physical: sum('physical'),
      expected: sum('expected'),
      outbound: sum('outbound'),
      unavailable: sum('unavailable'),
      free: sum('free'),
      economic: sum('economic'),
      available: sum('available'),
      ordered: ordered.filter((o) => o.productId === productId).reduce((total, o) => total + o.ordered, 0),
      thts: batches.filter((b) => b.productId === productId).map(({ quantity, tht, lotNumber }) => ({ quantity, tht, lotNumber })),
    });
  }
  return out;
}

/** Products with a stock mutation in [from, to): what changed since the previous bulk call that ended at `from`. */
export async function productsMutatedBetween(db: Db, clientId: number, from: Date, to: Date): Promise<number[]> {
  const rows = await db
    .selectDistinct({ productId: stockMutations.productId })
    .from(stockMutations)
    .where(and(ownedBy(stockMutations, clientId), gte(stockMutations.createdOn, from), lt(stockMutations.createdOn, to)))
    .orderBy(asc(stockMutations.productId));
  return rows.map((r) => r.productId);
}

export async function allProductIds(db: Db, clientId: number): Promise<number[]> {
  return (await db.select({ id: products.id }).from(products).where(ownedBy(products, clientId)).orderBy(asc(products.id))).map(
    (r) => r.id,
  );
}

const withinRetention = (client: Client) => gte(stockMutations.createdOn, daysBefore(clientNow(client), limits.stockMutationRetentionDays));

export interface MutationToSync {
  mutation: StockMutationRow;
  purchaseOrder: { id: number; reference: string; comments: string | null } | null;
  returned: { shipmentId: number; orderId: number; externalOrderNumber: string; returnReason: string | null } | null;
}

/**
 * The mutations a v2 integration syncs: not yet synced, of the last 7 days on the client's clock, of the types asked for
 * (v2 asks for received, returned, corrected, composed; never shipments), without the returns of damaged goods.
 */
export async function unsyncedStockMutations(db: Db, client: Client, opts: { types: string[] }): Promise<MutationToSync[]> {
  const rows = await db
    .select({
      mutation: stockMutations,
      purchaseOrderId: inboundPackingSlips.id,
      reference: inboundPackingSlips.reference,
      comments: inboundPackingSlips.comments,
      shipmentId: shipmentItems.shipmentId,
      orderId: returnItems.orderId,
      externalOrderNumber: returnItems.externalOrderNumber,
      returnReason: returnReasons.name,
    })
    .from(stockMutations)
    .leftJoin(inboundItems, eq(inboundItems.id, stockMutations.inboundItemId))
    .leftJoin(inbounds, eq(inbounds.id, inboundItems.inboundId))
    .leftJoin(inboundPackingSlips, eq(inboundPackingSlips.id, inbounds.inboundPackingSlipId))
    .leftJoin(returnItems, eq(returnItems.id, stockMutations.returnItemId))
    .leftJoin(shipmentItems, eq(shipmentItems.id, returnItems.shipmentItemId))
    .leftJoin(returnReasons, eq(returnReasons.id, returnItems.returnReasonId))
    .where(
      and(
        ownedBy(stockMutations, client.id),
        eq(stockMutations.synced, false),
        withinRetention(client),
        inArray(stockMutations.type, opts.types),
        or(ne(stockMutations.type, 'RETURN'), ne(stockMutations.quality, 'DAMAGED')),
      ),
    )
    .orderBy(asc(stockMutations.id));
  return rows.map((r) => ({
    mutation: r.mutation,
    purchaseOrder: r.purchaseOrderId === null ? null : { id: r.purchaseOrderId, reference: r.reference!, comments: r.comments },
    returned:
      r.orderId === null
        ? null
        : { shipmentId: r.shipmentId!, orderId: r.orderId, externalOrderNumber: r.externalOrderNumber!, returnReason: r.returnReason },
  }));
}

/** Marks stock mutations synced, all or nothing: an id that is unknown or another client's leaves every mutation as it was. */
export async function syncStockMutations(db: Db, client: Client, ids: number[]): Promise<void> {
  await db.transaction(async (tx) => {
    const found = await tx
      .select({ id: stockMutations.id })
      .from(stockMutations)
      .where(and(ownedBy(stockMutations, client.id), inArray(stockMutations.id, ids), withinRetention(client)))
      // In id order: two calls with overlapping ids lock them in one order, so neither holds a row the other waits for.
      .orderBy(asc(stockMutations.id))
      .for('update');
    requireEveryId(ids, found);
    await tx
      .update(stockMutations)
      .set({ synced: true })
      .where(and(ownedBy(stockMutations, client.id), inArray(stockMutations.id, ids)));
  });
}
