// Stock locations: where stock lies in the warehouse. Read alone and included in stock.
import type { StockLocationRow } from '../modules/inventory/service.ts';
import { self, type ResourceObject } from './resource.ts';

export function stockLocationResource(l: StockLocationRow, base: string): ResourceObject {
  return {
    type: 'stockLocation',
    id: l.id,
    attributes: { warehouseCode: l.warehouseCode, locationType: l.locationType, locationCode: l.locationCode },
    links: self(base, 'stockLocations', l.id),
  };
}
