// Stock mutations: every change of stock, with what caused it.
import type { StockMutationRow } from '../modules/inventory/service.ts';
import { one, self, type ResourceObject } from './resource.ts';

export function stockMutationResource(m: StockMutationRow, base: string): ResourceObject {
  return {
    type: 'stockMutation',
    id: m.id,
    attributes: {
      type: m.type,
      createdOn: m.createdOn.toISOString(),
      warehouseCode: m.warehouseCode,
      locationType: m.locationType,
      locationCode: m.locationCode,
      sku: m.sku,
      quantity: m.quantity,
      quality: m.quality,
      status: m.status,
      expirationDate: m.expirationDate,
      lotNumber: m.lotNumber,
      correctionCode: m.correctionCode,
      remarks: m.remarks,
    },
    relationships: {
      product: one('product', m.productId),
      returnItem: one('returnItem', m.returnItemId),
      inboundItem: one('inboundItem', m.inboundItemId),
      shipmentItem: one('shipmentItem', m.shipmentItemId),
    },
    links: self(base, 'stockMutations', m.id),
  };
}
