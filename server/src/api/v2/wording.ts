// The modules' refusals in v2 words: the modules refuse with facts (which ids, which purchase order, which skus), and
// v2Route (envelope.ts) words them here as the v2 spec answers them (section 8), before the envelope is made.
import { purchaseOrderErrors, v2Messages } from '@shopapi/contract';
import { DomainError } from '../../platform/errors.ts';
import { IdsNotFound } from '../../modules/shared/sync.ts';
import { PurchaseOrderRefusal } from '../../modules/inbound/purchase-orders.ts';

/** The error as a v2 answer: a refusal the modules make in facts becomes the v2 message and result; others stay. */
export function inV2Words(error: unknown): unknown {
  if (error instanceof IdsNotFound) return new DomainError({ code: '400', detail: v2Messages.idsNotFound }, { result: error.ids });
  if (!(error instanceof PurchaseOrderRefusal)) return error;
  const { reason } = error;
  switch (reason.kind) {
    case 'notFound':
    case 'completed':
      return new DomainError(
        { code: '400', detail: v2Messages.purchaseOrderFailed },
        { result: { PurchaseOrderId: reason.purchaseOrderId, PurchaseOrderError: purchaseOrderErrors[reason.kind] } },
      );
    case 'invalid':
      return new DomainError({ code: '400', detail: v2Messages.purchaseOrderValidation }, { result: reason.problems });
    case 'skusNotFound':
      return new DomainError(
        { code: '400', detail: v2Messages.purchaseOrderPartial },
        {
          result: {
            PurchaseOrderId: reason.purchaseOrderId,
            PurchaseOrderItemsErrors: reason.skus.map((sku) => ({ SKU: sku, Status: 'NOK', Message: purchaseOrderErrors.skuNotFound })),
          },
        },
      );
  }
}
