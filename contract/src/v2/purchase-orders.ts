// v2 purchase orders: add, edit and delete the goods you announce (the v3 inbound packing slips), by colour.
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import { limits } from '../limits.ts';
import { V2NokBody, v2Messages } from '../errors.ts';
import { DateOnly, DateTime } from '../formats.ts';
import { defineOperation, type ResponseSpec } from '../operation.ts';
import { okResponse, V2BadRequestBody, v2BadRequest, warehouseIdDescription } from './common.ts';
import { MAX_ID } from '../jsonapi.ts';

export const purchaseOrderErrors = {
  notFound: 'PurchaseOrder ID not found.',
  completed: 'PurchaseOrder is already completed.',
  skuNotFound: 'SKU not found',
} as const;

const Reference = Type.String({ minLength: 1, maxLength: 100, description: 'Your reference; unique among your purchase orders.' });
const Comment = Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]));
const ExpectedDate = Type.Optional(Type.Union([DateTime, Type.Null()]));
const PurchaseOrderId = Type.Integer({
  minimum: 1,
  maximum: MAX_ID,
  description: 'The id POST /purchaseorder/add answered (the v3 inbound packing slip id).',
});
const Item = Type.Object({
  sku: Type.String({ minLength: 1, maxLength: limits.skuMax }),
  quantity: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  expectedDate: ExpectedDate,
});

/**
 * The item list older integrations send, ApiPurchaseOrderItemViewModels[0][Sku|Quantity|ExpectedDeliveryDate]: a deprecated alias of
 * purchaseOrderItems, declared here so validation bounds it like the documented list.
 */
const legacyItems = <T extends TProperties>(item: TObject<T>, minItems = 0) =>
  Type.Optional(
    Type.Array(
      Type.Object({
        ...item.properties,
        expectedDeliveryDate: Type.Optional(
          Type.Union([DateOnly, DateTime, Type.Null()], {
            deprecated: true,
            description: 'Deprecated alias of expectedDate; a date is enough.',
          }),
        ),
      }),
      {
        minItems,
        maxItems: limits.packingSlipItemsMax,
        deprecated: true,
        description:
          'Deprecated (older integrations): the same list as purchaseOrderItems, with ExpectedDeliveryDate for expectedDate; form bodies name it ApiPurchaseOrderItemViewModels[0][Sku]. Send one of the two lists, not both.',
      },
    ),
  );
const AddItem = Type.Object({ ...Item.properties, quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });

export const V2PurchaseOrderAdd = Type.Object({
  reference: Reference,
  comment: Comment,
  expectedDate: ExpectedDate,
  warehouseId: Type.Optional(
    Type.Union([
      Type.Integer({ minimum: 1, maximum: 6, description: `${warehouseIdDescription} Default: your default warehouse.` }),
      Type.Null(),
    ]),
  ),
  purchaseOrderItems: Type.Optional(
    Type.Array(AddItem, {
      minItems: 1,
      maxItems: limits.packingSlipItemsMax,
      description: 'Required (or its deprecated alias ApiPurchaseOrderItemViewModels).',
    }),
  ),
  apiPurchaseOrderItemViewModels: legacyItems(AddItem, 1),
});

export const V2PurchaseOrderEdit = Type.Object({
  purchaseOrderId: PurchaseOrderId,
  reference: Type.Optional(Type.Union([Reference, Type.Null()])),
  comment: Comment,
  expectedDate: ExpectedDate,
  purchaseOrderItems: Type.Optional(
    Type.Union([
      Type.Array(Item, {
        maxItems: limits.packingSlipItemsMax,
        description: 'A sku on the order gets this quantity (0 deletes it); another sku is added.',
      }),
      Type.Null(),
    ]),
  ),
  apiPurchaseOrderItemViewModels: legacyItems(Item),
});

export const V2PurchaseOrderDelete = Type.Object({
  purchaseOrderId: PurchaseOrderId,
  purchaseOrderItems: Type.Optional(
    Type.Union([
      Type.Array(Type.Object({ sku: Type.String({ minLength: 1, maxLength: limits.skuMax }) }), {
        maxItems: limits.packingSlipItemsMax,
        description: 'Delete only these items; without them, the whole order.',
      }),
      Type.Null(),
    ]),
  ),
});

/** Every failure of a purchase-order call is a NOK with HTTP 400 (v2 spec section 8). */
const failures: ResponseSpec = {
  description: [
    `"${v2Messages.purchaseOrderValidation}" with the field problems as result (a missing reference, an expected date that is not a date-time: "The value '…' is not valid for ExpectedDate.", a change the order's colour does not allow);`,
    `"${v2Messages.purchaseOrderFailed}" with result {PurchaseOrderId, PurchaseOrderError: "${purchaseOrderErrors.notFound}" or "${purchaseOrderErrors.completed}"};`,
    `"${v2Messages.purchaseOrderPartial}" with result {PurchaseOrderId, PurchaseOrderItemsErrors: [{SKU, Status: "NOK", Message: "${purchaseOrderErrors.skuNotFound}"}]}. Nothing is written when the answer is NOK.`,
    `A body that cannot be read at all answers \`${JSON.stringify(v2BadRequest)}\`.`,
  ].join(' '),
  schema: Type.Union([V2NokBody, V2BadRequestBody]),
  contentType: 'application/json',
  example: {
    messageCode: 'NOK',
    message: v2Messages.purchaseOrderFailed,
    result: { PurchaseOrderId: 301, PurchaseOrderError: purchaseOrderErrors.completed },
  },
};

const forms = ['application/json', 'application/x-www-form-urlencoded'];
const tags = ['Purchase orders'];
const colours =
  'Red (nothing received yet): reference, comment and expected date can change, items can change, go and be added, the whole order can be deleted. ' +
  'Yellow (partly received): only reference and comment change; an item quantity may not go below what was received; a deleted item with received goods keeps the received quantity; items can be added. ' +
  'Green (everything received, or completed): no changes.';

export const v2PurchaseOrderOperations = [
  defineOperation({
    operationId: 'addPurchaseOrder',
    documents: ['v2'],
    method: 'POST',
    path: '/purchaseorder/add',
    aliases: ['/v2/purchaseorder/add'],
    tags,
    auth: true,
    success: 200,
    summary: 'Announce goods (add a purchase order)',
    description:
      'The purchase order is the inbound packing slip of /v3/inboundPackingSlips. reference and at least one item are required; each item needs a sku of yours and a whole quantity. Older integrations may name the item list ApiPurchaseOrderItemViewModels (deprecated, the same items; a `Sandbox-Warning` header says so), but not send both lists. The result is the new purchase order id.',
    body: V2PurchaseOrderAdd,
    bodyContentTypes: forms,
    requestExample: {
      reference: 'PO-2026-0042',
      comment: 'Autumn collection',
      expectedDate: '2026-11-24T08:00:00Z',
      warehouseId: 1,
      purchaseOrderItems: [{ sku: 'SKU-TSHIRT-M', quantity: 100 }],
    },
    responses: {
      200: okResponse('The purchase order was added.', Type.Integer(), { message: v2Messages.purchaseOrderAdded, result: 301 }),
      400: failures,
    },
  }),
  defineOperation({
    operationId: 'editPurchaseOrder',
    documents: ['v2'],
    method: 'POST',
    path: '/purchaseorder/edit',
    aliases: ['/v2/purchaseorder/edit'],
    tags,
    auth: true,
    success: 200,
    summary: 'Change a purchase order',
    description: `Fields left out keep their value. ${colours} The item list may also come as the deprecated ApiPurchaseOrderItemViewModels, as on add. The result is the purchase order id.`,
    body: V2PurchaseOrderEdit,
    bodyContentTypes: forms,
    requestExample: { purchaseOrderId: 301, comment: 'Two pallets', purchaseOrderItems: [{ sku: 'SKU-TSHIRT-M', quantity: 120 }] },
    responses: {
      200: okResponse('The purchase order was changed.', Type.Integer(), { message: v2Messages.purchaseOrderProcessed, result: 301 }),
      400: failures,
    },
  }),
  defineOperation({
    operationId: 'deletePurchaseOrder',
    documents: ['v2'],
    method: 'POST',
    path: '/purchaseorder/delete',
    aliases: ['/v2/purchaseorder/delete'],
    tags,
    auth: true,
    success: 200,
    summary: 'Delete a purchase order or some of its items',
    description: `Red: the order (or the items named) is deleted. Yellow: the order is set to what was received and completed; a named item without received goods is deleted, one with received goods keeps the received quantity. Green: nothing can be deleted. The result is the purchase order id.`,
    body: V2PurchaseOrderDelete,
    bodyContentTypes: forms,
    requestExample: { purchaseOrderId: 301, purchaseOrderItems: [{ sku: 'SKU-TSHIRT-M' }] },
    responses: {
      200: okResponse('The purchase order (or its items) was deleted.', Type.Integer(), {
        message: v2Messages.purchaseOrderDeleted,
        result: 301,
      }),
      400: failures,
    },
  }),
];
