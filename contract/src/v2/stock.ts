// v2 stock: stock per sku and in bulk (the same numbers as /v3/stockLevels), and the stock mutations to sync.
import { Type } from '@sinclair/typebox';
import { MAX_ID } from '../jsonapi.ts';
import { limits } from '../limits.ts';
import { v2Messages } from '../errors.ts';
import type { stockMutationTypes } from '../enums.ts';
import { DateTime } from '../formats.ts';
import { defineOperation } from '../operation.ts';
import { badRequestResponse, foundOrNotResponse, nullableInteger, nullableString, okResponse } from './common.ts';

/**
 * The v2 numeric type of each ledger type a v2 integration sees (v2 spec section 3). Shipments, moves and status
 * changes have no v2 type: they are not v2 stock mutations.
 */
export const v2StockMutationTypes: Partial<Record<(typeof stockMutationTypes)[number], number>> = {
  INBOUND: 1,
  RETURN: 3,
  CORRECTION: 4,
  COMPOSITION: 5,
};

const quantity = (description: string) => Type.Integer({ description });

export const V2Stock = Type.Object({
  name: Type.String(),
  sku: Type.String(),
  productId: Type.Integer(),
  useEconomicStock: Type.Boolean({ description: 'The product counts economic stock (with expected goods) rather than available stock.' }),
  physicalStock: quantity('Units lying in the warehouses (v3 physical).'),
  expectedStock: quantity('Announced on open purchase orders and not yet received (v3 expected).'),
  orderedStock: quantity('On open orders and shipments not yet shipped (v3 outbound plus ordered).'),
  unavailableStock: quantity('Quarantined, damaged, to scrap, overdue, expired or not yet matched (v3 unavailable).'),
  freeStock: quantity('Stock minus outbound minus ordered, never negative (v3 free).'),
  economicStock: quantity('Stock plus expected minus outbound minus ordered, never negative (v3 economic).'),
  availableStock: quantity('Free stock minus the stock on locations excluded from fulfilment (v3 available).'),
  thts: Type.Array(
    Type.Object({
      quantity: Type.Integer(),
      tht: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Best-before date.' }),
      lotNumber: nullableString,
    }),
    { description: 'Physical stock per best-before date and lot, for products with either.' },
  ),
});

export const V2StockItem = Type.Object({
  ...V2Stock.properties,
  stock: quantity('economicStock when the product uses economic stock, else availableStock.'),
});

export const V2StockBulk = Type.Object({
  stockMutationPeriod: Type.Object({
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time', description: 'Send it as `from` of the next call: no mutation falls between two calls.' }),
  }),
  stock: Type.Array(V2StockItem),
});

export const V2StockMutation = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  quantity: Type.Integer({ description: 'Signed: negative when goods left.' }),
  type: Type.Integer({ description: '1 received goods, 3 returned goods, 4 correction, 5 composed products.' }),
  createdAt: Type.String({ format: 'date-time' }),
  thtDate: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  warehouseCode: Type.String(),
  locationType: Type.String({
    description: 'AUTOSTORE, SPECIAL, PALLET, PICKABLE, COOLED, OUTBOUND, INBOUND, RETURN, TRANSFER, SECURED or INSERTS.',
  }),
  correctionReason: nullableString,
  remark: nullableString,
  supplierId: Type.Null({ description: 'Suppliers are not kept by the sandbox.' }),
  shippingId: Type.Union([Type.Integer(), Type.Null()], { description: 'The shipment the returned goods came with.' }),
  orderNumber: nullableInteger,
  externalOrderNumber: nullableString,
  returnReason: nullableString,
  lotNumber: nullableString,
  purchaseOrders: Type.Array(
    Type.Object({ purchaseOrderId: Type.Integer(), purchaseOrderReference: Type.String(), purchaseOrderRemark: nullableString }),
    { description: 'The purchase order received goods were announced on.' },
  ),
});

const SkuParams = Type.Object({ sku: Type.String({ minLength: 1, maxLength: limits.skuMax, description: 'The product sku.' }) });
const Ids = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
    minItems: 1,
    maxItems: limits.syncIdsMax,
    description: `Stock mutation ids, at most ${limits.syncIdsMax}.`,
  }),
});
const forms = ['application/json', 'application/x-www-form-urlencoded'];
const tags = ['Stock'];
const deprecated = 'Deprecated: use /v3/stockLevels and /v3/stockMutations.';
const skuMiss = `An unknown sku (also another client's) answers HTTP 200 with messageCode NOK "${v2Messages.productNotFound}" and result null, not a 404.`;

const stockExample = {
  name: 'T-shirt, size M',
  sku: 'SKU-TSHIRT-M',
  productId: 42,
  useEconomicStock: false,
  physicalStock: 10,
  expectedStock: 5,
  orderedStock: 2,
  unavailableStock: 1,
  freeStock: 7,
  economicStock: 12,
  availableStock: 7,
  thts: [],
};
const window = `products with a stock mutation in the period; with all_products=true (which has priority over from), every product. from defaults to one day before now on your sandbox clock`;

export const v2StockOperations = [
  defineOperation({
    operationId: 'getStockLevelV2',
    documents: ['v2'],
    method: 'GET',
    path: '/stock/get/{sku}',
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Stock level of a product',
    description: `${deprecated} The result is one number: economic stock when the product uses economic stock, else available stock, over all warehouses. ${skuMiss}`,
    params: SkuParams,
    responses: {
      200: foundOrNotResponse(
        'The stock level.',
        Type.Integer(),
        { message: v2Messages.requestProcessed, result: 7 },
        v2Messages.productNotFound,
      ),
    },
  }),
  defineOperation({
    operationId: 'getStockBulkV2',
    documents: ['v2'],
    method: 'GET',
    path: '/stock/bulk/{all}',
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Stock of many products',
    description: `${deprecated} all=true: every product; all=false: the products with a stock mutation in the past day. Anything but true or false answers NOK.`,
    params: Type.Object({ all: Type.String({ description: 'true or false.', examples: ['true'] }) }),
    responses: {
      200: okResponse('The stock of the products.', Type.Array(V2StockItem), {
        message: v2Messages.requestProcessed,
        result: [{ ...stockExample, stock: 7 }],
      }),
      400: badRequestResponse({ messageCode: 'NOK', message: v2Messages.malformed, result: ['all must be true or false.'] }),
    },
  }),
  defineOperation({
    operationId: 'getStockV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/stock/get/{sku}',
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Stock of a product',
    description: `${deprecated} Every stock figure of the product over all warehouses; the same numbers as /v3/stockLevels summed. ${skuMiss}`,
    params: SkuParams,
    responses: {
      200: foundOrNotResponse(
        'The stock of the product.',
        V2Stock,
        { message: v2Messages.requestProcessed, result: stockExample },
        v2Messages.productNotFound,
      ),
    },
  }),
  defineOperation({
    operationId: 'getStockBulkByPeriodV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/stock/bulk',
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Stock of the products changed in a period',
    description: `${deprecated} The stock of the ${window}. The period ends now: use its \`to\` as \`from\` of the next call.`,
    query: Type.Object({
      all_products: Type.Optional(Type.Boolean({ description: 'Every product, whatever from says.' })),
      from: Type.Optional(DateTime),
    }),
    responses: {
      200: okResponse('The period and the stock.', V2StockBulk, {
        message: v2Messages.requestProcessed,
        result: {
          stockMutationPeriod: { from: '2026-11-20T10:00:00.000Z', to: '2026-11-21T10:00:00.000Z' },
          stock: [{ ...stockExample, stock: 7 }],
        },
      }),
      400: badRequestResponse({ messageCode: 'NOK', message: v2Messages.malformed, result: ['from must match format "date-time".'] }),
    },
  }),
  defineOperation({
    operationId: 'getStockMutationsV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/stockmutation/get',
    aliases: ['/stockmutation/get'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Stock mutations to sync',
    description: `${deprecated} The stock mutations not yet marked synced of the last ${limits.stockMutationRetentionDays} days (your sandbox clock), oldest first: received goods, returned goods (not damaged ones), corrections and composed products. Shipments are not included. Mark them with POST /v2/stockmutation/sync.`,
    responses: {
      200: okResponse('The mutations to sync.', Type.Array(V2StockMutation), {
        message: v2Messages.requestProcessed,
        result: [
          {
            id: 7001,
            sku: 'SKU-TSHIRT-M',
            quantity: 10,
            type: 1,
            createdAt: '2026-11-21T10:00:00.000Z',
            thtDate: null,
            warehouseCode: 'NR',
            locationType: 'PICKABLE',
            correctionReason: null,
            remark: null,
            supplierId: null,
            shippingId: null,
            orderNumber: null,
            externalOrderNumber: null,
            returnReason: null,
            lotNumber: null,
            purchaseOrders: [{ purchaseOrderId: 301, purchaseOrderReference: 'PO-2026-0042', purchaseOrderRemark: 'Autumn collection' }],
          },
        ],
      }),
    },
  }),
  defineOperation({
    operationId: 'syncStockMutationsV2',
    documents: ['v2'],
    method: 'POST',
    path: '/v2/stockmutation/sync',
    aliases: ['/stockmutation/sync'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Mark stock mutations synced',
    description: `${deprecated} All or nothing: if any id is unknown or another client's, no mutation is marked and the answer is NOK "${v2Messages.idsNotFound}" with the ids not found as result.`,
    body: Ids,
    bodyContentTypes: forms,
    requestExample: { ids: [7001, 7002] },
    responses: {
      200: okResponse('Every mutation is marked synced.', Type.Null(), { message: v2Messages.requestProcessed, result: null }),
      400: badRequestResponse({ messageCode: 'NOK', message: v2Messages.idsNotFound, result: [9999] }),
    },
  }),
];
