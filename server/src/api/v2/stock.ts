// v2 stock and stock mutations: thin handlers over the v2 view of inventory (domain/inventory/sync.ts).
import type { FastifyInstance } from 'fastify';
import { v2Messages, v2StockMutationTypes } from '@shopapi/contract';
import type { Db } from '../../platform/db/index.ts';
import { clientNow } from '../../modules/clients/service.ts';
import type { Client } from '../../modules/clients/client.ts';
import { daysBefore } from '../../platform/time.ts';
import {
  allProductIds,
  productsMutatedBetween,
  stockOfProducts,
  syncStockMutations,
  unsyncedStockMutations,
  type MutationToSync,
} from '../../modules/inventory/sync.ts';
import { listProducts, productsOfClient } from '../../modules/products/service.ts';
import { ok, v2Route } from './envelope.ts';
import type { AppContext } from '../shared/context.ts';
import { domainError } from '../../platform/errors.ts';

type StockLevelType = 'ECONOMIC' | 'AVAILABLE';

/** The v2 stock objects of these products, in id order. */
async function stockObjects(db: Db, client: Client, productIds: number[]) {
  if (!productIds.length) return [];
  const [rows, stock] = await Promise.all([productsOfClient(db, client.id, productIds), stockOfProducts(db, client, productIds)]);
  return rows.map((product) => {
    const s = stock.get(product.id)!;
    const useEconomicStock = (product.stockLevelType as StockLevelType) === 'ECONOMIC';
    return {
      name: product.name,
      sku: product.sku,
      productId: product.id,
      useEconomicStock,
      physicalStock: s.physical,
      expectedStock: s.expected,
      orderedStock: s.outbound + s.ordered,
      unavailableStock: s.unavailable,
      freeStock: s.free,
      economicStock: s.economic,
      availableStock: s.available,
      thts: s.thts,
      // The single figure of the bulk and /stock/get calls: what the product's setting counts.
      stock: useEconomicStock ? s.economic : s.available,
    };
  });
}

async function productBySku(db: Db, client: Client, sku: string) {
  const [product] = await listProducts(db, client.id, { skus: [sku] }, { cursor: 0, size: 1 });
  if (!product) throw domainError('404', `No product with sku "${sku}".`);
  return product;
}

const mutationResult = ({ mutation: m, purchaseOrder, returned }: MutationToSync) => ({
  id: m.id,
  sku: m.sku,
  quantity: m.quantity,
  type: v2StockMutationTypes[m.type as keyof typeof v2StockMutationTypes]!,
  createdAt: m.createdOn.toISOString(),
  thtDate: m.expirationDate,
  warehouseCode: m.warehouseCode,
  locationType: m.locationType,
  correctionReason: m.correctionCode,
  remark: m.remarks,
  supplierId: null,
  shippingId: returned?.shipmentId ?? null,
  orderNumber: returned?.orderId ?? null,
  externalOrderNumber: returned?.externalOrderNumber ?? null,
  returnReason: returned?.returnReason ?? null,
  lotNumber: m.lotNumber,
  purchaseOrders: purchaseOrder
    ? [{ purchaseOrderId: purchaseOrder.id, purchaseOrderReference: purchaseOrder.reference, purchaseOrderRemark: purchaseOrder.comments }]
    : [],
});

export function v2StockRoutes(app: FastifyInstance, { db }: AppContext) {
  v2Route(
    app,
    'getStockLevelV2',
    async (request) => {
      const product = await productBySku(db, request.client, request.params.sku);
      const [stock] = await stockObjects(db, request.client, [product.id]);
      return ok(v2Messages.requestProcessed, stock.stock);
    },
    { notFound: v2Messages.productNotFound },
  );

  v2Route(
    app,
    'getStockV2',
    async (request) => {
      const product = await productBySku(db, request.client, request.params.sku);
      const [{ stock: _figure, ...stock }] = await stockObjects(db, request.client, [product.id]);
      return ok(v2Messages.requestProcessed, stock);
    },
    { notFound: v2Messages.productNotFound },
  );

  v2Route(app, 'getStockBulkV2', async (request) => {
    const all = String(request.params.all).toLowerCase();
    if (all !== 'true' && all !== 'false') throw domainError('400', v2Messages.malformed, {});
    const now = clientNow(request.client);
    const ids =
      all === 'true'
        ? await allProductIds(db, request.client.id)
        : await productsMutatedBetween(db, request.client.id, daysBefore(now, 1), now);
    return ok(v2Messages.requestProcessed, await stockObjects(db, request.client, ids));
  });

  v2Route(app, 'getStockBulkByPeriodV2', async (request) => {
    const { all_products: allProducts, from: fromText } = request.query as { all_products?: boolean; from?: string };
    const to = clientNow(request.client);
    const from = fromText ? new Date(fromText) : daysBefore(to, 1);
    if (!fromText) request.warnings.add('default', `not given: one day back, ${from.toISOString()}`, 'from');
    const ids = allProducts ? await allProductIds(db, request.client.id) : await productsMutatedBetween(db, request.client.id, from, to);
    return ok(v2Messages.requestProcessed, {
      stockMutationPeriod: { from: from.toISOString(), to: to.toISOString() },
      stock: await stockObjects(db, request.client, ids),
    });
  });

  v2Route(app, 'getStockMutationsV2', async (request) =>
    ok(
      v2Messages.requestProcessed,
      (await unsyncedStockMutations(db, request.client, { types: Object.keys(v2StockMutationTypes) })).map(mutationResult),
    ),
  );

  v2Route(app, 'syncStockMutationsV2', async (request) => {
    await syncStockMutations(db, request.client, request.body.ids);
    return ok(v2Messages.requestProcessed, null);
  });
}
