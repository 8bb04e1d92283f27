// Inbound items: what an inbound received. Read alone and included in inbounds.
import type { InboundItemRow } from '../modules/inbound/service.ts';
import { one, self, type ResourceObject } from './resource.ts';

export function inboundItemResource(i: InboundItemRow, base: string): ResourceObject {
  return {
    type: 'inboundItem',
    id: i.id,
    attributes: { quantity: i.quantity, sku: i.sku, lotNumber: i.lotNumber, expirationDate: i.expirationDate },
    relationships: {
      inbound: one('inbound', i.inboundId),
      product: one('product', i.productId),
      inboundPackingSlipItem: one('inboundPackingSlipItem', i.inboundPackingSlipItemId),
    },
    links: self(base, 'inboundItems', i.id),
  };
}
