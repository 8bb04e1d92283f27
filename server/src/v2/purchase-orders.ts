// v2 purchase orders: thin handlers over domain/inbound/purchase-orders.ts (the colour rules live there).
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { v2Messages, type V2PurchaseOrderAdd, type V2PurchaseOrderDelete, type V2PurchaseOrderEdit } from '@shopapi/contract';
import { addPurchaseOrder, deletePurchaseOrder, editPurchaseOrder } from '../domain/inbound/purchase-orders.ts';
import { ok, v2Route } from './envelope.ts';
import type { AppContext } from '../app.ts';

export function v2PurchaseOrderRoutes(app: FastifyInstance, { db }: AppContext) {
  v2Route<Static<typeof V2PurchaseOrderAdd>>(app, 'addPurchaseOrder', async (request) => {
    const { purchaseOrderItems, ...order } = request.body;
    return ok(v2Messages.purchaseOrderAdded, await addPurchaseOrder(db, request.client, { ...order, items: purchaseOrderItems }));
  });

  v2Route<Static<typeof V2PurchaseOrderEdit>>(app, 'editPurchaseOrder', async (request) => {
    const { purchaseOrderItems, ...order } = request.body;
    return ok(v2Messages.purchaseOrderProcessed, await editPurchaseOrder(db, request.client, { ...order, items: purchaseOrderItems }));
  });

  v2Route<Static<typeof V2PurchaseOrderDelete>>(app, 'deletePurchaseOrder', async (request) => {
    const { purchaseOrderId, purchaseOrderItems } = request.body;
    return ok(v2Messages.purchaseOrderDeleted, await deletePurchaseOrder(db, request.client, { purchaseOrderId, skus: purchaseOrderItems?.map((item) => item.sku) }));
  });
}
