// v3 return reasons and shipping methods: the client's reference data as readable collections.
import { Type } from '@sinclair/typebox';
import { CollectionDocument, Resource, SingleDocument, ToOne } from '../jsonapi.ts';
import { IdParams, PageQuery, defineOperation } from '../operation.ts';
import { Nullable } from '../formats.ts';

export const shippingMethodKinds = ['MAIN', 'WAREHOUSE', 'RETURN'] as const;

export const ReturnReason = Resource(
  'returnReason',
  Type.Object({
    code: Type.String({ examples: ['TOO_SMALL'] }),
    name: Type.String({ examples: ['Too small'] }),
  }),
  undefined,
  'Why a consumer returned an item; return items refer to it.',
);

export const ShippingMethod = Resource(
  'shippingMethod',
  Type.Object({
    code: Type.String({ examples: ['POSTNL_STANDARD'] }),
    name: Type.String(),
    carrier: Type.String({ examples: ['PostNL'] }),
    kind: Type.Union(
      shippingMethodKinds.map((k) => Type.Literal(k)),
      {
        description:
          'MAIN: what orders name as preferredShippingMethod; WAREHOUSE: a main method as one warehouse carries it out; RETURN: for return shipments.',
      },
    ),
    warehouseCode: Nullable(Type.String({ description: 'For WAREHOUSE methods: the warehouse.' })),
    paperless: Type.Boolean({
      description:
        'For RETURN methods: the consumer needs no printed label (the return label is a code to show at the carrier). Always false for the others.',
    }),
  }),
  Type.Object({
    mainShippingMethod: ToOne('shippingMethod', 'For WAREHOUSE methods: the main method they carry out.'),
  }),
  'A way of shipping; the main ones are what orders choose.',
);

const tags = ['Settings'];

export const referenceCollectionOperations = [
  defineOperation({
    operationId: 'listReturnReasons',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/returnReasons',
    tags,
    auth: true,
    success: 200,
    summary: 'List return reasons',
    description: 'Your return reasons, ordered by id ascending, cursor-paged.',
    query: Type.Object({ ...PageQuery }),
    responses: { 200: { description: 'A page of return reasons.', schema: CollectionDocument(ReturnReason) } },
    errors: ['400', '401', '406'],
  }),
  defineOperation({
    operationId: 'getReturnReason',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/returnReasons/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a return reason',
    description: 'One return reason.',
    params: IdParams,
    responses: { 200: { description: 'The return reason.', schema: SingleDocument(ReturnReason) } },
    errors: ['401', '404', '406'],
  }),
  defineOperation({
    operationId: 'listShippingMethods',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/shippingMethods',
    tags,
    auth: true,
    success: 200,
    summary: 'List shipping methods',
    description:
      'Your shipping methods, ordered by id ascending, cursor-paged: the main ones orders choose, each main one per warehouse, and the return methods. `GET /settings/get` lists the main shipping method ids with their per-warehouse methods.',
    query: Type.Object({ ...PageQuery }),
    responses: { 200: { description: 'A page of shipping methods.', schema: CollectionDocument(ShippingMethod) } },
    errors: ['400', '401', '406'],
  }),
  defineOperation({
    operationId: 'getShippingMethod',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/shippingMethods/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a shipping method',
    description: 'One shipping method.',
    params: IdParams,
    responses: { 200: { description: 'The shipping method.', schema: SingleDocument(ShippingMethod) } },
    errors: ['401', '404', '406'],
  }),
];
