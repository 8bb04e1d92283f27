// The inbound module's SQL: packing slips (v2 purchase orders are the same rows) and their items, inbounds and their
// items, and the product measurements a first receipt fills in. The rules (lifecycles, what a receipt brings, retention,
// the purchase order colours) live in service.ts and purchase-orders.ts.
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, lte, ne, sql } from 'drizzle-orm';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';
import { dayAfter, startOfDay } from '../../platform/time.ts';

const { inboundPackingSlips, inboundPackingSlipItems, inbounds, inboundItems, products } = schema;

export type PackingSlipRow = typeof inboundPackingSlips.$inferSelect;
export type PackingSlipItemRow = typeof inboundPackingSlipItems.$inferSelect;
export type InboundRow = typeof inbounds.$inferSelect;
export type InboundItemRow = typeof inboundItems.$inferSelect;
export type NewPackingSlipRow = typeof inboundPackingSlips.$inferInsert;
export type NewPackingSlipItemRow = typeof inboundPackingSlipItems.$inferInsert;
type ProductRow = typeof products.$inferSelect;

// ---- products the goods are of

/** The client's products with these skus (skus that are not its products are left out). */
export async function productsWithSkus(db: Db, clientId: number, skus: string[]): Promise<{ id: number; sku: string }[]> {
  return db
    .select({ id: products.id, sku: products.sku })
    .from(products)
    .where(and(ownedBy(products, clientId), inArray(products.sku, skus)));
}

export async function productsWithIds(tx: Db, clientId: number, ids: number[]): Promise<ProductRow[]> {
  return tx
    .select()
    .from(products)
    .where(and(ownedBy(products, clientId), inArray(products.id, ids)));
}

export async function setProductMeasurements(
  tx: Db,
  productId: number,
  values: { weight: number; length: number; width: number; height: number },
): Promise<void> {
  await tx.update(products).set(values).where(eq(products.id, productId));
}

// ---- packing slips

/** The client's packing slips with this reference (at most one), other than `exceptId`. */
export async function packingSlipsWithReference(db: Db, clientId: number, reference: string, exceptId?: number): Promise<{ id: number }[]> {
  return db
    .select({ id: inboundPackingSlips.id })
    .from(inboundPackingSlips)
    .where(
      and(
        ownedBy(inboundPackingSlips, clientId),
        eq(inboundPackingSlips.reference, reference),
        exceptId === undefined ? undefined : ne(inboundPackingSlips.id, exceptId),
      ),
    );
}

export async function insertPackingSlip(tx: Db, values: NewPackingSlipRow): Promise<number> {
  const [slip] = await tx.insert(inboundPackingSlips).values(values).returning({ id: inboundPackingSlips.id });
  return slip.id;
}

/** Writes items of a packing slip: several in one statement, or one. */
export async function insertPackingSlipItems(tx: Db, values: NewPackingSlipItemRow | NewPackingSlipItemRow[]): Promise<void> {
  await tx.insert(inboundPackingSlipItems).values(values as NewPackingSlipItemRow[]);
}

export interface PackingSlipFilters {
  statuses?: string[];
  receivedOnLt?: string;
  receivedOnGt?: string;
  completedOnLt?: string;
  completedOnGt?: string;
}

/** The client's packing slips created from `visibleFrom` on (the retention window's start). */
export async function listPackingSlips(
  db: Db,
  clientId: number,
  visibleFrom: Date,
  filters: PackingSlipFilters,
  page: Page,
): Promise<PackingSlipRow[]> {
  const conditions = [
    ownedBy(inboundPackingSlips, clientId),
    gt(inboundPackingSlips.id, page.cursor),
    gte(inboundPackingSlips.createdOn, visibleFrom),
  ];
  if (filters.statuses) conditions.push(inArray(inboundPackingSlips.status, filters.statuses));
  if (filters.receivedOnLt) conditions.push(lt(inboundPackingSlips.receivedOn, startOfDay(filters.receivedOnLt)));
  if (filters.receivedOnGt) conditions.push(gte(inboundPackingSlips.receivedOn, dayAfter(filters.receivedOnGt)));
  if (filters.completedOnLt) conditions.push(lt(inboundPackingSlips.completedOn, startOfDay(filters.completedOnLt)));
  if (filters.completedOnGt) conditions.push(gte(inboundPackingSlips.completedOn, dayAfter(filters.completedOnGt)));
  return db
    .select()
    .from(inboundPackingSlips)
    .where(and(...conditions))
    .orderBy(asc(inboundPackingSlips.id))
    .limit(page.size);
}

export async function findPackingSlip(db: Db, clientId: number, visibleFrom: Date, id: number): Promise<PackingSlipRow | undefined> {
  const [row] = await db
    .select()
    .from(inboundPackingSlips)
    .where(and(ownedBy(inboundPackingSlips, clientId), eq(inboundPackingSlips.id, id), gte(inboundPackingSlips.createdOn, visibleFrom)));
  return row;
}

/** The client's packing slip, locked for a receipt; one created before `visibleFrom` is not found. */
export async function lockVisiblePackingSlip(tx: Db, clientId: number, visibleFrom: Date, id: number): Promise<PackingSlipRow | undefined> {
  const [slip] = await tx
    .select()
    .from(inboundPackingSlips)
    .where(and(ownedBy(inboundPackingSlips, clientId), eq(inboundPackingSlips.id, id), gte(inboundPackingSlips.createdOn, visibleFrom)))
    .for('update');
  return slip;
}

/** The client's packing slip, locked for a v2 purchase order change (whatever its age). */
export async function lockPackingSlip(tx: Db, clientId: number, id: number): Promise<PackingSlipRow | undefined> {
  const [slip] = await tx
    .select()
    .from(inboundPackingSlips)
    .where(and(ownedBy(inboundPackingSlips, clientId), eq(inboundPackingSlips.id, id)))
    .for('update');
  return slip;
}

export async function updatePackingSlip(tx: Db, id: number, values: Partial<NewPackingSlipRow>): Promise<void> {
  await tx.update(inboundPackingSlips).set(values).where(eq(inboundPackingSlips.id, id));
}

export async function deletePackingSlip(tx: Db, id: number): Promise<void> {
  await tx.delete(inboundPackingSlipItems).where(eq(inboundPackingSlipItems.inboundPackingSlipId, id));
  await tx.delete(inboundPackingSlips).where(eq(inboundPackingSlips.id, id));
}

/** The client's packing slips still EXPECTED on a day up to `today`, in id order: the goods that have arrived. */
export async function arrivedPackingSlips(db: Db, clientId: number, today: string): Promise<number[]> {
  const rows = await db
    .select({ id: inboundPackingSlips.id })
    .from(inboundPackingSlips)
    .where(
      and(
        ownedBy(inboundPackingSlips, clientId),
        eq(inboundPackingSlips.status, 'EXPECTED'),
        isNotNull(inboundPackingSlips.expectedOn),
        lte(inboundPackingSlips.expectedOn, today),
      ),
    )
    .orderBy(asc(inboundPackingSlips.id));
  return rows.map((row) => row.id);
}

/** The first day after `afterDay` on which an EXPECTED packing slip of the client is expected. */
export async function firstExpectedDayAfter(db: Db, clientId: number, afterDay: string): Promise<string | null> {
  const [arrival] = await db
    .select({ day: sql<string | null>`min(${inboundPackingSlips.expectedOn})` })
    .from(inboundPackingSlips)
    .where(
      and(ownedBy(inboundPackingSlips, clientId), eq(inboundPackingSlips.status, 'EXPECTED'), gt(inboundPackingSlips.expectedOn, afterDay)),
    );
  return arrival?.day ?? null;
}

/** Completes the client's CHECKED packing slips among these whose inbounds are all complete, at their last completion. */
export async function completeFinishedPackingSlips(tx: Db, clientId: number, slipIds: number[]): Promise<void> {
  await tx
    .update(inboundPackingSlips)
    .set({
      status: 'COMPLETED',
      completedOn: sql`(select max(i.completed_on) from inbounds i where i.inbound_packing_slip_id = ${inboundPackingSlips.id})`,
    })
    .where(
      and(
        ownedBy(inboundPackingSlips, clientId),
        inArray(inboundPackingSlips.id, slipIds),
        eq(inboundPackingSlips.status, 'CHECKED'),
        sql`not exists (select 1 from inbounds i where i.inbound_packing_slip_id = ${inboundPackingSlips.id} and i.status <> 'COMPLETED')`,
      ),
    );
}

// ---- packing slip items

export async function itemsOfPackingSlips(db: Db, slipIds: number[]): Promise<PackingSlipItemRow[]> {
  if (!slipIds.length) return [];
  return db
    .select()
    .from(inboundPackingSlipItems)
    .where(inArray(inboundPackingSlipItems.inboundPackingSlipId, slipIds))
    .orderBy(asc(inboundPackingSlipItems.id));
}

/** The items of one packing slip, in id order. */
export async function itemsOfPackingSlip(tx: Db, slipId: number): Promise<PackingSlipItemRow[]> {
  return tx
    .select()
    .from(inboundPackingSlipItems)
    .where(eq(inboundPackingSlipItems.inboundPackingSlipId, slipId))
    .orderBy(asc(inboundPackingSlipItems.id));
}

/** The items of one packing slip, in id order, locked for a change. */
export async function lockItemsOfPackingSlip(tx: Db, slipId: number): Promise<PackingSlipItemRow[]> {
  return tx
    .select()
    .from(inboundPackingSlipItems)
    .where(eq(inboundPackingSlipItems.inboundPackingSlipId, slipId))
    .orderBy(asc(inboundPackingSlipItems.id))
    .for('update');
}

/** The items of one packing slip as they stand now, in no particular order. */
export async function currentItemsOfPackingSlip(tx: Db, slipId: number): Promise<PackingSlipItemRow[]> {
  return tx.select().from(inboundPackingSlipItems).where(eq(inboundPackingSlipItems.inboundPackingSlipId, slipId));
}

/** What each item of one packing slip expects and has received, in no particular order. */
export async function receivedOfPackingSlip(tx: Db, slipId: number): Promise<{ quantity: number; received: number }[]> {
  return tx
    .select({ quantity: inboundPackingSlipItems.quantity, received: inboundPackingSlipItems.received })
    .from(inboundPackingSlipItems)
    .where(eq(inboundPackingSlipItems.inboundPackingSlipId, slipId));
}

/** One item of a packing slip created from `visibleFrom` on (the slip's retention applies to its items). */
export async function findPackingSlipItem(
  db: Db,
  clientId: number,
  visibleFrom: Date,
  id: number,
): Promise<PackingSlipItemRow | undefined> {
  const [row] = await db
    .select({ item: inboundPackingSlipItems })
    .from(inboundPackingSlipItems)
    .innerJoin(inboundPackingSlips, eq(inboundPackingSlips.id, inboundPackingSlipItems.inboundPackingSlipId))
    .where(
      and(ownedBy(inboundPackingSlipItems, clientId), eq(inboundPackingSlipItems.id, id), gte(inboundPackingSlips.createdOn, visibleFrom)),
    );
  return row?.item;
}

export async function addToReceived(tx: Db, itemId: number, quantity: number): Promise<void> {
  await tx
    .update(inboundPackingSlipItems)
    .set({ received: sql`${inboundPackingSlipItems.received} + ${quantity}` })
    .where(eq(inboundPackingSlipItems.id, itemId));
}

export async function updatePackingSlipItem(tx: Db, id: number, values: Partial<NewPackingSlipItemRow>): Promise<void> {
  await tx.update(inboundPackingSlipItems).set(values).where(eq(inboundPackingSlipItems.id, id));
}

export async function deletePackingSlipItem(tx: Db, id: number): Promise<void> {
  await tx.delete(inboundPackingSlipItems).where(eq(inboundPackingSlipItems.id, id));
}

// ---- inbounds

/** The latest inbound of each packing slip. */
export async function latestInbounds(db: Db, slipIds: number[]): Promise<Map<number, number>> {
  if (!slipIds.length) return new Map();
  const rows = await db
    .select({ id: inbounds.id, slipId: inbounds.inboundPackingSlipId })
    .from(inbounds)
    .where(inArray(inbounds.inboundPackingSlipId, slipIds))
    .orderBy(desc(inbounds.id));
  const latest = new Map<number, number>();
  for (const r of rows) if (!latest.has(r.slipId!)) latest.set(r.slipId!, r.id);
  return latest;
}

export async function listInbounds(db: Db, clientId: number, filters: { statuses?: string[] }, page: Page): Promise<InboundRow[]> {
  const conditions = [ownedBy(inbounds, clientId), gt(inbounds.id, page.cursor)];
  if (filters.statuses) conditions.push(inArray(inbounds.status, filters.statuses));
  return db
    .select()
    .from(inbounds)
    .where(and(...conditions))
    .orderBy(asc(inbounds.id))
    .limit(page.size);
}

export async function findInbound(db: Db, clientId: number, id: number): Promise<InboundRow | undefined> {
  const [row] = await db
    .select()
    .from(inbounds)
    .where(and(ownedBy(inbounds, clientId), eq(inbounds.id, id)));
  return row;
}

export async function insertInbound(tx: Db, values: typeof inbounds.$inferInsert): Promise<InboundRow> {
  const [inbound] = await tx.insert(inbounds).values(values).returning();
  return inbound;
}

export async function updateInbound(tx: Db, id: number, values: Partial<InboundRow>): Promise<void> {
  await tx.update(inbounds).set(values).where(eq(inbounds.id, id));
}

/** Completes the client's CHECKED inbounds whose completion moment is up to `now`, at that moment. */
export async function completeDueCheckedInbounds(tx: Db, clientId: number, now: Date) {
  return tx
    .update(inbounds)
    .set({ status: 'COMPLETED', completedOn: sql`${inbounds.completesOn}` })
    .where(and(ownedBy(inbounds, clientId), eq(inbounds.status, 'CHECKED'), lte(inbounds.completesOn, now)))
    .returning({ id: inbounds.id, slipId: inbounds.inboundPackingSlipId, completedOn: inbounds.completedOn });
}

/** The first moment after `after` at which a CHECKED inbound of the client completes. */
export async function firstCompletionAfter(db: Db, clientId: number, after: Date): Promise<Date | null> {
  const [completion] = await db
    .select({ at: sql<Date | null>`min(${inbounds.completesOn})`.mapWith(inbounds.completesOn) })
    .from(inbounds)
    .where(and(ownedBy(inbounds, clientId), eq(inbounds.status, 'CHECKED'), gt(inbounds.completesOn, after)));
  return completion?.at ?? null;
}

// ---- inbound items

export async function itemsOfInbounds(db: Db, inboundIds: number[]): Promise<InboundItemRow[]> {
  if (!inboundIds.length) return [];
  return db.select().from(inboundItems).where(inArray(inboundItems.inboundId, inboundIds)).orderBy(asc(inboundItems.id));
}

export async function findInboundItem(db: Db, clientId: number, id: number): Promise<InboundItemRow | undefined> {
  const [row] = await db
    .select()
    .from(inboundItems)
    .where(and(ownedBy(inboundItems, clientId), eq(inboundItems.id, id)));
  return row;
}

export async function insertInboundItem(tx: Db, values: typeof inboundItems.$inferInsert): Promise<number> {
  const [item] = await tx.insert(inboundItems).values(values).returning({ id: inboundItems.id });
  return item.id;
}
