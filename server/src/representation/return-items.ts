// Return items: one row is both the announced RMA item and the processed return item.
import type { ReturnItemRow } from '../modules/returns/service.ts';
import { one, self, type ResourceObject } from './resource.ts';
import { iso } from '../platform/time.ts';

export function returnItemResource(r: ReturnItemRow, base: string): ResourceObject {
  return {
    type: 'returnItem',
    id: r.id,
    attributes: {
      sku: r.sku,
      quantity: r.quantity,
      condition: r.condition,
      processedOn: iso(r.processedOn),
      processedIn: r.processedIn,
      restockIn: r.restockIn,
      restockOn: iso(r.restockOn),
      comment: r.comment,
      redeliver: r.redeliver,
      externalOrderNumber: r.externalOrderNumber,
    },
    relationships: {
      order: one('order', r.orderId),
      orderItem: one('orderItem', r.orderItemId),
      product: one('product', r.productId),
      return: one('return', r.returnId),
      returnAuthorizationItem: one('returnAuthorizationItem', r.id),
      returnReason: one('returnReason', r.returnReasonId),
      shipmentItem: one('shipmentItem', r.shipmentItemId),
    },
    links: self(base, 'returnItems', r.id),
  };
}
