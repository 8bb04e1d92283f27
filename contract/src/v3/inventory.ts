// v3 stock: stock per location, stock locations, stock levels per product and warehouse, and the stock mutation ledger.
import { Type } from '@sinclair/typebox';
import {
  correctionCodes,
  expirationStatuses,
  locationTypes,
  stockMutationTypes,
  stockQualities,
  stockStatuses,
  warehouseCodes,
} from '../enums.ts';
import { DateOnly, ListFilter, Nullable } from '../formats.ts';
import { CollectionDocument, MAX_ID, Resource, SingleDocument, ToOne } from '../jsonapi.ts';
import { IdParams, IncludeQuery, PageQuery, defineOperation } from '../operation.ts';
import { limits } from '../limits.ts';

const literals = (values: readonly string[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );
const nullableString = Nullable(Type.String());

export const LocationTypeSchema = literals(locationTypes, 'Kind of warehouse location.');
export const StockQualitySchema = literals(stockQualities, 'OK, or why the goods cannot be sold: DAMAGED, TO_SCRAP, OVERDUE, EXPIRED.');
export const StockStatusSchema = literals(stockStatuses, 'OK once the goods are matched and counted; INBOUND while still being received.');
export const ExpirationStatusSchema = literals(
  expirationStatuses,
  "OK, WARNING (within the product's warning days), OVERDUE (within the margin), EXPIRED.",
);

export const Stock = Resource(
  'stock',
  Type.Object({
    sku: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    locationType: LocationTypeSchema,
    locationCode: Type.String(),
    quality: StockQualitySchema,
    status: StockStatusSchema,
    expirationDate: Nullable(Type.String({ format: 'date' })),
    expirationStatus: ExpirationStatusSchema,
    lotNumber: nullableString,
    quarantined: Type.Boolean({ default: false }),
    modifiedOn: Type.String({ format: 'date-time' }),
    receivedOn: Type.String({ format: 'date-time' }),
  }),
  Type.Object({ stockLocation: ToOne('stockLocation'), product: ToOne('product'), inboundItem: ToOne('inboundItem') }),
  'Goods of one product on one location, with one lot, expiration date, quality and status.',
);

export const StockLocation = Resource(
  'stockLocation',
  Type.Object({
    warehouseCode: literals(warehouseCodes),
    locationType: LocationTypeSchema,
    locationCode: Type.String(),
  }),
  undefined,
  'A place in a warehouse.',
);

const quantity = (description: string) => Type.Integer({ minimum: 0, description });

/** The formulas, once, for the reference; server/src/modules/inventory/levels.ts computes exactly these. */
export const stockLevelFormulas = [
  '`physical` = all stock in the warehouse.',
  '`quarantined` = stock in quarantine; `damaged`, `toScrap`, `overdue`, `expired` = stock not in quarantine of that quality.',
  '`unavailable` = physical stock that cannot be shipped: quarantined, of a quality other than OK, or not yet matched (status other than OK, e.g. INBOUND while an inbound is being checked).',
  '`stock` = physical − unavailable.',
  '`outbound` = quantity on shipments of this warehouse that are not yet SHIPPED (still in stock, already taken).',
  'ordered = quantity of open order items for this warehouse not yet on a shipment (orders not on hold, valid and not fulfilled; warehouse = item fulfillFrom, else order fulfillFrom, else your default warehouse).',
  '`free` = max(0, stock − outbound − ordered): never negative.',
  '`available` = max(0, free − stock on locations excluded from fulfilment (INBOUND, RETURN, TRANSFER, DAMAGED, TO_SCRAP)).',
  '`expected` = Σ (quantity − received) over the items of packing slips expected in this warehouse that are EXPECTED or IN_PROGRESS.',
  '`economic` = max(0, stock + expected − outbound − ordered): what you can sell counting announced goods (≥ free).',
];

export const StockLevelValues = Type.Object({
  warehouse: literals(warehouseCodes),
  stock: quantity('Physical minus unavailable.'),
  free: quantity('Stock minus outbound minus ordered; never negative.'),
  economic: quantity('Stock plus expected minus outbound minus ordered.'),
  available: quantity('Free minus stock on locations excluded from fulfilment.'),
  physical: quantity('All stock in the warehouse.'),
  quarantined: quantity('In quarantine.'),
  unavailable: quantity('Quarantined, not OK quality, or not yet matched.'),
  expected: quantity('Announced on open packing slips, not yet received.'),
  damaged: quantity('Quality DAMAGED.'),
  toScrap: quantity('Quality TO_SCRAP.'),
  overdue: quantity('Quality OVERDUE.'),
  expired: quantity('Quality EXPIRED.'),
  outbound: quantity('On shipments not yet shipped.'),
});

export const StockLevel = Resource(
  'stockLevel',
  Type.Object({
    sku: Type.String(),
    mutatedOn: Nullable(
      Type.String({ format: 'date-time', description: 'When the last stock mutation of the product was booked; null when none.' }),
    ),
    levels: Type.Array(StockLevelValues, {
      description: 'One entry per warehouse where the product has stock, is expected or is ordered.',
    }),
  }),
  Type.Object({ product: ToOne('product') }),
  'The stock figures of one product; its id is the product id.',
);

export const StockMutation = Resource(
  'stockMutation',
  Type.Object({
    type: literals(stockMutationTypes),
    createdOn: Type.String({ format: 'date-time', description: 'UTC.' }),
    warehouseCode: literals(warehouseCodes),
    locationType: LocationTypeSchema,
    locationCode: Type.String(),
    sku: Type.String(),
    quantity: Type.Integer({ description: 'Signed: negative when goods leave the location.' }),
    quality: StockQualitySchema,
    status: StockStatusSchema,
    expirationDate: Nullable(Type.String({ format: 'date' })),
    lotNumber: nullableString,
    correctionCode: Nullable(literals(correctionCodes, 'Why a CORRECTION was booked.')),
    remarks: nullableString,
  }),
  Type.Object({
    product: ToOne('product'),
    returnItem: ToOne('returnItem', 'Set when type is RETURN.'),
    inboundItem: ToOne('inboundItem', 'Set when type is INBOUND.'),
    shipmentItem: ToOne('shipmentItem', 'Set when type is SHIPMENT.'),
  }),
  'One booking in the stock ledger.',
);

const tags = ['Stock'];
const readErrors = ['400', '401', '406'] as const;

export const stockOperations = [
  defineOperation({
    operationId: 'listStock',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/stock',
    tags,
    auth: true,
    success: 200,
    summary: 'List stock',
    description: 'Your stock per location, ordered by id ascending, cursor-paged. `include=stockLocation` adds the locations.',
    query: Type.Object({
      ...PageQuery,
      ...IncludeQuery(['stockLocation']),
      'filter[locationType][in]': Type.Optional(ListFilter('Location types.', ['PICKABLE,PALLET'])),
      'filter[sku][in]': Type.Optional(ListFilter('SKUs.')),
      'filter[modifiedOn][lt]': Type.Optional(DateOnly),
      'filter[modifiedOn][gt]': Type.Optional(DateOnly),
      'filter[expirationStatus][in]': Type.Optional(ListFilter('Expiration statuses.', ['OK,EXPIRED'])),
    }),
    responses: { 200: { description: 'A page of stock.', schema: CollectionDocument(Stock, [StockLocation]) } },
    errors: [...readErrors],
  }),
  defineOperation({
    operationId: 'getStock',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/stock/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read stock',
    description: 'One stock row; `include=stockLocation` adds its location.',
    params: IdParams,
    query: Type.Object({ ...IncludeQuery(['stockLocation']) }),
    responses: { 200: { description: 'The stock.', schema: SingleDocument(Stock, [StockLocation]) } },
    errors: [...readErrors, '404'],
  }),
  defineOperation({
    operationId: 'getStockLocation',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/stockLocations/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a stock location',
    description:
      'One of your stock locations: the warehouse, the kind of location and its code. Stock names its location in `relationships.stockLocation`; `GET /v3/stock?include=stockLocation` lists them with the stock.',
    params: IdParams,
    responses: { 200: { description: 'The stock location.', schema: SingleDocument(StockLocation) } },
    errors: ['401', '404', '406'],
  }),
  defineOperation({
    operationId: 'listStockLevels',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/stockLevels',
    tags,
    auth: true,
    success: 200,
    rateLimit: 'stockLevels',
    summary: 'List stock levels',
    description: `The stock levels of your products, one entry per warehouse, keyset-paged by \`sort\`: \`id\` (default) or \`mutatedOn,id\` (oldest mutation first; products without mutations first). \`page[cursor]\` is the id of the last product seen.\n\nFormulas, per product and warehouse:\n\n${stockLevelFormulas.map((f) => `- ${f}`).join('\n')}`,
    query: Type.Object({
      ...PageQuery,
      'filter[sku][in]': Type.Optional(ListFilter('SKUs.')),
      'filter[mutatedOn][gte]': Type.Optional(
        Type.String({
          format: 'date-time',
          description: 'UTC date-time: only products with a stock mutation at or after it.',
          examples: ['2026-11-21T10:00:00Z'],
        }),
      ),
      sort: Type.Optional(
        Type.Union([Type.Literal('id'), Type.Literal('mutatedOn,id')], { default: 'id', description: 'id, or mutatedOn,id.' }),
      ),
    }),
    responses: { 200: { description: 'A page of stock levels.', schema: CollectionDocument(StockLevel) } },
    errors: [...readErrors, '429'],
  }),
  defineOperation({
    operationId: 'getStockLevel',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/stockLevels/{id}',
    tags,
    auth: true,
    success: 200,
    rateLimit: 'stockLevels',
    summary: 'Read the stock levels of a product',
    description: `The id is the product id. Formulas as in the list: free = max(0, stock − outbound − ordered), stock = physical − unavailable.`,
    params: IdParams,
    responses: { 200: { description: 'The stock levels.', schema: SingleDocument(StockLevel) } },
    errors: ['401', '404', '406', '429'],
  }),
  defineOperation({
    operationId: 'listStockMutations',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/stockMutations',
    tags,
    auth: true,
    success: 200,
    summary: 'List stock mutations',
    description: `The stock ledger, ordered by id ascending. Mutations older than ${limits.stockMutationRetentionDays} days are not returned. Page with \`page[cursor]\` or \`page[number]\`: both are the id of the last mutation seen, which is not repeated. \`filter[synced]=false\` (legacy) gives the mutations not yet synced through v2.`,
    query: Type.Object({
      ...PageQuery,
      'page[number]': Type.Optional(
        Type.Integer({
          maximum: MAX_ID,
          description:
            'Minimum 1, default 1 (the start); lower values are treated as omitted. Works as a cursor: the mutation with this id is not repeated.',
        }),
      ),
      'filter[createdOn][lt]': Type.Optional(DateOnly),
      'filter[createdOn][gt]': Type.Optional(DateOnly),
      'filter[type][in]': Type.Optional(ListFilter('Mutation types.', ['INBOUND,SHIPMENT'])),
      'filter[synced]': Type.Optional(Type.Boolean({ description: 'Legacy: false means not yet synced through v2.' })),
    }),
    responses: { 200: { description: 'A page of stock mutations.', schema: CollectionDocument(StockMutation) } },
    errors: [...readErrors],
  }),
  defineOperation({
    operationId: 'getStockMutation',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/stockMutations/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a stock mutation',
    description: `One booking of the stock ledger. Like the list, a mutation older than ${limits.stockMutationRetentionDays} days is not returned: 404.`,
    params: IdParams,
    responses: { 200: { description: 'The stock mutation.', schema: SingleDocument(StockMutation) } },
    errors: ['401', '404', '406'],
  }),
];
