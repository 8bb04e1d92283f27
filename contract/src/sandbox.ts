// Sandbox controls: test helpers that do what the real warehouse would, authenticated as the client.
import { Type } from '@sinclair/typebox';
import { IdParams, defineOperation } from './operation.ts';
import { SingleDocument } from './jsonapi.ts';
import { Shipment, ShipmentItem } from './v3/shipments.ts';
import { Inbound, InboundItem } from './v3/inbound.ts';
import { Sku } from './formats.ts';

const tags = ['Sandbox'];

export const sandboxOperations = [
  defineOperation({
    operationId: 'sandboxShipOrder', documents: ['v3'], method: 'POST', path: '/sandbox/orders/{id}/ship', tags, auth: true, success: 201,
    summary: 'Ship an order now (sandbox)',
    description: 'Creates the shipment of everything still open on the order, with its items, and moves it to SHIPPED with tracking. Afterwards the order is fulfilled and refuses changes (422). Sandbox only.',
    params: IdParams,
    responses: { 201: { description: 'The shipment, with its items included.', schema: SingleDocument(Shipment, [ShipmentItem]) } },
    errors: ['401', '404-5', '406', '422'],
  }),
  defineOperation({
    operationId: 'sandboxReceiveInboundPackingSlip', documents: ['v3'], method: 'POST', path: '/sandbox/inboundPackingSlips/{id}/receive', tags, auth: true, success: 201,
    summary: 'Receive a packing slip now (sandbox)',
    description: 'Receives goods of the packing slip in its warehouse (`expectedIn`): an inbound goes PROCESSING → CHECKING → CHECKED with its items (lot numbers and expiration dates for products that need them), stock appears on locations with INBOUND stock mutations, the items\' `received` quantities grow, and products without weight and dimensions get them at this first receipt. Without a body everything still expected is received. With `items` you choose per sku: fewer, more than expected, or skus that are not on the slip (they must be your products; 404-1 otherwise). The packing slip becomes CHECKED when every item is fully received, else IN_PROGRESS; a CHECKED inbound completes 2 hours later on your clock, and its packing slip with it. A packing slip that is already CHECKED or COMPLETED answers 409. Sandbox only.',
    params: IdParams,
    body: Type.Object({
      items: Type.Optional(Type.Array(Type.Object({
        sku: Sku,
        quantity: Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Quantity received; 0 receives nothing of this sku.' }),
      }, { additionalProperties: false }), { description: 'Received quantities per sku; a repeated sku is summed. Default: everything still expected.' })),
    }, { additionalProperties: false }),
    requestExample: { items: [{ sku: 'SKU-TSHIRT-M', quantity: 90 }, { sku: 'SKU-MUG', quantity: 30 }] },
    responses: { 201: { description: 'The new inbound, with its items included.', schema: SingleDocument(Inbound, [InboundItem]) } },
    errors: ['400', '401', '404', '404-1', '406', '409', '415'],
  }),
];

export { Type };
