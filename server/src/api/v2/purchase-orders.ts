// v2 purchase orders: thin handlers over domain/inbound/purchase-orders.ts (the colour rules live there).
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { v2Messages, v2WarehouseIds, type V2PurchaseOrderEdit } from '@shopapi/contract';
import {
  addPurchaseOrder,
  deletePurchaseOrder,
  editPurchaseOrder,
  type PurchaseOrderItemInput,
} from '../../modules/inbound/purchase-orders.ts';
import type { WarningSink } from '../../platform/request-warnings.ts';
import { ok, v2Route } from './envelope.ts';
import type { AppContext } from '../shared/context.ts';
import { DomainError } from '../../platform/errors.ts';

const invalid = (problem: string) => new DomainError({ code: '400', detail: v2Messages.purchaseOrderValidation }, { result: [problem] });

type ItemLists = Pick<Static<typeof V2PurchaseOrderEdit>, 'purchaseOrderItems' | 'apiPurchaseOrderItemViewModels'>;

/** purchaseOrderItems, or its deprecated alias ApiPurchaseOrderItemViewModels (with ExpectedDeliveryDate) that older integrations send. */
function itemsOf(
  { purchaseOrderItems, apiPurchaseOrderItemViewModels: legacy }: ItemLists,
  warnings: WarningSink,
): PurchaseOrderItemInput[] | null | undefined {
  if (!legacy) return purchaseOrderItems;
  if (purchaseOrderItems) throw invalid('Send purchaseOrderItems or ApiPurchaseOrderItemViewModels, not both.');
  warnings.add('alias', 'deprecated; use purchaseOrderItems', '/apiPurchaseOrderItemViewModels');
  return legacy.map(({ expectedDeliveryDate, ...item }, index) => {
    const source = `/apiPurchaseOrderItemViewModels/${index}/expectedDeliveryDate`;
    if (expectedDeliveryDate != null) {
      if (item.expectedDate == null) warnings.add('alias', 'deprecated; use expectedDate', source);
      else warnings.add('ignored', 'expectedDate is given and goes first; not read', source);
    }
    return { ...item, expectedDate: item.expectedDate ?? expectedDeliveryDate };
  });
}

export function v2PurchaseOrderRoutes(app: FastifyInstance, { db }: AppContext) {
  v2Route(app, 'addPurchaseOrder', async (request) => {
    const { purchaseOrderItems, apiPurchaseOrderItemViewModels, warehouseId, ...order } = request.body;
    const items = itemsOf({ purchaseOrderItems, apiPurchaseOrderItemViewModels }, request.warnings);
    if (!items) throw invalid('purchaseOrderItems is required.');
    const expectedIn = warehouseId ? v2WarehouseIds[warehouseId] : undefined;
    return ok(v2Messages.purchaseOrderAdded, await addPurchaseOrder(db, request.client, { ...order, expectedIn, items }));
  });

  v2Route(app, 'editPurchaseOrder', async (request) => {
    const { purchaseOrderItems, apiPurchaseOrderItemViewModels, ...order } = request.body;
    return ok(
      v2Messages.purchaseOrderProcessed,
      await editPurchaseOrder(db, request.client, {
        ...order,
        items: itemsOf({ purchaseOrderItems, apiPurchaseOrderItemViewModels }, request.warnings),
      }),
    );
  });

  v2Route(app, 'deletePurchaseOrder', async (request) => {
    const { purchaseOrderId, purchaseOrderItems } = request.body;
    return ok(
      v2Messages.purchaseOrderDeleted,
      await deletePurchaseOrder(db, request.client, { purchaseOrderId, skus: purchaseOrderItems?.map((item) => item.sku) }),
    );
  });
}
