// v2 shipments: unsynced and labeled lists, sync calls, search, and track-trace status with numeric codes.
import { Type } from '@sinclair/typebox';
import { limits } from '../limits.ts';
import { MAX_ID } from '../jsonapi.ts';
import { v2Messages } from '../errors.ts';
import type { TrackingStage } from '../enums.ts';
import { DateOnly } from '../formats.ts';
import { defineOperation } from '../operation.ts';
import { badRequestResponse, foundOrNotResponse, nullableInteger, nullableString, okResponse } from './common.ts';

/** v2 track-trace codes of the tracking stages (DESIGN.md); 8, 18, 19, 20 and 21 exist only in v2 and are not produced. */
export const trackTraceCodes: Record<TrackingStage, number> = {
  LABELLED: 1,
  ACCEPTED: 2,
  SORTED: 3,
  IN_DELIVERY: 4,
  AT_PUP: 5,
  DELIVERED: 7,
  '1ST_ATTEMPT': 10,
};
export const trackTraceExceptionLevels: Record<string, number> = { OK: 1, WARNING: 2, ERROR: 3 };
/** The words shipment lists use for the same stages and levels. */
export const trackTraceStatusWords: Record<TrackingStage, string> = {
  LABELLED: 'labelled',
  ACCEPTED: 'accepted',
  SORTED: 'sorted',
  IN_DELIVERY: 'in delivery',
  AT_PUP: 'at pickup point',
  DELIVERED: 'delivered',
  '1ST_ATTEMPT': 'delivery started',
};
export const trackTraceExceptionWords: Record<string, string> = { OK: 'success', WARNING: 'warning', ERROR: 'error' };

const shippedProductFields = {
  sku: Type.String(),
  quantity: Type.Integer(),
  serialNrs: Type.Array(Type.String()),
  weight: nullableInteger,
  tht: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Best-before date.' }),
  extra6: nullableString,
  extra7: nullableString,
  lotNumber: nullableString,
};

export const V2Shipment = Type.Object({
  id: Type.Integer(),
  orderNumber: Type.Integer({ description: 'The order id (v3 /v3/orders/{orderNumber}).' }),
  orderType: Type.Integer({ description: 'Order type id.' }),
  externalOrderNumber: Type.String(),
  shippingDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  numberOfColli: Type.Integer(),
  totalNumberOfProducts: Type.Integer(),
  shippingMethodId: Type.Integer({ description: 'The shipping method of the warehouse that shipped.' }),
  returnPackageNumber: nullableString,
  shippedColli: Type.Array(Type.Object({ colloNr: Type.Integer(), packageNumber: Type.String(), trackTraceUrl: nullableString })),
  shippedProducts: Type.Array(
    Type.Object({
      ...shippedProductFields,
      parts: Type.Array(Type.Object(shippedProductFields), { description: 'The parts of a composed product.' }),
    }),
  ),
  basketPicURL: nullableString,
  extra1: nullableString,
  extra2: nullableString,
  extra3: nullableString,
  extra4: nullableString,
  extra5: nullableString,
  currentTrackTraceStatus: Type.String({
    description: 'New, labelled, accepted, sorted, in delivery, at pickup point, delivery started or delivered.',
  }),
  currentTrackTraceExceptionLevel: Type.String({ description: 'success, warning or error.' }),
  warehouseAbbrevation: Type.String({ description: 'Warehouse code (the v2 spelling of the field).' }),
  mainShippingMethodId: Type.Integer(),
});

export const V2ShipmentSearchResult = Type.Object({
  id: Type.Integer(),
  externalOrderNumber: Type.String(),
  trackingNumber: nullableString,
  shippingDate: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  numberOfColli: Type.Integer(),
  totalNumberOfProducts: Type.Integer(),
  trackAndTraceCode: nullableString,
  trackAndTraceBarCode: nullableString,
  shippingMethodId: Type.Integer(),
  returnPackageNumber: nullableString,
  packageNumber: nullableString,
  currentTrackTraceStatus: Type.String(),
  currentTrackTraceExceptionLevel: Type.String(),
  warehouseAbbreviation: Type.String(),
  mainShippingMethodId: Type.Integer(),
  shipmentItems: Type.Array(
    Type.Object({ shipmentItemId: Type.Integer(), quantity: Type.Integer(), sku: Type.String(), lotNumber: nullableString }),
  ),
});

export const V2TrackTraceItem = Type.Object({
  shipmentId: Type.Integer(),
  externalOrderNumber: Type.String(),
  packageNumber: nullableString,
  shipmentMethod: Type.String({ description: 'Name of the shipping method.' }),
  currentTrackTraceStatus: Type.Integer({
    description:
      '1 Labeled, 2 Accepted by carrier, 3 Sorted, 4 In delivery, 5 At pickup point, 7 Delivered, 8 Delivery started, 10 Delivery started (1st attempt), 18 Tracked externally, 19 Returned (at warehouse), 20 At customs, 21 In transit (customs only).',
  }),
  currentTrackTraceStatusDateTime: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  currentTrackTraceExceptionLevel: Type.Integer({ description: '1 ok, 2 warning, 3 error.' }),
});

const Ids = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
    minItems: 1,
    maxItems: limits.syncIdsMax,
    description: `Shipment ids, at most ${limits.syncIdsMax}.`,
  }),
});
const OrderTypes = Type.Object({
  orderTypes: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_ID }), {
    minItems: 1,
    maxItems: limits.syncIdsMax,
    description: 'Order type ids of GET /settings/get.',
  }),
});
const forms = ['application/json', 'application/x-www-form-urlencoded'];

const exampleShipment = {
  id: 501,
  orderNumber: 1001,
  orderType: 1,
  externalOrderNumber: 'SHOP-10001',
  shippingDate: '2026-11-21T10:00:00.000Z',
  numberOfColli: 1,
  totalNumberOfProducts: 2,
  shippingMethodId: 4,
  returnPackageNumber: null,
  shippedColli: [{ colloNr: 1, packageNumber: '3SABC123', trackTraceUrl: 'https://tracking.sandbox.invalid/postnl/3SABC123' }],
  shippedProducts: [
    { sku: 'SKU-TSHIRT-M', quantity: 2, serialNrs: [], weight: 200, tht: null, extra6: null, extra7: null, lotNumber: null, parts: [] },
  ],
  basketPicURL: null,
  extra1: 'gift',
  extra2: null,
  extra3: null,
  extra4: null,
  extra5: null,
  currentTrackTraceStatus: 'labelled',
  currentTrackTraceExceptionLevel: 'success',
  warehouseAbbrevation: 'NR',
  mainShippingMethodId: 1,
};
const exampleSearchResult = {
  id: 501,
  externalOrderNumber: 'SHOP-10001',
  trackingNumber: '3SABC123',
  shippingDate: '2026-11-21T10:00:00.000Z',
  numberOfColli: 1,
  totalNumberOfProducts: 2,
  trackAndTraceCode: '3SABC123',
  trackAndTraceBarCode: '3SABC123',
  shippingMethodId: 4,
  returnPackageNumber: null,
  packageNumber: '3SABC123',
  currentTrackTraceStatus: 'labelled',
  currentTrackTraceExceptionLevel: 'success',
  warehouseAbbreviation: 'NR',
  mainShippingMethodId: 1,
  shipmentItems: [{ shipmentItemId: 9001, quantity: 2, sku: 'SKU-TSHIRT-M', lotNumber: null }],
};
const listAnswer = (description: string) =>
  okResponse(description, Type.Array(V2Shipment, { maxItems: limits.v2ShipmentListMax }), {
    message: v2Messages.shipmentsFound(1),
    result: [exampleShipment],
  });
const syncAnswers = {
  200: okResponse('Every shipment is marked synced.', Type.Null(), { message: v2Messages.requestProcessed, result: null }),
  400: badRequestResponse({ messageCode: 'NOK', message: v2Messages.idsNotFound, result: [9999] }),
};

const tags = ['Shipments'];
const deprecated = 'Deprecated: use GET /v3/shipments (webhooks tell you when shipments change).';

export const v2ShipmentOperations = [
  defineOperation({
    operationId: 'getShipmentsV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/shipment/get',
    aliases: ['/shipment/get'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Unsynced shipments',
    description: `${deprecated} Shipped shipments not yet marked synced, at most ${limits.v2ShipmentListMax}, oldest first. Mark them with POST /v2/shipment/sync, then call again for the next ones.`,
    responses: { 200: listAnswer('Up to 100 unsynced shipments.') },
  }),
  defineOperation({
    operationId: 'getLabeledShipmentsV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/shipment/get/labeled',
    aliases: ['/shipment/get/labeled'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Labeled shipments',
    description: `${deprecated} Shipments that have a label (a tracking number) and are not yet marked synced as labeled, at most ${limits.v2ShipmentListMax}. Mark them with POST /v2/shipment/sync/labeled.`,
    responses: { 200: listAnswer('Up to 100 labeled shipments.') },
  }),
  defineOperation({
    operationId: 'getShipmentsByOrderTypeV2',
    documents: ['v2'],
    method: 'POST',
    path: '/v2/shipment/byordertype',
    aliases: ['/shipment/byordertype'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Unsynced shipments of some order types',
    description: `${deprecated} As GET /v2/shipment/get, only shipments of orders of these order types.`,
    body: OrderTypes,
    bodyContentTypes: forms,
    requestExample: { orderTypes: [1, 2] },
    responses: { 200: listAnswer('Up to 100 unsynced shipments of these order types.'), 400: badRequestResponse() },
  }),
  defineOperation({
    operationId: 'getLabeledShipmentsByOrderTypeV2',
    documents: ['v2'],
    method: 'POST',
    path: '/v2/shipment/byordertype/labeled',
    aliases: ['/shipment/byordertype/labeled'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Labeled shipments of some order types',
    description: `${deprecated} As GET /v2/shipment/get/labeled, only shipments of orders of these order types.`,
    body: OrderTypes,
    bodyContentTypes: forms,
    requestExample: { orderTypes: [1, 2] },
    responses: { 200: listAnswer('Up to 100 labeled shipments of these order types.'), 400: badRequestResponse() },
  }),
  defineOperation({
    operationId: 'syncShipmentsV2',
    documents: ['v2'],
    method: 'POST',
    path: '/v2/shipment/sync',
    aliases: ['/shipment/sync'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Mark shipments synced',
    description: `${deprecated} All or nothing: if any id is unknown or another client's, no shipment is marked and the answer is NOK "${v2Messages.idsNotFound}" with the ids not found as result.`,
    body: Ids,
    bodyContentTypes: forms,
    requestExample: { ids: [501, 502] },
    responses: syncAnswers,
  }),
  defineOperation({
    operationId: 'syncLabeledShipmentsV2',
    documents: ['v2'],
    method: 'POST',
    path: '/v2/shipment/sync/labeled',
    aliases: ['/shipment/sync/labeled'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Mark labeled shipments synced',
    description: `${deprecated} As POST /v2/shipment/sync, for the labeled list.`,
    body: Ids,
    bodyContentTypes: forms,
    requestExample: { ids: [501, 502] },
    responses: syncAnswers,
  }),
  defineOperation({
    operationId: 'searchShipmentsV2',
    documents: ['v2'],
    method: 'POST',
    path: '/shipment/search',
    aliases: ['/v2/shipment/search'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Search shipments',
    description: `${deprecated} By shipment id, externalOrderNumber and/or shipping date (all optional, combined). With no criteria: the shipments of the past 24 hours. At most ${limits.v2ShipmentListMax}. A search by id or externalOrderNumber that matches nothing (also another client's shipment or order) answers HTTP 200 with messageCode NOK "${v2Messages.shipmentNotFound}" and result null, never a 404; a search by shippingDate alone, or with no criteria, is a list and answers OK, possibly with no shipments.`,
    body: Type.Object({
      id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
      externalOrderNumber: Type.Optional(Type.Union([Type.String({ maxLength: limits.externalOrderNumberMax }), Type.Null()])),
      shippingDate: Type.Optional(Type.Union([DateOnly, Type.Null()], { description: 'The day shipped.' })),
    }),
    bodyContentTypes: forms,
    requestExample: { externalOrderNumber: 'SHOP-10001' },
    responses: {
      200: foundOrNotResponse(
        'The matching shipments.',
        Type.Array(V2ShipmentSearchResult, { maxItems: limits.v2ShipmentListMax }),
        { message: v2Messages.shipmentsFound(1), result: [exampleSearchResult] },
        v2Messages.shipmentNotFound,
        'When a search by id or externalOrderNumber matches nothing',
      ),
      400: badRequestResponse(),
    },
  }),
  defineOperation({
    operationId: 'getTrackTraceStatusV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/shipment/tracktracestatus',
    aliases: ['/shipment/tracktracestatus'],
    tags,
    auth: true,
    success: 200,
    summary: 'Track-trace status of shipments on their way',
    description:
      'Tracking of every shipment not yet delivered, with the numeric track-trace codes and exception levels. Call it at most once per hour.',
    responses: {
      200: okResponse('Tracking of the shipments not yet delivered.', Type.Array(V2TrackTraceItem), {
        message: v2Messages.trackTraceFound,
        result: [
          {
            shipmentId: 501,
            externalOrderNumber: 'SHOP-10001',
            packageNumber: '3SABC123',
            shipmentMethod: 'Standard parcel',
            currentTrackTraceStatus: 1,
            currentTrackTraceStatusDateTime: '2026-11-21T10:00:00.000Z',
            currentTrackTraceExceptionLevel: 1,
          },
        ],
      }),
    },
  }),
];
