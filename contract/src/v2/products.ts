// v2 products: add, edit and search, over the same products as v3.
import { Type } from '@sinclair/typebox';
import { limits } from '../limits.ts';
import { v2Messages } from '../errors.ts';
import { defineOperation } from '../operation.ts';
import { badRequestResponse, foundOrNotResponse, nullableInteger, nullableString, okResponse } from './common.ts';

const optional = <
  T extends
    | ReturnType<typeof Type.String>
    | ReturnType<typeof Type.Integer>
    | ReturnType<typeof Type.Number>
    | ReturnType<typeof Type.Boolean>,
>(
  schema: T,
) => Type.Optional(Type.Union([schema, Type.Null()]));
const text = (max: number, description?: string) => optional(Type.String({ maxLength: max, ...(description ? { description } : {}) }));

const productFields = {
  barcode: text(limits.skuMax, 'Changeable only while the product has no stock.'),
  description: optional(Type.String({ description: `Cut after ${limits.v2DescriptionMax} characters.` })),
  harmonisationCode: text(20, `HS code, ${limits.hsCodeMinDigits} to ${limits.hsCodeMaxDigits} digits.`),
  countryOfOriginIso: optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: '2-letter country code.' })),
  costPrice: optional(Type.Number({ minimum: 0, description: 'Purchase price in EUR.' })),
  extra1: text(limits.metadataExtraMax),
  extra2: text(limits.metadataExtraMax),
  extra3: text(limits.metadataExtraMax),
  extra4: text(limits.metadataExtraMax),
  extra5: text(limits.metadataExtraMax),
  hasThtDate: optional(Type.Boolean({ description: 'Perishable: has a best-before (THT) date.' })),
  warningDaysTillThtDate: optional(Type.Integer({ minimum: 0 })),
  maxDaysTillThtDate: optional(
    Type.Integer({ minimum: 0, description: 'Minimum days before the THT date the goods may still be shipped.' }),
  ),
  hasLotNumber: optional(Type.Boolean()),
  hasSerial: optional(Type.Boolean()),
  useEconomicStock: optional(
    Type.Boolean({ description: 'Stock levels count economic stock (with expected goods) instead of available stock.' }),
  ),
  // Base64 takes 4 characters for 3 bytes, plus the line breaks some encoders add: twice the bytes bounds both.
  encodedImage: optional(
    Type.String({
      contentEncoding: 'base64',
      maxLength: 2 * limits.v2EncodedImageMaxBytes,
      pattern: '^[A-Za-z0-9+/=\\s]*$',
      description: `The product image, base64: png, jpeg, gif, bmp, webp or Photoshop, at most ${limits.v2EncodedImageMaxBytes / 1024} KB. It counts towards your storage quota (${limits.storageQuotaMibDefault} MiB by default, for your attachments and product images together; the image it replaces no longer counts): an image that does not fit answers 400 NOK, naming the quota and what your files take.`,
    }),
  ),
  supplierCode: text(100),
  supplierProductCode: text(100),
  stockMinimum: optional(Type.Integer({ minimum: 0 })),
  stockMaximum: optional(Type.Integer({ minimum: 0 })),
  priceA: optional(Type.Number({ minimum: 0 })),
  priceB: optional(Type.Number({ minimum: 0 })),
  priceC: optional(Type.Number({ minimum: 0 })),
  priceD: optional(Type.Number({ minimum: 0 })),
  vatLevel: Type.Optional(
    Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Null()], {
      description: 'Deprecated: 0 none, 1 low, 2 high.',
      deprecated: true,
    }),
  ),
  orderQuantity: optional(Type.Integer({ minimum: 0, description: 'Units per purchase order line.' })),
};

/** The v2 product fields v3 has no attribute for: kept with the product as sent (products.legacy). */
export const v2OnlyProductFields = [
  'supplierCode',
  'supplierProductCode',
  'stockMinimum',
  'stockMaximum',
  'priceA',
  'priceB',
  'priceC',
  'priceD',
  'vatLevel',
  'orderQuantity',
] as const;

export const V2ProductAdd = Type.Object({
  sku: Type.String({ minLength: limits.skuMin, maxLength: limits.skuMax }),
  name: Type.String({ minLength: 1, maxLength: limits.productNameMax }),
  ...productFields,
});
export const V2ProductEdit = Type.Object({
  sku: Type.String({ minLength: limits.skuMin, maxLength: limits.skuMax }),
  name: optional(Type.String({ minLength: 1, maxLength: limits.productNameMax, description: 'Cannot be emptied.' })),
  ...productFields,
});
export const V2ProductSearch = Type.Object({
  sku: text(limits.skuMax, 'Searched first.'),
  barcode: text(limits.skuMax, 'Searched when sku is empty.'),
});
export const V2ProductSearchResult = Type.Object({
  sku: Type.String(),
  barcode: nullableString,
  weight: nullableInteger,
  costPrice: Type.Union([Type.Number(), Type.Null()]),
  minTHT: Type.Union([Type.Integer(), Type.Null()], { description: 'maxDaysTillThtDate of the product.' }),
});

const forms = ['application/json', 'application/x-www-form-urlencoded'];
const tags = ['Products'];
const deprecated = 'Deprecated: use /v3/products.';
const searchExample = { sku: 'SKU-TSHIRT-M', barcode: '8712345678906', weight: 200, costPrice: 4.5, minTHT: null };
const notFound = { description: "No product with this sku or barcode (or it is another client's)." };
const searchMiss = `No match (also another client's product) answers HTTP 200 with messageCode NOK "${v2Messages.productNotFound}" and result null, never a 404: check messageCode to tell a new product from an existing one, then add or edit it.`;

export const v2ProductOperations = [
  defineOperation({
    operationId: 'addProductV2',
    documents: ['v2'],
    method: 'POST',
    path: '/product/add',
    aliases: ['/v2/product/add'],
    tags,
    auth: true,
    // 201, unlike /order/add's 200: a public PHP client checks for exactly these, and the other clients take any 2xx.
    success: 201,
    deprecated: true,
    summary: 'Add a product',
    description: `${deprecated} sku and name are required; the description is cut after ${limits.v2DescriptionMax} characters. The result is the new product id.`,
    body: V2ProductAdd,
    bodyContentTypes: forms,
    requestExample: { sku: 'SKU-TSHIRT-M', name: 'T-shirt, size M', barcode: '8712345678906', costPrice: 4.5, countryOfOriginIso: 'NL' },
    responses: {
      201: okResponse('The product was added.', Type.Integer(), { message: v2Messages.productAdded, result: 42 }),
      400: badRequestResponse(),
    },
  }),
  defineOperation({
    operationId: 'editProductV2',
    documents: ['v2'],
    method: 'POST',
    path: '/product/edit',
    aliases: ['/v2/product/edit'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Edit a product',
    description: `${deprecated} The product is named by sku; fields left out keep their value. name cannot be emptied, the barcode changes only while the product has no stock, the description is cut after ${limits.v2DescriptionMax} characters.`,
    body: V2ProductEdit,
    bodyContentTypes: forms,
    requestExample: { sku: 'SKU-TSHIRT-M', description: 'Organic cotton' },
    responses: {
      200: okResponse('The product was changed.', Type.Null(), { message: v2Messages.requestProcessed, result: null }),
      400: badRequestResponse(),
      404: notFound,
    },
    errors: ['404'],
  }),
  defineOperation({
    operationId: 'searchProductV2',
    documents: ['v2'],
    method: 'POST',
    path: '/product/search',
    aliases: ['/v2/product/search'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Find a product by sku or barcode',
    description: `${deprecated} sku has priority over barcode. ${searchMiss}`,
    body: V2ProductSearch,
    bodyContentTypes: forms,
    requestExample: { sku: 'SKU-TSHIRT-M' },
    responses: {
      200: foundOrNotResponse(
        'The product.',
        V2ProductSearchResult,
        { message: v2Messages.productFound, result: searchExample },
        v2Messages.productNotFound,
      ),
      400: badRequestResponse(),
    },
  }),
  defineOperation({
    operationId: 'searchProductByQueryV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/product/search',
    aliases: ['/product/search'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Find a product by sku or barcode (GET)',
    description: `${deprecated} sku has priority over barcode. ${searchMiss}`,
    query: V2ProductSearch,
    responses: {
      200: foundOrNotResponse(
        'The product.',
        V2ProductSearchResult,
        { message: v2Messages.productFound, result: searchExample },
        v2Messages.productNotFound,
      ),
      400: badRequestResponse(),
    },
  }),
];
