// v3 products and their single image: what orders and inbound goods refer to by sku.
import { Type } from '@sinclair/typebox';
import { limits, defaults, uploadPaceText } from '../limits.ts';
import { productStatuses, productTypes, stockLevelTypes } from '../enums.ts';
import { Barcode, CountryCode, CurrencyCode, ListFilter, Nullable, Sku } from '../formats.ts';
import { CollectionDocument, RequestId, Resource, ResourceId, SingleDocument, ToOne } from '../jsonapi.ts';
import { IdParams, PageQuery, defineOperation } from '../operation.ts';
import { OrderMetadata } from './orders.ts';

const nullableString = Nullable(Type.String());
const literals = <T extends string>(values: readonly T[], options: { default?: T; description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );

/** Product types whose parts are listed: a bundle's parts are added to an order automatically. */
export const productTypesWithParts = ['BUNDLE', 'COMPOSITE'] as const;
export const productExpirationDates = ['SCAN_AT_INBOUND'] as const;

export const HsCodeEntry = Type.Object(
  {
    country: Type.Optional(
      Type.Union([CountryCode, Type.Literal('EU')], {
        default: defaults.hsCodeCountry,
        description: 'Where the code applies: a country code, EU, or XX (the default code). Default XX.',
      }),
    ),
    hsCode: Type.String({
      minLength: 1,
      maxLength: 40,
      description: `Customs tariff code; every character that is not a digit is removed, then ${limits.hsCodeMinDigits} to ${limits.hsCodeMaxDigits} digits must remain.`,
      examples: ['6109.10.00'],
    }),
  },
  { additionalProperties: false },
);

export const PurchasePriceEntry = Type.Object(
  {
    currency: Type.Optional(Type.Literal(defaults.currency, { default: defaults.currency, description: 'Only EUR.' })),
    amount: Type.Number({ minimum: 0, maximum: 1e9, multipleOf: 0.01, description: 'Price per unit, 2 decimals.' }),
  },
  { additionalProperties: false },
);

/**
 * Attributes a client may send, on create and on update. No schema defaults here: on update an omitted attribute keeps
 * its value, so the service applies the create defaults.
 */
const ProductWritable = {
  name: Type.String({ minLength: 1, maxLength: limits.productNameMax }),
  description: Type.Optional(Nullable(Type.String({ maxLength: limits.productDescriptionMax }))),
  hasBarcode: Type.Optional(
    Type.Boolean({ description: 'Default false. True when the product carries a barcode; sending a barcode sets it.' }),
  ),
  barcode: Type.Optional(Nullable(Barcode)),
  status: Type.Optional(
    literals(productStatuses, {
      description: 'Default AVAILABLE. AVAILABLE; DISCONTINUED (no new stock expected); END_OF_LIFE (hidden from reports).',
    }),
  ),
  stockLevelType: Type.Optional(
    literals(stockLevelTypes, { description: 'Default AVAILABLE. Which stock level your shop should show: AVAILABLE or ECONOMIC.' }),
  ),
  hasLotNumber: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  hasSerialNumber: Type.Optional(Type.Boolean({ description: 'Default false.' })),
  hasExpirationDate: Type.Optional(
    Type.Boolean({
      description:
        'Default false. Perishable: needs expirationDate SCAN_AT_INBOUND, a positive expirationDateMargin and an expirationDateWarning of at least the margin.',
    }),
  ),
  expirationDate: Type.Optional(
    Nullable(
      literals(productExpirationDates, {
        description: 'SCAN_AT_INBOUND for perishable products: the date is read from the goods when they arrive.',
      }),
    ),
  ),
  expirationDateMargin: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 1, maximum: 3650, description: 'Days before the expiration date after which stock is no longer shipped.' }),
    ),
  ),
  expirationDateWarning: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 3650,
        description: 'Days before the expiration date at which stock gets the WARNING status; at least the margin.',
      }),
    ),
  ),
  countryOfOrigin: Type.Optional(Nullable(CountryCode)),
  hsCodes: Type.Optional(
    Type.Array(HsCodeEntry, {
      minItems: 1,
      maxItems: 50,
      description:
        'At least one entry when sent. The XX entry is the default code; when none is sent it is copied from the EU entry, else NL, else the first.',
    }),
  ),
  purchasePrice: Type.Optional(Type.Array(PurchasePriceEntry, { maxItems: 1, description: 'At most one entry, in EUR.' })),
  metadata: Type.Optional(Nullable(OrderMetadata)),
};

/** Read-only measurements: the warehouse sets them at first receipt; sending other values is a 409. */
const measurement = (unit: string) =>
  Type.Optional(
    Nullable(Type.Integer({ minimum: 0, description: `${unit}; measured at first receipt. Read-only: a different value answers 409.` })),
  );
const Measurements = {
  weight: measurement('Grams'),
  length: measurement('Millimetres'),
  width: measurement('Millimetres'),
  height: measurement('Millimetres'),
};

const PartReference = Type.Object({
  type: Type.Literal('product'),
  id: RequestId,
  meta: Type.Object({
    quantity: Type.Integer({ minimum: 1, maximum: 10000, description: 'How many of this part one unit holds; greater than 0.' }),
  }),
});

export const ProductCreateDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('product'),
    attributes: Type.Object(
      {
        sku: Sku,
        type: Type.Optional(
          literals(productTypes, {
            default: 'DEFAULT',
            description: 'Set on create; cannot change. BUNDLE and COMPOSITE products list their parts.',
          }),
        ),
        ...ProductWritable,
        ...Measurements,
      },
      { additionalProperties: false },
    ),
    relationships: Type.Optional(
      Type.Object(
        {
          parts: Type.Optional(
            Type.Object(
              { data: Type.Array(PartReference, { minItems: 1, maxItems: 100 }) },
              { description: 'Parts of a BUNDLE or COMPOSITE product: existing products by id, each with meta.quantity.' },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  }),
});

export const ProductUpdateDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('product'),
    id: Type.Optional(RequestId),
    attributes: Type.Object(
      {
        sku: Type.Optional(Type.String({ description: 'Cannot change: must equal the stored sku when sent.' })),
        type: Type.Optional(Type.String({ description: 'Cannot change: must equal the stored type when sent.' })),
        ...ProductWritable,
        name: Type.Optional(ProductWritable.name),
        ...Measurements,
      },
      { additionalProperties: false },
    ),
    relationships: Type.Optional(Type.Object({}, { description: 'Relationships cannot change here; any sent are ignored.' })),
  }),
});

export const ProductAttributes = Type.Object({
  sku: Type.String(),
  name: Type.String(),
  description: nullableString,
  hasBarcode: Type.Boolean(),
  barcode: nullableString,
  type: literals(productTypes),
  status: literals(productStatuses),
  stockLevelType: literals(stockLevelTypes),
  hasLotNumber: Type.Boolean(),
  hasSerialNumber: Type.Boolean(),
  hasExpirationDate: Type.Boolean(),
  expirationDate: Nullable(literals(productExpirationDates)),
  expirationDateMargin: Nullable(Type.Integer()),
  expirationDateWarning: Nullable(Type.Integer()),
  countryOfOrigin: nullableString,
  hsCodes: Type.Array(
    Type.Object({
      country: Type.String(),
      hsCode: Type.String({ pattern: `^[0-9]{${limits.hsCodeMinDigits},${limits.hsCodeMaxDigits}}$` }),
    }),
  ),
  purchasePrice: Type.Array(Type.Object({ currency: CurrencyCode, amount: Type.Number() })),
  metadata: Type.Object({
    extra1: nullableString,
    extra2: nullableString,
    extra3: nullableString,
    extra4: nullableString,
    extra5: nullableString,
  }),
  weight: Nullable(Type.Integer({ description: 'Grams, measured at first receipt.' })),
  length: Nullable(Type.Integer({ description: 'Millimetres, measured at first receipt.' })),
  width: Nullable(Type.Integer({ description: 'Millimetres, measured at first receipt.' })),
  height: Nullable(Type.Integer({ description: 'Millimetres, measured at first receipt.' })),
});

export const ProductRelationships = Type.Object({
  stockLevels: ToOne('stockLevel', 'The stock levels of this product; the stock level id is the product id.'),
  parts: Type.Object(
    {
      data: Type.Array(
        Type.Object({ type: Type.Literal('product'), id: ResourceId, meta: Type.Object({ quantity: Type.Integer({ minimum: 1 }) }) }),
      ),
    },
    { description: 'Parts of a BUNDLE or COMPOSITE product; empty for other types.' },
  ),
});

export const Product = Resource(
  'product',
  ProductAttributes,
  ProductRelationships,
  'A product you sell; orders and inbound goods refer to it by sku.',
);

export const ProductImageMeta = Type.Object({
  code: Type.Literal('200-1'),
  title: Type.Literal('Image accepted'),
  detail: Type.String(),
  contentType: Type.String({ description: "The image type read from the file's bytes.", examples: ['image/png'] }),
  size: Type.Integer({ description: 'Bytes.' }),
});

/** Image types the warehouse accepts (by their content-type names), and the file types their bytes may show. */
export const productImageTypes = ['png', 'x-png', 'apng', 'jpg', 'jpeg', 'pjpeg', 'gif', 'bmp', 'webp', 'x-photoshop'] as const;

const tags = ['Products'];
const productExample = {
  data: {
    type: 'product',
    attributes: {
      sku: 'SKU-TSHIRT-M',
      name: 'T-shirt, size M',
      barcode: '8712345678906',
      countryOfOrigin: 'PT',
      hsCodes: [{ country: 'XX', hsCode: '6109.10.00' }],
      purchasePrice: [{ currency: 'EUR', amount: 4.5 }],
      metadata: { extra1: 'cotton' },
    },
  },
};

export const productOperations = [
  defineOperation({
    operationId: 'listProducts',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/products',
    tags,
    auth: true,
    success: 200,
    rateLimit: 'products',
    summary: 'List products',
    description: `Your products, ordered by id ascending, cursor-paged. At most ${limits.rateLimitPerHour} requests per hour to the products endpoints.`,
    query: Type.Object({
      ...PageQuery,
      'filter[sku][in]': Type.Optional(ListFilter('SKUs.', ['SKU-TSHIRT-M,SKU-TSHIRT-L'])),
      'filter[barcode][in]': Type.Optional(ListFilter('Barcodes.', ['8712345678906'])),
    }),
    responses: { 200: { description: 'A page of products.', schema: CollectionDocument(Product) } },
    errors: ['400', '401', '406', '429'],
  }),
  defineOperation({
    operationId: 'createProduct',
    documents: ['v3'],
    method: 'POST',
    path: '/v3/products',
    tags,
    auth: true,
    success: 201,
    rateLimit: 'products',
    summary: 'Create a product',
    description:
      'sku and barcode are unique per client (409); a barcode implies hasBarcode. hsCodes are stripped to their digits; an XX (default) entry is added when missing, copied from EU, else NL, else the first entry. A perishable product (hasExpirationDate) needs expirationDate SCAN_AT_INBOUND, a positive expirationDateMargin and an expirationDateWarning of at least the margin. BUNDLE and COMPOSITE products list their parts in relationships.parts, each an existing product with meta.quantity above 0. weight, length, width and height are measured by the warehouse: sending a value answers 409.',
    body: ProductCreateDocument,
    requestExample: productExample,
    responses: { 201: { description: 'The created product.', schema: SingleDocument(Product) } },
    errors: ['400', '401', '406', '409', '415', '429'],
  }),
  defineOperation({
    operationId: 'getProduct',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/products/{id}',
    tags,
    auth: true,
    success: 200,
    rateLimit: 'products',
    summary: 'Read a product',
    description: 'One product with its parts.',
    params: IdParams,
    responses: { 200: { description: 'The product.', schema: SingleDocument(Product) } },
    errors: ['401', '404', '406', '429'],
  }),
  defineOperation({
    operationId: 'updateProduct',
    documents: ['v3'],
    method: 'PUT',
    path: '/v3/products/{id}',
    tags,
    auth: true,
    success: 200,
    rateLimit: 'products',
    summary: 'Update a product',
    description:
      'Send the attributes to change; attributes you leave out keep their value. sku and type cannot change (400 when sent with another value). The barcode can change only while the product has no stock (409). weight, length, width and height are set at first receipt: a different value answers 409. The same rules as on create apply to the result.',
    params: IdParams,
    body: ProductUpdateDocument,
    requestExample: { data: { type: 'product', id: 1, attributes: { name: 'T-shirt, size M, organic', status: 'DISCONTINUED' } } },
    responses: { 200: { description: 'The product after the update.', schema: SingleDocument(Product) } },
    errors: ['400', '401', '404', '406', '409', '415', '429'],
  }),
  defineOperation({
    operationId: 'uploadProductImage',
    documents: ['v3'],
    method: 'POST',
    path: '/v3/products/{id}/image',
    tags,
    auth: true,
    success: 200,
    rateLimit: 'products',
    summary: 'Upload the product image',
    description: `The raw image as the body, with an image Content-Type (or application/octet-stream). A product has one image; a new upload replaces it. Under ${limits.productImageMaxBytes / 1024 / 1024} MiB; accepted types: ${productImageTypes.join(', ')}. The type is read from the file's bytes (magic numbers), not from the Content-Type header. Accepted: 200 with code 200-1; rejected: 400 with code 400-8. While too many files are being checked at once the answer is 503: send it again a few seconds later. The image counts towards your storage quota (${limits.storageQuotaMibDefault} MiB by default, for your attachments and product images together; the image it replaces no longer counts): an image that does not fit answers 413, naming the quota and what your files take. ${uploadPaceText}`,
    params: IdParams,
    body: Type.String({ contentMediaType: 'image/*', maxLength: limits.productImageMaxBytes, description: 'The image file.' }),
    bodyContentTypes: ['image/*', 'application/octet-stream'],
    responses: {
      200: {
        description: '200-1: the image is accepted.',
        schema: SingleDocument(Product, [], ProductImageMeta),
      },
    },
    errors: ['400-8', '401', '404', '406', '413', '415', '429', '503'],
  }),
];
