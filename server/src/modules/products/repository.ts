// The products module's SQL: the service keeps the rules (states, measurements, hs codes, uniqueness answers) and reads
// and writes through these.
import { and, asc, eq, getTableColumns, gt, inArray, ne, or, sql } from 'drizzle-orm';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';

const { products, productParts, stock } = schema;

export const productColumns = getTableColumns(products);
export type ProductRow = typeof products.$inferSelect;
export interface ProductPart {
  partId: number;
  quantity: number;
}

/** The client's products with this sku or this barcode (other than `exceptId`). */
export function productsClashing(db: Db, clientId: number, clash: { sku?: string; barcode: string | null }, exceptId: number | undefined) {
  const clashes = [...(clash.sku ? [eq(products.sku, clash.sku)] : []), ...(clash.barcode ? [eq(products.barcode, clash.barcode)] : [])];
  return db
    .select({ id: products.id, sku: products.sku, barcode: products.barcode })
    .from(products)
    .where(and(ownedBy(products, clientId), or(...clashes), exceptId ? ne(products.id, exceptId) : undefined));
}

/** The type of each of these products of the client (ids that are not its products are left out). */
export function typesOfProducts(db: Db, clientId: number, ids: number[]) {
  return db
    .select({ id: products.id, type: products.type })
    .from(products)
    .where(and(ownedBy(products, clientId), inArray(products.id, ids)));
}

/** Writes a product and its parts. */
export async function insertProduct(tx: Db, values: typeof products.$inferInsert, parts: ProductPart[]): Promise<ProductRow> {
  const [row] = await tx.insert(products).values(values).returning(productColumns);
  if (parts.length)
    await tx
      .insert(productParts)
      .values(parts.map((p) => ({ clientId: values.clientId, productId: row.id, partId: p.partId, quantity: p.quantity })));
  return row;
}

/** The client's product, locked for a change. */
export async function lockProduct(tx: Db, clientId: number, id: number): Promise<ProductRow | undefined> {
  const [row] = await tx
    .select(productColumns)
    .from(products)
    .where(and(ownedBy(products, clientId), eq(products.id, id)))
    .for('update');
  return row;
}

export async function updateProductRow(
  tx: Db,
  clientId: number,
  id: number,
  values: Partial<typeof products.$inferInsert>,
): Promise<ProductRow> {
  const [row] = await tx
    .update(products)
    .set(values)
    .where(and(ownedBy(products, clientId), eq(products.id, id)))
    .returning(productColumns);
  return row;
}

/** Units of the product lying anywhere in a warehouse. */
export async function stockQuantity(db: Db, clientId: number, productId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${stock.quantity}), 0)::int` })
    .from(stock)
    .where(and(ownedBy(stock, clientId), eq(stock.productId, productId)));
  return Number(row?.total ?? 0);
}

export async function findProduct(db: Db, clientId: number, id: number): Promise<ProductRow | undefined> {
  const [row] = await db
    .select(productColumns)
    .from(products)
    .where(and(ownedBy(products, clientId), eq(products.id, id)));
  return row;
}

/** The client's products with these ids, in id order. */
export async function productsOfClient(db: Db, clientId: number, ids: number[]): Promise<ProductRow[]> {
  if (!ids.length) return [];
  return db
    .select(productColumns)
    .from(products)
    .where(and(ownedBy(products, clientId), inArray(products.id, ids)))
    .orderBy(asc(products.id));
}

/** The sku and weight of these products. No client filter: the ids come from the client's own shipment items and parts. */
export async function skusAndWeightsByIds(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.select({ id: products.id, sku: products.sku, weight: products.weight }).from(products).where(inArray(products.id, ids));
}

export async function listProducts(
  db: Db,
  clientId: number,
  filters: { skus?: string[]; barcodes?: string[] },
  page: Page,
): Promise<ProductRow[]> {
  const conditions = [ownedBy(products, clientId), gt(products.id, page.cursor)];
  if (filters.skus) conditions.push(inArray(products.sku, filters.skus));
  if (filters.barcodes) conditions.push(inArray(products.barcode, filters.barcodes));
  return db
    .select(productColumns)
    .from(products)
    .where(and(...conditions))
    .orderBy(asc(products.id))
    .limit(page.size);
}

/** The parts of each product, by product id, in the order they were given. */
export async function partsOf(db: Db, clientId: number, productIds: number[]): Promise<Map<number, ProductPart[]>> {
  const out = new Map<number, ProductPart[]>(productIds.map((id) => [id, []]));
  if (!productIds.length) return out;
  const rows = await db
    .select()
    .from(productParts)
    .where(and(ownedBy(productParts, clientId), inArray(productParts.productId, productIds)))
    .orderBy(asc(productParts.id));
  for (const r of rows) out.get(r.productId)?.push({ partId: r.partId, quantity: r.quantity });
  return out;
}
