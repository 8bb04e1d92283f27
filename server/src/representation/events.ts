// Webhook events carry the v3 resource object exactly as GET returns it: the event payload port of the webhooks
// module, built once per app by the composition root (composeServices in app.ts). Links use the sandbox's public address (PUBLIC_URL, else its own host and port).
import { eq } from 'drizzle-orm';
import { schema, type Db } from '../platform/db/index.ts';
import type { EventPayloads } from '../modules/webhooks/payloads.ts';
import { inboundDocuments } from './inbounds.ts';
import { shipmentDocuments } from './shipments.ts';

const { shipments, inbounds } = schema;

export function eventPayloads(linkBase: string): EventPayloads {
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
