// v3 inbound: packing slips announcing goods, and the inbounds (with their items) the warehouse received.
import { Type } from '@sinclair/typebox';
import { inboundStatuses, packingSlipStatuses, warehouseCodes } from '../enums.ts';
import { DateOnly, ListFilter, Nullable, Sku, WarehouseCodeSchema } from '../formats.ts';
import { CollectionDocument, ProvisionalId, Resource, SingleDocument, ToMany, ToOne } from '../jsonapi.ts';
import { IdParams, IncludeQuery, PageQuery, defineOperation } from '../operation.ts';
import { limits } from '../limits.ts';
import { OrderMetadata } from './orders.ts';

const nullableString = Nullable(Type.String());
const nullableDateTime = Nullable(Type.String({ format: 'date-time' }));
const literals = (values: readonly string[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

export const PackingSlipStatusSchema = literals(
  packingSlipStatuses,
  'EXPECTED (still amendable) → IN_PROGRESS → CHECKING → CHECKED → COMPLETED.',
);
export const InboundStatusSchema = literals(inboundStatuses, 'PROCESSING → CHECKING → CHECKED → COMPLETED (2 hours after CHECKED).');

export const InboundPackingSlip = Resource(
  'inboundPackingSlip',
  Type.Object({
    expectedIn: literals(warehouseCodes),
    expectedOn: Nullable(Type.String({ format: 'date' })),
    receivedOn: nullableDateTime,
    completedOn: nullableDateTime,
    reference: Type.String(),
    status: PackingSlipStatusSchema,
    comments: nullableString,
    metadata: Type.Object({
      extra1: nullableString,
      extra2: nullableString,
      extra3: nullableString,
      extra4: nullableString,
      extra5: nullableString,
    }),
  }),
  Type.Object({
    inboundPackingSlipItems: ToMany('inboundPackingSlipItem'),
    inbound: ToOne('inbound', 'The latest inbound that received goods of this packing slip.'),
  }),
  'Goods you announce to a warehouse.',
);

export const InboundPackingSlipItem = Resource(
  'inboundPackingSlipItem',
  Type.Object({
    sku: Type.String(),
    quantity: Type.Integer({ minimum: 1, description: 'Expected quantity.' }),
    received: Type.Integer({ minimum: 0, description: 'Received so far; may exceed the expected quantity.' }),
  }),
  Type.Object({ inboundPackingSlip: ToOne('inboundPackingSlip'), product: ToOne('product') }),
  'One announced product.',
);

export const Inbound = Resource(
  'inbound',
  Type.Object({
    reference: Type.String(),
    status: InboundStatusSchema,
    receivedIn: literals(warehouseCodes),
    createdOn: Type.String({ format: 'date-time' }),
    checkingOn: nullableDateTime,
    completedOn: nullableDateTime,
  }),
  Type.Object({ inboundPackingSlip: ToOne('inboundPackingSlip'), inboundItems: ToMany('inboundItem') }),
  'Goods the warehouse received. Stock counts as available only after the goods are matched (CHECKED).',
);

export const InboundItem = Resource(
  'inboundItem',
  Type.Object({
    quantity: Type.Integer({ minimum: 1 }),
    sku: Type.String(),
    lotNumber: nullableString,
    expirationDate: Nullable(Type.String({ format: 'date' })),
  }),
  Type.Object({
    inbound: ToOne('inbound'),
    product: ToOne('product'),
    inboundPackingSlipItem: ToOne('inboundPackingSlipItem', 'Null for goods that were not on the packing slip.'),
  }),
  'One received product.',
);

export const InboundPackingSlipItemWriteAttributes = Type.Object(
  {
    sku: Sku,
    quantity: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'Expected quantity, 1 or more. Repeated skus are merged by summing.',
    }),
  },
  { additionalProperties: false },
);

const IncludedPackingSlipItem = Type.Object({
  type: Type.Literal('inboundPackingSlipItem'),
  id: Type.Optional(ProvisionalId),
  lid: Type.Optional(ProvisionalId),
  attributes: InboundPackingSlipItemWriteAttributes,
});

export const InboundPackingSlipCreateDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('inboundPackingSlip'),
    id: Type.Optional(ProvisionalId),
    attributes: Type.Object(
      {
        expectedIn: WarehouseCodeSchema,
        expectedOn: Type.Optional(Nullable(DateOnly)),
        reference: Type.String({ minLength: 1, maxLength: 100, description: 'Your reference; unique among your packing slips.' }),
        comments: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
        metadata: Type.Optional(Nullable(OrderMetadata)),
      },
      { additionalProperties: false },
    ),
    relationships: Type.Optional(
      Type.Object(
        {
          inboundPackingSlipItems: Type.Optional(
            Type.Object({
              data: Type.Array(
                Type.Object({
                  type: Type.Literal('inboundPackingSlipItem'),
                  id: Type.Optional(ProvisionalId),
                  lid: Type.Optional(ProvisionalId),
                }),
                { maxItems: limits.packingSlipItemsMax },
              ),
            }),
          ),
        },
        { description: 'Optional: every included item belongs to the packing slip.' },
      ),
    ),
  }),
  included: Type.Array(IncludedPackingSlipItem, {
    minItems: 1,
    maxItems: limits.packingSlipItemsMax,
    description: `The announced items (sku, quantity), at most ${limits.packingSlipItemsMax}.`,
  }),
});

const tags = ['Inbound'];
const slipIncludes = ['inboundPackingSlipItems'];
const inboundIncludes = ['inboundItems'];
const visibility = `A packing slip belongs to the warehouse it is expected in (\`expectedIn\`): only that warehouse receives it, and its inbounds are received there. Packing slips older than ${limits.packingSlipRetentionDays} days are not returned.`;

export const inboundOperations = [
  defineOperation({
    operationId: 'listInboundPackingSlips',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/inboundPackingSlips',
    tags,
    auth: true,
    success: 200,
    summary: 'List inbound packing slips',
    description: `Your packing slips, ordered by id ascending, cursor-paged. ${visibility}`,
    query: Type.Object({
      ...PageQuery,
      ...IncludeQuery(slipIncludes),
      'filter[status][in]': Type.Optional(ListFilter('Statuses.', ['EXPECTED,IN_PROGRESS'])),
      'filter[receivedOn][lt]': Type.Optional(DateOnly),
      'filter[receivedOn][gt]': Type.Optional(DateOnly),
      'filter[completedOn][lt]': Type.Optional(DateOnly),
      'filter[completedOn][gt]': Type.Optional(DateOnly),
    }),
    responses: {
      200: { description: 'A page of packing slips.', schema: CollectionDocument(InboundPackingSlip, [InboundPackingSlipItem]) },
    },
    errors: ['400', '401', '406'],
  }),
  defineOperation({
    operationId: 'createInboundPackingSlip',
    documents: ['v3'],
    method: 'POST',
    path: '/v3/inboundPackingSlips',
    tags,
    auth: true,
    success: 201,
    summary: 'Announce an inbound packing slip',
    description: `Send the packing slip in \`data\` and its items (sku, quantity) in \`included\`, like order items. \`expectedIn\` is required and must be a warehouse that accepts goods; \`reference\` is unique among your packing slips (409); every sku must be one of your products (404-1); a repeated sku is merged by summing its quantities; quantities are 1 or more. Several problems come back together. ${visibility}`,
    query: Type.Object({ ...IncludeQuery(slipIncludes) }),
    body: InboundPackingSlipCreateDocument,
    requestExample: {
      data: {
        type: 'inboundPackingSlip',
        attributes: {
          expectedIn: 'NR',
          expectedOn: '2026-12-01',
          reference: 'PO-2026-001',
          comments: 'Two pallets',
          metadata: { extra1: 'supplier 12' },
        },
      },
      included: [
        { type: 'inboundPackingSlipItem', attributes: { sku: 'SKU-TSHIRT-M', quantity: 100 } },
        { type: 'inboundPackingSlipItem', attributes: { sku: 'SKU-MUG', quantity: 24 } },
      ],
    },
    responses: {
      201: {
        description: 'The packing slip with its items included.',
        schema: SingleDocument(InboundPackingSlip, [InboundPackingSlipItem]),
      },
    },
    errors: ['400', '401', '404-1', '406', '409', '415'],
  }),
  defineOperation({
    operationId: 'getInboundPackingSlip',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/inboundPackingSlips/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read an inbound packing slip',
    description: `One packing slip; \`include=inboundPackingSlipItems\` adds its items. ${visibility}`,
    params: IdParams,
    query: Type.Object({ ...IncludeQuery(slipIncludes) }),
    responses: { 200: { description: 'The packing slip.', schema: SingleDocument(InboundPackingSlip, [InboundPackingSlipItem]) } },
    errors: ['400', '401', '404', '406'],
  }),
  defineOperation({
    operationId: 'getInboundPackingSlipItem',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/inboundPackingSlipItems/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read an inbound packing slip item',
    description: `One announced product of a packing slip, with the quantity received so far. Like its packing slip, not returned after ${limits.packingSlipRetentionDays} days.`,
    params: IdParams,
    responses: { 200: { description: 'The packing slip item.', schema: SingleDocument(InboundPackingSlipItem) } },
    errors: ['401', '404', '406'],
  }),
  defineOperation({
    operationId: 'listInbounds',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/inbounds',
    tags,
    auth: true,
    success: 200,
    summary: 'List inbounds',
    description:
      'Goods received for you, ordered by id ascending, cursor-paged. A CHECKED inbound completes by itself 2 hours later (your clock).',
    query: Type.Object({
      ...PageQuery,
      ...IncludeQuery(inboundIncludes),
      'filter[status][in]': Type.Optional(ListFilter('Statuses.', ['CHECKED,COMPLETED'])),
    }),
    responses: { 200: { description: 'A page of inbounds.', schema: CollectionDocument(Inbound, [InboundItem]) } },
    errors: ['400', '401', '406'],
  }),
  defineOperation({
    operationId: 'getInbound',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/inbounds/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read an inbound',
    description: 'One inbound; `include=inboundItems` adds its items.',
    params: IdParams,
    query: Type.Object({ ...IncludeQuery(inboundIncludes) }),
    responses: { 200: { description: 'The inbound.', schema: SingleDocument(Inbound, [InboundItem]) } },
    errors: ['400', '401', '404', '406'],
  }),
  defineOperation({
    operationId: 'getInboundItem',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/inboundItems/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read an inbound item',
    description: 'One received product of an inbound.',
    params: IdParams,
    responses: { 200: { description: 'The inbound item.', schema: SingleDocument(InboundItem) } },
    errors: ['401', '404', '406'],
  }),
];
