// The `data` of webhook events: the resource as the API shows it at the moment of the event. The module does not know
// that shape: the port below is made by the representation (representation/events.ts), built once per app by
// composeServices (app.ts) and handed down as a parameter to whatever emits an event.
import type { Tx } from '../../platform/db/index.ts';
import { emitEvent } from './outbox.ts';

/** Makes an event's `data` from the rows as they are in the transaction that emits it. */
export interface EventPayloads {
  shipment(tx: Tx, shipmentId: number): Promise<Record<string, unknown>>;
  inbound(tx: Tx, inboundId: number): Promise<Record<string, unknown>>;
}

/** Emits a shipment event with the shipment as it is now in this transaction. */
export async function emitShipmentEvent(
  tx: Tx,
  payloads: EventPayloads,
  clientId: number,
  shipmentId: number,
  type: string,
  occurredOn: Date,
): Promise<void> {
  const data = await payloads.shipment(tx, shipmentId);
  await emitEvent(tx, clientId, { type, entity: 'shipment', entityId: shipmentId, occurredOn, data });
}

/** Emits an inbound event with the inbound as it is now in this transaction. */
export async function emitInboundEvent(
  tx: Tx,
  payloads: EventPayloads,
  clientId: number,
  inboundId: number,
  type: string,
  occurredOn: Date,
): Promise<void> {
  const data = await payloads.inbound(tx, inboundId);
  await emitEvent(tx, clientId, { type, entity: 'inbound', entityId: inboundId, occurredOn, data });
}
