// Shipping methods: the client's reference data; a warehouse method points to the main method it serves.
import type { ShippingMethodRow } from '../modules/reference/service.ts';
import { one, self, type ResourceObject } from './resource.ts';

export function shippingMethodResource(m: ShippingMethodRow, base: string): ResourceObject {
  return {
    type: 'shippingMethod',
    id: m.id,
    attributes: {
      code: m.code,
      name: m.name,
      carrier: m.carrier,
      kind: m.kind.toUpperCase(),
      warehouseCode: m.warehouse,
      paperless: m.paperless,
    },
    relationships: { mainShippingMethod: one('shippingMethod', m.mainShippingMethodId) },
    links: self(base, 'shippingMethods', m.id),
  };
}
