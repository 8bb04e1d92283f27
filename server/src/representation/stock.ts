// Stock: a quantity of a product at a location, with the location as an include.
import type { Db } from '../platform/db/index.ts';
import { locationsOf, type StockRow } from '../modules/inventory/service.ts';
import { one, self, type ResourceObject } from './resource.ts';
import { stockLocationResource } from './stock-locations.ts';

export function stockResource(s: StockRow, base: string): ResourceObject {
  return {
    type: 'stock',
    id: s.id,
    attributes: {
      sku: s.sku,
      quantity: s.quantity,
      locationType: s.locationType,
      locationCode: s.locationCode,
      quality: s.quality,
      status: s.status,
      expirationDate: s.expirationDate,
      expirationStatus: s.expirationStatus,
      lotNumber: s.lotNumber,
      quarantined: s.quarantined,
      modifiedOn: s.modifiedOn.toISOString(),
      receivedOn: s.receivedOn.toISOString(),
    },
    relationships: {
      stockLocation: one('stockLocation', s.stockLocationId),
      product: one('product', s.productId),
      inboundItem: one('inboundItem', s.inboundItemId),
    },
    links: self(base, 'stock', s.id),
  };
}

/** The stock of `rows`, with their locations when `include` names them (one query). */
export async function stockDocuments(db: Db, clientId: number, rows: StockRow[], include: ReadonlySet<string>, base: string) {
  const locations = include.has('stockLocation')
    ? await locationsOf(
        db,
        clientId,
        rows.map((s) => s.stockLocationId),
      )
    : [];
  return {
    data: rows.map((s) => stockResource(s, base)),
    ...(include.size ? { included: locations.map((l) => stockLocationResource(l, base)) } : {}),
  };
}
