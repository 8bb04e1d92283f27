// v3 return items (read): what the warehouse booked when returned goods came back.
import { Type } from '@sinclair/typebox';
import { returnConditions, warehouseCodes } from '../enums.ts';
import { DateOnly, Nullable } from '../formats.ts';
import { CollectionDocument, Resource, SingleDocument, ToOne } from '../jsonapi.ts';
import { IdParams, PageQuery, defineOperation } from '../operation.ts';

const nullableWarehouse = Nullable(Type.Union(warehouseCodes.map((c) => Type.Literal(c))));

export const ReturnItem = Resource(
  'returnItem',
  Type.Object({
    sku: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    condition: Type.Union(
      returnConditions.map((c) => Type.Literal(c)),
      { description: 'RETURN (restockable), DAMAGED, or UNKNOWN.' },
    ),
    processedOn: Type.String({ format: 'date-time' }),
    processedIn: nullableWarehouse,
    restockIn: nullableWarehouse,
    restockOn: Nullable(Type.String({ format: 'date-time' })),
    comment: Nullable(Type.String()),
    redeliver: Type.Boolean({ default: false }),
    externalOrderNumber: Type.String(),
  }),
  Type.Object({
    order: ToOne('order'),
    orderItem: ToOne('orderItem'),
    product: ToOne('product'),
    return: ToOne('return'),
    returnAuthorizationItem: ToOne('returnAuthorizationItem', "The announced (RMA) item; it shares the return item's id."),
    returnReason: ToOne('returnReason'),
    shipmentItem: ToOne('shipmentItem'),
  }),
  'A returned product as the warehouse processed it.',
);

export const returnOperations = [
  defineOperation({
    operationId: 'listReturnItems',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/returnItems',
    tags: ['Returns'],
    auth: true,
    success: 200,
    summary: 'List return items',
    description:
      'Returned products the warehouse has processed, ordered by id ascending, cursor-paged. RETURN goods go back into stock; DAMAGED goods are booked with quality DAMAGED.',
    query: Type.Object({
      ...PageQuery,
      'filter[processedOn][lt]': Type.Optional(DateOnly),
      'filter[processedOn][gt]': Type.Optional(DateOnly),
    }),
    responses: { 200: { description: 'A page of return items.', schema: CollectionDocument(ReturnItem) } },
    errors: ['400', '401', '406'],
  }),
  defineOperation({
    operationId: 'getReturnItem',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/returnItems/{id}',
    tags: ['Returns'],
    auth: true,
    success: 200,
    summary: 'Read a return item',
    description:
      'One returned product as the warehouse processed it. An announced return (RMA) item that has not been processed yet is not a return item: 404.',
    params: IdParams,
    responses: { 200: { description: 'The return item.', schema: SingleDocument(ReturnItem) } },
    errors: ['401', '404', '406'],
  }),
];
