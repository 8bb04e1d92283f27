// Webhook events carry the v3 resource object exactly as GET returns it; this is the representation the composition
// root hands to the webhooks module. Links use the sandbox's public address (PUBLIC_URL, else its own host and port).
import { asc, eq } from 'drizzle-orm';
import { schema, type Db } from '../../platform/db/index.ts';
import type { EventRepresentation } from '../../modules/webhooks/payloads.ts';
import { shipmentDocuments } from './json-documents.ts';
import { inboundResource } from './resources.ts';

const { shipments, inbounds, inboundItems } = schema;

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
      const [row] = await tx.select().from(inbounds).where(eq(inbounds.id, inboundId));
      const items = await tx
        .select({ id: inboundItems.id })
        .from(inboundItems)
        .where(eq(inboundItems.inboundId, inboundId))
        .orderBy(asc(inboundItems.id));
      return inboundResource(
        row,
        items.map((i) => i.id),
        base,
      );
    },
  };
}
