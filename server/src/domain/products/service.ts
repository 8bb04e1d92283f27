// Products: what orders and inbound goods refer to by sku.
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import { isUniqueViolation, schema, type Db } from '../../db/index.ts';
import { apiError } from '../../http/errors.ts';
import type { Page } from '../../http/query.ts';

const { products } = schema;
export type ProductRow = typeof products.$inferSelect;

export interface NewProduct {
  sku: string;
  name: string;
  description?: string | null;
  barcode?: string | null;
  hasBarcode?: boolean;
  type?: string;
  status?: string;
}

export async function createProduct(db: Db, clientId: number, input: NewProduct): Promise<ProductRow> {
  try {
    const [row] = await db.insert(products).values({
      clientId,
      sku: input.sku,
      name: input.name,
      description: input.description ?? null,
      barcode: input.barcode ?? null,
      hasBarcode: Boolean(input.barcode) || (input.hasBarcode ?? false),
      type: input.type ?? 'DEFAULT',
      status: input.status ?? 'AVAILABLE',
    }).returning();
    return row;
  } catch (error) {
    if (isUniqueViolation(error, 'products_client_sku_key')) throw apiError('409', `A product with sku "${input.sku}" already exists.`, { pointer: '/data/attributes/sku' });
    if (isUniqueViolation(error, 'products_client_barcode_key')) throw apiError('409', `A product with barcode "${input.barcode}" already exists.`, { pointer: '/data/attributes/barcode' });
    throw error;
  }
}

export async function findProduct(db: Db, clientId: number, id: number): Promise<ProductRow | undefined> {
  const [row] = await db.select().from(products).where(and(eq(products.clientId, clientId), eq(products.id, id)));
  return row;
}

export async function listProducts(db: Db, clientId: number, filters: { skus?: string[]; barcodes?: string[] }, page: Page): Promise<ProductRow[]> {
  const conditions = [eq(products.clientId, clientId), gt(products.id, page.cursor)];
  if (filters.skus) conditions.push(inArray(products.sku, filters.skus));
  if (filters.barcodes) conditions.push(inArray(products.barcode, filters.barcodes));
  return db.select().from(products).where(and(...conditions)).orderBy(asc(products.id)).limit(page.size);
}
