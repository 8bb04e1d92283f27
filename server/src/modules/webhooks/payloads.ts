// The `data` of webhook events: the resource as the API shows it at the moment of the event. The module does not know
// that shape; the composition root hands it a representation (the v3 one) at start-up.
import type { Tx } from '../../platform/db/index.ts';
import type { Client } from '../clients/client.ts';
import { emitEvent } from './outbox.ts';

/** Makes an event's `data` from the rows as they are in the transaction that emits it. */
export interface EventRepresentation {
  shipment(tx: Tx, shipmentId: number): Promise<Record<string, unknown>>;
  inbound(tx: Tx, inboundId: number): Promise<Record<string, unknown>>;
}

let representation: EventRepresentation | undefined;

/** Called once by the composition root: events are written by the warehouse, outside any request. */
export function useEventRepresentation(port: EventRepresentation): void {
  representation = port;
}

function represent(): EventRepresentation {
  if (!representation) throw new Error('No event representation: the app hands one to the webhooks module at start-up.');
  return representation;
}

/** Emits a shipment event with the shipment as it is now in this transaction. */
export async function emitShipmentEvent(tx: Tx, client: Client, shipmentId: number, type: string, occurredOn: Date): Promise<void> {
  const data = await represent().shipment(tx, shipmentId);
  await emitEvent(tx, client.id, { type, entity: 'shipment', entityId: shipmentId, occurredOn, data });
}

/** Emits an inbound event with the inbound as it is now in this transaction. */
export async function emitInboundEvent(
  tx: Tx,
  client: Pick<Client, 'id'>,
  inboundId: number,
  type: string,
  occurredOn: Date,
): Promise<void> {
  const data = await represent().inbound(tx, inboundId);
  await emitEvent(tx, client.id, { type, entity: 'inbound', entityId: inboundId, occurredOn, data });
}
