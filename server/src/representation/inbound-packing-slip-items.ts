// Inbound packing slip items: what a packing slip announces. Read alone and included in packing slips.
import type { PackingSlipItemRow } from '../modules/inbound/service.ts';
import { one, self, type ResourceObject } from './resource.ts';

export function packingSlipItemResource(i: PackingSlipItemRow, base: string): ResourceObject {
  return {
    type: 'inboundPackingSlipItem',
    id: i.id,
    attributes: { sku: i.sku, quantity: i.quantity, received: i.received },
    relationships: { inboundPackingSlip: one('inboundPackingSlip', i.inboundPackingSlipId), product: one('product', i.productId) },
    links: self(base, 'inboundPackingSlipItems', i.id),
  };
}
