// v3 products. The order side needs only sku and name; the warehouse-side issue completes the rule set.
import { Type } from '@sinclair/typebox';
import { limits } from '../limits.ts';
import { productStatuses, productTypes } from '../enums.ts';
import { Barcode, ListFilter, Nullable, Sku } from '../formats.ts';
import { CollectionDocument, Resource, SingleDocument } from '../jsonapi.ts';
import { IdParams, PageQuery, defineOperation } from '../operation.ts';

const nullableString = Nullable(Type.String());

export const ProductAttributes = Type.Object({
  sku: Type.String(),
  name: Type.String(),
  description: nullableString,
  barcode: nullableString,
  hasBarcode: Type.Boolean(),
  type: Type.Union(productTypes.map((t) => Type.Literal(t))),
  status: Type.Union(productStatuses.map((t) => Type.Literal(t))),
  weight: Nullable(Type.Integer({ description: 'Grams, measured at first receipt.' })),
});

export const Product = Resource('product', ProductAttributes, undefined, 'A product you sell; orders refer to it by sku.');

export const ProductCreateDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('product'),
    attributes: Type.Object({
      sku: Sku,
      name: Type.String({ minLength: 1, maxLength: limits.productNameMax }),
      description: Type.Optional(Nullable(Type.String({ maxLength: limits.productDescriptionMax }))),
      barcode: Type.Optional(Nullable(Barcode)),
      hasBarcode: Type.Optional(Type.Boolean({ default: false })),
      type: Type.Optional(Type.Union(productTypes.map((t) => Type.Literal(t)), { default: 'DEFAULT' })),
      status: Type.Optional(Type.Union(productStatuses.map((t) => Type.Literal(t)), { default: 'AVAILABLE' })),
    }, { additionalProperties: false }),
  }),
});

const tags = ['Products'];

export const productOperations = [
  defineOperation({
    operationId: 'listProducts', documents: ['v3'], method: 'GET', path: '/v3/products', tags, auth: true, success: 200, rateLimit: 'products',
    summary: 'List products', description: 'Your products, ordered by id ascending, cursor-paged.',
    query: Type.Object({
      ...PageQuery,
      'filter[sku][in]': Type.Optional(ListFilter('SKUs.')),
      'filter[barcode][in]': Type.Optional(ListFilter('Barcodes.')),
    }),
    responses: { 200: { description: 'A page of products.', schema: CollectionDocument(Product) } },
    errors: ['400', '401', '406', '429'],
  }),
  defineOperation({
    operationId: 'createProduct', documents: ['v3'], method: 'POST', path: '/v3/products', tags, auth: true, success: 201, rateLimit: 'products',
    summary: 'Create a product', description: 'sku and barcode are unique per client; a barcode implies hasBarcode.',
    body: ProductCreateDocument,
    requestExample: { data: { type: 'product', attributes: { sku: 'SKU-TSHIRT-M', name: 'T-shirt, size M', barcode: '8712345678906' } } },
    responses: { 201: { description: 'The created product.', schema: SingleDocument(Product) } },
    errors: ['400', '401', '406', '409', '415', '429'],
  }),
  defineOperation({
    operationId: 'getProduct', documents: ['v3'], method: 'GET', path: '/v3/products/{id}', tags, auth: true, success: 200, rateLimit: 'products',
    summary: 'Read a product', description: 'One product.', params: IdParams,
    responses: { 200: { description: 'The product.', schema: SingleDocument(Product) } },
    errors: ['401', '404', '406', '429'],
  }),
];
