// The client's reference data: order types, shipping methods, return reasons, and the settings answer built from them.
import { and, asc, eq, gt } from 'drizzle-orm';
import { countries, languages, paymentMethods } from '@shopapi/contract';
import { schema, type Db } from '../../db/index.ts';
import type { Page } from '../../http/query.ts';

const { orderTypes, returnReasons, shippingMethods } = schema;

export async function findOrderType(db: Db, clientId: number, id: number) {
  const [row] = await db.select().from(orderTypes).where(and(eq(orderTypes.clientId, clientId), eq(orderTypes.id, id)));
  return row;
}

export async function findMainShippingMethod(db: Db, clientId: number, id: number) {
  const [row] = await db.select().from(shippingMethods)
    .where(and(eq(shippingMethods.clientId, clientId), eq(shippingMethods.id, id), eq(shippingMethods.kind, 'main')));
  return row;
}

/** The client's default main shipping method (the first one). */
export async function defaultMainShippingMethod(db: Db, clientId: number) {
  const [row] = await db.select().from(shippingMethods)
    .where(and(eq(shippingMethods.clientId, clientId), eq(shippingMethods.kind, 'main'))).orderBy(asc(shippingMethods.id)).limit(1);
  return row;
}

/** Warehouses where a main shipping method can ship from: the order's fulfilment strategy. */
export async function warehousesOf(db: Db, clientId: number, mainShippingMethodId: number): Promise<string[]> {
  const rows = await db.select({ warehouse: shippingMethods.warehouse }).from(shippingMethods)
    .where(and(eq(shippingMethods.clientId, clientId), eq(shippingMethods.mainShippingMethodId, mainShippingMethodId)));
  return rows.map((r) => r.warehouse).filter((w): w is string => !!w);
}

/** The warehouse-specific shipping method a shipment from this warehouse uses. */
export async function warehouseShippingMethod(db: Db, clientId: number, mainShippingMethodId: number, warehouse: string) {
  const [row] = await db.select().from(shippingMethods).where(and(
    eq(shippingMethods.clientId, clientId), eq(shippingMethods.mainShippingMethodId, mainShippingMethodId), eq(shippingMethods.warehouse, warehouse),
  ));
  return row;
}

export async function settingsOf(db: Db, clientId: number) {
  const [types, methods, reasons] = await Promise.all([
    db.select().from(orderTypes).where(eq(orderTypes.clientId, clientId)).orderBy(asc(orderTypes.id)),
    db.select().from(shippingMethods).where(eq(shippingMethods.clientId, clientId)).orderBy(asc(shippingMethods.id)),
    db.select().from(returnReasons).where(eq(returnReasons.clientId, clientId)).orderBy(asc(returnReasons.id)),
  ]);
  const idNameCode = (r: { id: number; name: string; code: string }) => ({ id: r.id, name: r.name, code: r.code });
  return {
    mainShippingMethods: methods.filter((m) => m.kind === 'main').map((m) => ({
      ...idNameCode(m),
      shippingMethods: methods.filter((w) => w.mainShippingMethodId === m.id).map((w) => ({ id: w.id, warehouse: w.warehouse ?? '' })),
    })),
    shippingMethods: methods.filter((m) => m.kind === 'warehouse').map(idNameCode),
    returnShippingMethods: methods.filter((m) => m.kind === 'return').map(idNameCode),
    orderTypes: types.map(idNameCode),
    countries: countries.map(idNameCode),
    languages: languages.map(idNameCode),
    returnReasons: reasons.map(idNameCode),
    paymentMethods: paymentMethods.map(idNameCode),
  };
}

export type ShippingMethodRow = typeof shippingMethods.$inferSelect;
export type ReturnReasonRow = typeof returnReasons.$inferSelect;

export async function listShippingMethods(db: Db, clientId: number, page: Page): Promise<ShippingMethodRow[]> {
  return db.select().from(shippingMethods).where(and(eq(shippingMethods.clientId, clientId), gt(shippingMethods.id, page.cursor)))
    .orderBy(asc(shippingMethods.id)).limit(page.size);
}

export async function findShippingMethod(db: Db, clientId: number, id: number): Promise<ShippingMethodRow | undefined> {
  const [row] = await db.select().from(shippingMethods).where(and(eq(shippingMethods.clientId, clientId), eq(shippingMethods.id, id)));
  return row;
}

export async function listReturnReasons(db: Db, clientId: number, page: Page): Promise<ReturnReasonRow[]> {
  return db.select().from(returnReasons).where(and(eq(returnReasons.clientId, clientId), gt(returnReasons.id, page.cursor)))
    .orderBy(asc(returnReasons.id)).limit(page.size);
}

export async function findReturnReason(db: Db, clientId: number, id: number): Promise<ReturnReasonRow | undefined> {
  const [row] = await db.select().from(returnReasons).where(and(eq(returnReasons.clientId, clientId), eq(returnReasons.id, id)));
  return row;
}
