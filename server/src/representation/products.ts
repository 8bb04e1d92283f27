// Products, with their parts (bundles) as a relationship.
import type { Db } from '../platform/db/index.ts';
import { partsOf, type ProductPart, type ProductRow } from '../modules/products/service.ts';
import { extras, one, self, type ResourceObject } from './resource.ts';
import { metadataExtraFields } from '@shopapi/contract';

export function productResource(p: ProductRow, parts: ProductPart[], base: string): ResourceObject {
  return {
    type: 'product',
    id: p.id,
    attributes: {
      sku: p.sku,
      name: p.name,
      description: p.description,
      hasBarcode: p.hasBarcode,
      barcode: p.barcode,
      type: p.type,
      status: p.status,
      stockLevelType: p.stockLevelType,
      hasLotNumber: p.hasLotNumber,
      hasSerialNumber: p.hasSerialNumber,
      hasExpirationDate: p.hasExpirationDate,
      expirationDate: p.expirationDate,
      expirationDateMargin: p.expirationDateMargin,
      expirationDateWarning: p.expirationDateWarning,
      countryOfOrigin: p.countryOfOrigin,
      hsCodes: p.hsCodes,
      purchasePrice: p.purchasePrice.map((price) => ({ currency: price.currency, amount: Number(price.amount) })),
      metadata: extras(p.metadata, metadataExtraFields),
      weight: p.weight,
      length: p.length,
      width: p.width,
      height: p.height,
    },
    relationships: {
      // The stock level of a product has the product's id.
      stockLevels: one('stockLevel', p.id),
      parts: { data: parts.map((part) => ({ type: 'product', id: part.partId, meta: { quantity: part.quantity } })) },
    },
    links: self(base, 'products', p.id),
  };
}

/** The products of `rows` (the client's, as the product service selected them), with their parts: one query. */
export async function productDocuments(db: Db, clientId: number, rows: ProductRow[], base: string): Promise<ResourceObject[]> {
  const parts = await partsOf(
    db,
    clientId,
    rows.map((p) => p.id),
  );
  return rows.map((p) => productResource(p, parts.get(p.id) ?? [], base));
}
