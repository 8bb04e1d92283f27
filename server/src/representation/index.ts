// The v3 representation: one module per resource type, each the only place that type's resource object is made.
//
// Every module has the type's mapper (`<type>Resource`: a row and the ids it points to → the resource object) and,
// where a resource needs more than its row, `<type>Documents`: a selection → the resource objects (and includes) in a
// fixed number of queries. The selection is what the module service selected: for orders, order items, addresses,
// pick-up points, shipments and shipment items an SQL query of ids, which the SQL fast path (sql.ts) turns into the
// JSON text of the whole page in one statement (those six types are each one description, description.ts, from which
// both their mapper and their SQL come; server/test/representation.test.ts holds the two equal on real rows); for the
// other types the rows the service read, so no list or create answer costs a query more.
export { documentBody } from './sql.ts';
export { eventPayloads } from './events.ts';
export { documentsOutOfStep, installStoredJson, placementJson } from './stored.ts';
export { addressDocuments } from './addresses.ts';
export { clockResource } from './clocks.ts';
export { inboundItemResource } from './inbound-items.ts';
export { packingSlipItemResource } from './inbound-packing-slip-items.ts';
export { packingSlipDocuments } from './inbound-packing-slips.ts';
export { inboundDocuments } from './inbounds.ts';
export { orderAttachmentResource } from './order-attachments.ts';
export { orderItemDocuments } from './order-items.ts';
export { createdOrderBody, orderDocuments, orderPageText } from './orders.ts';
export { pickUpPointDocuments } from './pick-up-points.ts';
export { productDocuments } from './products.ts';
export { returnItemResource } from './return-items.ts';
export { returnReasonResource } from './return-reasons.ts';
export { sandboxRequestResource } from './sandbox-requests.ts';
export { sandboxSettingsResource } from './sandbox-settings.ts';
export { shipmentItemDocuments } from './shipment-items.ts';
export { shipmentDocuments, shipmentPageText } from './shipments.ts';
export { shippingMethodResource } from './shipping-methods.ts';
export { stockLevelResource } from './stock-levels.ts';
export { stockLocationResource } from './stock-locations.ts';
export { stockMutationResource } from './stock-mutations.ts';
export { stockDocuments } from './stock.ts';
export { webhookDeliveryResource } from './webhook-deliveries.ts';
export { webhookResource } from './webhooks.ts';
