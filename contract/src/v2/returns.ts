// v2 returns: register an RMA for a shipment, fetch a return label (PDF, base64), read processed return items.
import { Type } from '@sinclair/typebox';
import { limits } from '../limits.ts';
import { v2Messages } from '../errors.ts';
import { DateTime } from '../formats.ts';
import { defineOperation } from '../operation.ts';
import { badRequestResponse, nullableInteger, nullableString, okResponse } from './common.ts';
import { MAX_ID } from '../jsonapi.ts';

const forms = ['application/json', 'application/x-www-form-urlencoded'];
const optionalText = (max: number) => Type.Optional(Type.Union([Type.String({ maxLength: max }), Type.Null()]));

export const V2RmaAdd = Type.Object({
  shipmentId: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ID,
      description:
        'The shipment the goods came with. Required, with rmaItems, unless the deprecated ExternalOrderNumber and ApiRmaNotificationItemViewModels are sent instead.',
    }),
  ),
  remark: optionalText(500),
  externalReference: optionalText(100),
  rmaItems: Type.Optional(
    Type.Array(
      Type.Object({
        shipmentItemId: Type.Integer({ minimum: 1, description: 'shipmentItems[].shipmentItemId of POST /shipment/search.' }),
        quantity: Type.Integer({ minimum: 1 }),
        returnReasonId: Type.Integer({ description: 'A return reason id of GET /settings/get.' }),
        externalReference: optionalText(100),
        metadata: Type.Optional(
          Type.Union(
            [
              Type.Record(Type.String(), Type.String({ maxLength: limits.metadataExtraMax }), { maxProperties: limits.v2MetadataPairsMax }),
              Type.Null(),
            ],
            { description: `Your own string pairs, at most ${limits.v2MetadataPairsMax}.` },
          ),
        ),
      }),
      {
        minItems: 1,
        maxItems: limits.v2ReturnItemsMax,
        description: 'The goods coming back. Required, with shipmentId, unless the deprecated fields are sent instead.',
      },
    ),
  ),
  externalOrderNumber: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: limits.externalOrderNumberMax }), Type.Null()], {
      deprecated: true,
      description:
        'Deprecated (older integrations): the order the goods came with, instead of shipmentId. Send it with ApiRmaNotificationItemViewModels.',
    }),
  ),
  apiRmaNotificationItemViewModels: Type.Optional(
    Type.Array(
      Type.Object({
        productSku: Type.String({ minLength: 1, maxLength: limits.skuMax }),
        quantity: Type.Integer({ minimum: 1, maximum: 100000 }),
        isDamaged: Type.Optional(
          Type.Union([Type.Boolean(), Type.Literal(0), Type.Literal(1), Type.Null()], {
            description:
              'true or 1: the goods come back damaged, with the return reason DAMAGED of GET /settings/get; otherwise without a reason.',
          }),
        ),
      }),
      {
        minItems: 1,
        maxItems: limits.v2ReturnItemsMax,
        deprecated: true,
        description:
          'Deprecated (older integrations): the goods coming back by sku, instead of rmaItems; form bodies name them ApiRmaNotificationItemViewModels[0][ProductSku]. ' +
          "An RMA is for one shipment: it goes to the one shipped shipment of the order that carries every sku listed, and the quantity of a line is spread over that shipment's items with its sku. " +
          'NOK, with nothing registered, when the order is unknown, a sku was not shipped for the order, no single shipment carries every sku, or several shipments do (the message names the shipments per sku); ' +
          'register such a return with shipmentId and rmaItems.',
      },
    ),
  ),
});

export const V2ReturnLabel = Type.Object({
  data: Type.String({ contentEncoding: 'base64', description: 'The PDF label, base64.' }),
  mimeType: Type.Literal('application/pdf'),
  fileName: Type.String(),
  shipmentItemId: nullableInteger,
  packageNumber: Type.String({ description: "The return parcel's tracking number." }),
  isPaperlessReturnShippingMethod: Type.Boolean(),
});

export const V2ReturnItem = Type.Object({
  id: Type.Integer(),
  returnDate: Type.String({ format: 'date-time', description: 'When the warehouse processed the item.' }),
  externalOrderNumber: Type.String(),
  sku: Type.String(),
  quantity: Type.Integer(),
  type: Type.String({ description: 'The condition found: RETURN (restockable), DAMAGED or UNKNOWN.' }),
  returnReasonId: nullableInteger,
  returnReason: nullableString,
  comment: nullableString,
  afterCare: nullableString,
  porti: Type.Union([Type.Number(), Type.Null()], { description: 'Return postage; not charged in the sandbox (null).' }),
  returnShippingMethod: nullableString,
  returnShippingMethodId: nullableInteger,
  reDeliver: Type.Boolean({ default: false }),
  orderType: Type.Integer({ description: 'Order type id.' }),
  warehouseAbbreviation: nullableString,
  processedByWarehouseAbbreviation: nullableString,
  rmaExternalReference: nullableString,
  rmaItemExternalReference: nullableString,
  rmaItemMetadata: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
});

const LabelParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Shipment id.' }) });
const labelExample = {
  data: 'JVBERi0xLjcK...',
  mimeType: 'application/pdf',
  fileName: 'return-label-501.pdf',
  shipmentItemId: 9001,
  packageNumber: '3SRET000000501',
  isPaperlessReturnShippingMethod: false,
};
const labelDescription = 'A printable return label (PDF, base64) for a shipped shipment, addressed to the warehouse it came from.';
const notFound = { description: "No shipped shipment with this id (or it is another client's), or no such return shipping method." };
const tags = ['Returns'];

export const v2ReturnOperations = [
  defineOperation({
    operationId: 'addRmaV2',
    documents: ['v2'],
    method: 'POST',
    path: '/v2/rma/add',
    aliases: ['/rma/add'],
    tags,
    auth: true,
    success: 200,
    summary: 'Register a return (RMA)',
    description:
      'Announces goods of a shipment coming back: each item names a shipment item, a quantity up to the shipped quantity, and a return reason. The result is the new RMA id. Older integrations may send the deprecated ExternalOrderNumber with ApiRmaNotificationItemViewModels (ProductSku, Quantity, IsDamaged) instead of shipmentId and rmaItems; see those fields for how they are matched to the shipment; a `Sandbox-Warning` header then names the documented fields to use. The warehouse books the goods when they arrive; they then appear in the return items.',
    body: V2RmaAdd,
    bodyContentTypes: forms,
    requestExample: {
      shipmentId: 501,
      remark: 'Too small',
      externalReference: 'RET-1',
      rmaItems: [{ shipmentItemId: 9001, quantity: 1, returnReasonId: 1, metadata: { ticket: '42' } }],
    },
    responses: {
      200: okResponse('The RMA was registered.', Type.Integer(), { message: v2Messages.rmaCreated, result: 77 }),
      400: badRequestResponse({ messageCode: 'NOK', message: 'Shipment item 9002 is not part of shipment 501.', result: null }),
    },
  }),
  defineOperation({
    operationId: 'getReturnLabelV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/returnlabel/get/{id}',
    aliases: ['/returnlabel/get/{id}'],
    tags,
    auth: true,
    success: 200,
    summary: 'Get a return label',
    description: `${labelDescription} Uses your first return shipping method.`,
    params: LabelParams,
    responses: {
      200: okResponse('The label.', V2ReturnLabel, { message: v2Messages.returnLabelFound, result: labelExample }),
      404: notFound,
    },
  }),
  defineOperation({
    operationId: 'getReturnLabelWithMethodV2',
    documents: ['v2'],
    method: 'GET',
    path: '/v2/returnlabel/get/{id}/{sm}',
    aliases: ['/returnlabel/get/{id}/{sm}'],
    tags,
    auth: true,
    success: 200,
    summary: 'Get a return label for a return shipping method',
    description: `${labelDescription} sm is a return shipping method id of GET /settings/get.`,
    params: Type.Object({
      ...LabelParams.properties,
      sm: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Return shipping method id.' }),
    }),
    responses: {
      200: okResponse('The label.', V2ReturnLabel, { message: v2Messages.returnLabelFound, result: labelExample }),
      404: notFound,
    },
  }),
  defineOperation({
    operationId: 'getReturnItemsV2',
    documents: ['v2'],
    method: 'POST',
    path: '/v2/returnitem/get',
    aliases: ['/returnitem/get'],
    tags,
    auth: true,
    success: 200,
    deprecated: true,
    summary: 'Read processed return items',
    description: `Deprecated: use GET /v3/returnItems. Return items the warehouse processed, optionally of one order and between Starttime and Endtime (processing time), oldest first, at most ${limits.v2ReturnItemsMax} per call.`,
    body: Type.Object({
      externalOrderNumber: optionalText(limits.externalOrderNumberMax),
      starttime: Type.Optional(Type.Union([DateTime, Type.Null()])),
      endtime: Type.Optional(Type.Union([DateTime, Type.Null()])),
    }),
    bodyContentTypes: ['application/x-www-form-urlencoded', 'application/json'],
    requestExample: { externalOrderNumber: 'SHOP-10001', starttime: '2026-11-01T00:00:00Z', endtime: '2026-11-30T00:00:00Z' },
    responses: {
      200: okResponse('The return items.', Type.Array(V2ReturnItem, { maxItems: limits.v2ReturnItemsMax }), {
        message: v2Messages.requestProcessed,
        result: [],
      }),
      400: badRequestResponse(),
    },
  }),
];
