// The client's reference data as orders and returns look it up: order types, shipping methods, return reasons, languages.
// The settings as a whole (read and replaced) are in settings.ts.
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { MAX_ID } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';

const { orderTypes, returnReasons, shippingMethods, languages } = schema;

const isRowId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID;

export async function findOrderType(db: Db, clientId: number, id: number) {
  const [row] = await db
    .select()
    .from(orderTypes)
    .where(and(ownedBy(orderTypes, clientId), eq(orderTypes.id, id)));
  return row;
}

export async function findMainShippingMethod(db: Db, clientId: number, id: number) {
  const [row] = await db
    .select()
    .from(shippingMethods)
    .where(and(ownedBy(shippingMethods, clientId), eq(shippingMethods.id, id), eq(shippingMethods.kind, 'main')));
  return row;
}

/** The client's warehouse-specific shipping method with this id (kind 'warehouse'). */
export async function findWarehouseShippingMethod(db: Db, clientId: number, id: number) {
  const [row] = await db
    .select()
    .from(shippingMethods)
    .where(and(ownedBy(shippingMethods, clientId), eq(shippingMethods.id, id), eq(shippingMethods.kind, 'warehouse')));
  return row;
}

/** The client's default main shipping method (the first one). */
export async function defaultMainShippingMethod(db: Db, clientId: number) {
  const [row] = await db
    .select()
    .from(shippingMethods)
    .where(and(ownedBy(shippingMethods, clientId), eq(shippingMethods.kind, 'main')))
    .orderBy(asc(shippingMethods.id))
    .limit(1);
  return row;
}

/** Warehouses where a main shipping method can ship from: the order's fulfilment strategy. */
export async function warehousesOf(db: Db, clientId: number, mainShippingMethodId: number): Promise<string[]> {
  const rows = await db
    .select({ warehouse: shippingMethods.warehouse })
    .from(shippingMethods)
    .where(and(ownedBy(shippingMethods, clientId), eq(shippingMethods.mainShippingMethodId, mainShippingMethodId)));
  return rows.map((r) => r.warehouse).filter((w): w is string => !!w);
}

/** The warehouse-specific shipping method a shipment from this warehouse uses. */
export async function warehouseShippingMethod(db: Db, clientId: number, mainShippingMethodId: number, warehouse: string) {
  const [row] = await db
    .select()
    .from(shippingMethods)
    .where(
      and(
        ownedBy(shippingMethods, clientId),
        eq(shippingMethods.mainShippingMethodId, mainShippingMethodId),
        eq(shippingMethods.warehouse, warehouse),
      ),
    );
  return row;
}

export type ShippingMethodRow = typeof shippingMethods.$inferSelect;
export type ReturnReasonRow = typeof returnReasons.$inferSelect;

export async function listShippingMethods(db: Db, clientId: number, page: Page): Promise<ShippingMethodRow[]> {
  return db
    .select()
    .from(shippingMethods)
    .where(and(ownedBy(shippingMethods, clientId), gt(shippingMethods.id, page.cursor)))
    .orderBy(asc(shippingMethods.id))
    .limit(page.size);
}

export async function findShippingMethod(db: Db, clientId: number, id: number): Promise<ShippingMethodRow | undefined> {
  const [row] = await db
    .select()
    .from(shippingMethods)
    .where(and(ownedBy(shippingMethods, clientId), eq(shippingMethods.id, id)));
  return row;
}

/** These shipping methods. No client filter: the ids come from the client's own shipments. */
export async function shippingMethodsByIds(db: Db, ids: number[]): Promise<ShippingMethodRow[]> {
  if (!ids.length) return [];
  return db.select().from(shippingMethods).where(inArray(shippingMethods.id, ids));
}

export async function listReturnReasons(db: Db, clientId: number, page: Page): Promise<ReturnReasonRow[]> {
  return db
    .select()
    .from(returnReasons)
    .where(and(ownedBy(returnReasons, clientId), gt(returnReasons.id, page.cursor)))
    .orderBy(asc(returnReasons.id))
    .limit(page.size);
}

/** The client's return reason with this code, compared without regard to case (the lowest id if several match). */
export async function findReturnReasonByCode(db: Db, clientId: number, code: string): Promise<ReturnReasonRow | undefined> {
  const [row] = await db
    .select()
    .from(returnReasons)
    .where(and(ownedBy(returnReasons, clientId), sql`lower(${returnReasons.code}) = lower(${code})`))
    .orderBy(asc(returnReasons.id))
    .limit(1);
  return row;
}

/** The client's language with this id (v2 orders name it as languageId); undefined for any other number. */
export async function findLanguage(db: Db, clientId: number, id: number) {
  if (!isRowId(id)) return undefined;
  const [row] = await db
    .select()
    .from(languages)
    .where(and(ownedBy(languages, clientId), eq(languages.id, id)));
  return row;
}

export async function findReturnReason(db: Db, clientId: number, id: number): Promise<ReturnReasonRow | undefined> {
  const [row] = await db
    .select()
    .from(returnReasons)
    .where(and(ownedBy(returnReasons, clientId), eq(returnReasons.id, id)));
  return row;
}

/** These return reasons. No client filter: the ids come from the client's own return items. */
export async function returnReasonsByIds(db: Db, ids: number[]): Promise<ReturnReasonRow[]> {
  if (!ids.length) return [];
  return db.select().from(returnReasons).where(inArray(returnReasons.id, ids));
}
