// The `data` of webhook events: the v3 resource object exactly as GET returns it at the moment of the event.
import { asc, eq } from 'drizzle-orm';
import { schema, type Db } from '../../db/index.ts';
import { inboundResource } from '../../v3/resources.ts';
import { shipmentDocuments } from '../../v3/json-documents.ts';
import type { Client } from '../clients/client.ts';
import { emitEvent } from './outbox.ts';

const { shipments, inbounds, inboundItems } = schema;

// Events are written by the warehouse, outside any request, so their links use the sandbox's public address,
// which the app sets once from its configuration (PUBLIC_URL, else its own host and port).
let linkBase = 'http://127.0.0.1:8080';
export function setEventLinkBase(base: string) {
  linkBase = base.replace(/\/$/, '');
}

/** Emits a shipment event with the shipment as it is now in this transaction. */
export async function emitShipmentEvent(tx: Db, client: Client, shipmentId: number, type: string, occurredOn: Date): Promise<void> {
  const {
    data: [shipment],
  } = await shipmentDocuments(tx, tx.select({ id: shipments.id }).from(shipments).where(eq(shipments.id, shipmentId)), false, linkBase);
  await emitEvent(tx, client.id, { type, entity: 'shipment', entityId: shipmentId, occurredOn, data: shipment });
}

/** Emits an inbound event with the inbound as it is now in this transaction. */
export async function emitInboundEvent(
  tx: Db,
  client: Pick<Client, 'id'>,
  inboundId: number,
  type: string,
  occurredOn: Date,
): Promise<void> {
  const [row] = await tx.select().from(inbounds).where(eq(inbounds.id, inboundId));
  const items = await tx
    .select({ id: inboundItems.id })
    .from(inboundItems)
    .where(eq(inboundItems.inboundId, inboundId))
    .orderBy(asc(inboundItems.id));
  await emitEvent(tx, client.id, {
    type,
    entity: 'inbound',
    entityId: inboundId,
    occurredOn,
    data: inboundResource(
      row,
      items.map((i) => i.id),
      linkBase,
    ),
  });
}
