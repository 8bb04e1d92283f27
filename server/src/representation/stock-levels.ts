// Stock levels: a product's quantities per level; a stock level has its product's id.
import type { ProductStockLevels } from '../modules/inventory/service.ts';
import { one, self, type ResourceObject } from './resource.ts';
import { iso } from '../platform/time.ts';

export function stockLevelResource(level: ProductStockLevels, base: string): ResourceObject {
  return {
    type: 'stockLevel',
    id: level.productId,
    attributes: { sku: level.sku, mutatedOn: iso(level.mutatedOn), levels: level.levels },
    relationships: { product: one('product', level.productId) },
    links: self(base, 'stockLevels', level.productId),
  };
}
