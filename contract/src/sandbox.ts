// Sandbox controls: test helpers that do what the real warehouse would, authenticated as the client.
import { Type } from '@sinclair/typebox';
import { IdParams, defineOperation } from './operation.ts';
import { SingleDocument } from './jsonapi.ts';
import { Shipment, ShipmentItem } from './v3/shipments.ts';

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
];

export { Type };
