// v3 shipments (read-only): what the warehouse sent, with tracking.
import { Type } from '@sinclair/typebox';
import { shipmentStatuses, trackingStages, trackingStatuses } from '../enums.ts';
import { DateOnly, ListFilter, Nullable } from '../formats.ts';
import { CollectionDocument, MAX_ID, Resource, SingleDocument, ToMany, ToOne } from '../jsonapi.ts';
import { IdParams, IncludeQuery, PageQuery, defineOperation } from '../operation.ts';
import { limits } from '../limits.ts';

const nullableString = Nullable(Type.String());
const nullableDateTime = Nullable(Type.String({ format: 'date-time' }));

export const ShipmentStatusSchema = Type.Union(
  shipmentStatuses.map((s) => Type.Literal(s)),
  { description: 'READY_TO_PICK → READY_TO_SORT → READY_TO_SHIP → SHIPPED; ERROR awaits operator action.' },
);

export const ShipmentAttributes = Type.Object({
  status: ShipmentStatusSchema,
  readyToPickOn: nullableDateTime,
  readyToShipOn: nullableDateTime,
  shippedOn: nullableDateTime,
  warehouseCode: Type.String(),
  weight: Nullable(Type.Integer({ description: 'Grams.' })),
  invoicingWeight: Nullable(Type.Integer({ description: 'Grams.' })),
  basketPicture: Nullable(Type.String({ format: 'uri' })),
  returnLabel: nullableString,
  metadata: Type.Object({
    extra1: nullableString,
    extra2: nullableString,
    extra3: nullableString,
    extra4: nullableString,
    extra5: nullableString,
  }),
  tracking: Nullable(
    Type.Object({
      carrier: nullableString,
      number: nullableString,
      stage: Nullable(
        Type.Union(
          [...trackingStages, 'RETURNED'].map((s) => Type.Literal(s)),
          { description: "The carrier's stage; RETURNED (descriptive) for a parcel back at the warehouse after the consumer refused it." },
        ),
      ),
      status: Nullable(Type.Union(trackingStatuses.map((s) => Type.Literal(s)))),
      url: Nullable(Type.String({ format: 'uri' })),
    }),
  ),
  colli: Type.Array(
    Type.Object({ number: Type.Integer(), parcelNumber: Type.String(), trackingUrl: Nullable(Type.String({ format: 'uri' })) }),
  ),
});

export const Shipment = Resource(
  'shipment',
  ShipmentAttributes,
  Type.Object({
    order: ToOne('order'),
    orderType: ToOne('orderType'),
    shipmentItems: ToMany('shipmentItem'),
    shippingMethod: ToOne('shippingMethod'),
  }),
  'A shipment of (part of) an order. Details may change until SHIPPED.',
);

export const ShipmentItem = Resource(
  'shipmentItem',
  Type.Object({
    sku: Type.String(),
    quantity: Type.Integer({ minimum: 0 }),
    lotNumber: nullableString,
    expirationDate: Nullable(Type.String({ format: 'date' })),
    serialNumbers: Type.Array(Type.String()),
  }),
  Type.Object({ orderItem: ToOne('orderItem'), product: ToOne('product'), shipment: ToOne('shipment') }),
  'One shipped line.',
);

const tags = ['Shipments'];

export const shipmentOperations = [
  defineOperation({
    operationId: 'listShipments',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/shipments',
    tags,
    auth: true,
    success: 200,
    summary: 'List shipments',
    description: `Your shipments, ordered by id ascending, cursor-paged. Shipments older than ${limits.shipmentRetentionDays} days are not returned. Filters given together all apply: \`orderId=6&filter[orderId][in]=6,7\` gives the shipments of order 6.`,
    query: Type.Object({
      ...PageQuery,
      ...IncludeQuery(['shipmentItems']),
      'filter[shippedOn][lt]': Type.Optional(DateOnly),
      'filter[shippedOn][gt]': Type.Optional(DateOnly),
      'filter[status][in]': Type.Optional(ListFilter('Statuses.', ['SHIPPED'])),
      'filter[orderType][in]': Type.Optional(ListFilter('Order type ids (integers).', ['1,2'])),
      'filter[reference][in]': Type.Optional(ListFilter('Order references.')),
      orderId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Only shipments of this order.' })),
      externalOrderNumber: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: limits.externalOrderNumberMax,
          description: 'Only shipments of the order with this number.',
        }),
      ),
      // The spec names these two filters without the filter[] form the others have: both spellings are read, so a
      // client that writes them like the other filters gets the filter it asked for.
      'filter[orderId]': Type.Optional(ListFilter('Order ids (integers); the same filter as orderId, for several orders.', ['6'])),
      'filter[orderId][in]': Type.Optional(ListFilter('Order ids (integers); the same as filter[orderId].', ['6,7'])),
      'filter[externalOrderNumber]': Type.Optional(
        ListFilter('External order numbers; the same filter as externalOrderNumber, for several orders.', ['SHOP-10001']),
      ),
      'filter[externalOrderNumber][in]': Type.Optional(
        ListFilter('External order numbers; the same as filter[externalOrderNumber].', ['SHOP-10001,SHOP-10002']),
      ),
    }),
    responses: { 200: { description: 'A page of shipments.', schema: CollectionDocument(Shipment, [ShipmentItem]) } },
    errors: ['400', '401', '406'],
  }),
  defineOperation({
    operationId: 'getShipment',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/shipments/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a shipment',
    description: 'One shipment; `include=shipmentItems` adds its items.',
    params: IdParams,
    query: Type.Object({ ...IncludeQuery(['shipmentItems']) }),
    responses: { 200: { description: 'The shipment.', schema: SingleDocument(Shipment, [ShipmentItem]) } },
    errors: ['400', '401', '404', '406'],
  }),
  defineOperation({
    operationId: 'getShipmentItem',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/shipmentItems/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a shipment item',
    description: `One shipped line; like its shipment, not returned after ${limits.shipmentRetentionDays} days.`,
    params: IdParams,
    responses: { 200: { description: 'The shipment item.', schema: SingleDocument(ShipmentItem) } },
    errors: ['401', '404', '406'],
  }),
];
