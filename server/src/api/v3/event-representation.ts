// Webhook events carry the v3 resource object exactly as GET returns it; this is the representation the composition
// root hands to the webhooks module. Links use the sandbox's public address (PUBLIC_URL, else its own host and port).
import { eq } from 'drizzle-orm';
import { schema, type Db } from '../../platform/db/index.ts';
import type { EventRepresentation } from '../../modules/webhooks/payloads.ts';
import { inboundDocuments, shipmentDocuments } from './representation/index.ts';

const { shipments, inbounds } = schema;

export function v3EventRepresentation(linkBase: string): EventRepresentation {
  const base = linkBase.replace(/\/$/, '');
  return {
    async shipment(tx, shipmentId) {
      const { data } = await shipmentDocuments(
        tx,
        tx.select({ id: shipments.id }).from(shipments).where(eq(shipments.id, shipmentId)),
        false,
        base,
      );
      return data[0];
    },
    async inbound(tx: Db, inboundId) {
      const rows = await tx.select().from(inbounds).where(eq(inbounds.id, inboundId));
      const { data } = await inboundDocuments(tx, rows, new Set(), base);
      return data[0];
    },
  };
}
