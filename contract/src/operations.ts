// Every operation of the API, in one list: the server routes from it and the OpenAPI documents are built from it.
import { Type } from '@sinclair/typebox';
import { errorStyle, type Operation } from './operation.ts';
import { authOperations } from './settings.ts';
import { orderOperations } from './v3/orders.ts';
import { shipmentOperations } from './v3/shipments.ts';
import { productOperations } from './v3/products.ts';
import { webhookOperations } from './v3/webhooks.ts';
import { referenceCollectionOperations } from './v3/reference-collections.ts';
import { sandboxOperations, scenarioOperations } from './sandbox.ts';
import { sandboxSettingsOperations } from './sandbox-settings.ts';
import { sandboxRequestOperations } from './sandbox-requests.ts';
import { webhookDeliveryOperations } from './v3/webhook-deliveries.ts';
import { stockOperations } from './v3/inventory.ts';
import { inboundOperations } from './v3/inbound.ts';
import { returnOperations } from './v3/returns.ts';
import { v2OrderOperations } from './v2/orders.ts';
import { v2ShipmentOperations } from './v2/shipments.ts';
import { v2ReturnOperations } from './v2/returns.ts';
import { v2ProductOperations } from './v2/products.ts';
import { v2StockOperations } from './v2/stock.ts';
import { v2PurchaseOrderOperations } from './v2/purchase-orders.ts';

/**
 * v3 and sandbox calls answer a query parameter they do not know with 400 (JSON:API asks for it): a misspelt filter
 * that were dropped would answer everything, and the client would believe it filtered. v2 stays lenient. Done here,
 * once for the whole list, so no operation can forget it; an operation without query parameters refuses any.
 */
function strictQuery(op: Operation): Operation {
  if (errorStyle(op) !== 'jsonapi') return op;
  return { ...op, query: Type.Object({ ...op.query?.properties }, { additionalProperties: false }) };
}

const declared = [
  ...authOperations,
  ...orderOperations,
  ...shipmentOperations,
  ...productOperations,
  ...webhookOperations,
  ...referenceCollectionOperations,
  ...stockOperations,
  ...inboundOperations,
  ...returnOperations,
  ...sandboxOperations,
  ...sandboxSettingsOperations,
  ...sandboxRequestOperations,
  ...webhookDeliveryOperations,
  ...v2OrderOperations,
  ...v2ShipmentOperations,
  ...v2ReturnOperations,
  ...v2ProductOperations,
  ...v2StockOperations,
  ...v2PurchaseOrderOperations,
  ...scenarioOperations,
];

export const operations: Operation[] = declared.map(strictQuery);

/** Every operation with its own static type: its id and schemas (strictQuery changes no static type). */
export type ContractOperation = (typeof declared)[number];
export type OperationId = ContractOperation['operationId'];
export type OperationOf<Id extends OperationId> = Extract<ContractOperation, { operationId: Id }>;

export function operationById(operationId: string): Operation {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`Unknown operation ${operationId}`);
  return op;
}
