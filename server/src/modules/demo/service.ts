// The demo client's starting stock: a few products received into a warehouse when `npm start` creates the client, so
// the reference's examples work as sent on a fresh sandbox ("Create an order" names a product that can ship).
import type { Db } from '../../platform/db/index.ts';
import type { Client } from '../clients/client.ts';
import type { EventPayloads } from '../webhooks/payloads.ts';
import { createPackingSlip, receivePackingSlip } from '../inbound/service.ts';
import { createProduct } from '../products/service.ts';

/** The createOrder example of the contract orders SKU-TSHIRT-L; the createProduct example creates SKU-TSHIRT-M, not one of these. */
export const demoProducts = [
  { sku: 'SKU-TSHIRT-L', name: 'T-shirt, size L', quantity: 100 },
  { sku: 'SKU-HOODIE-M', name: 'Hoodie, size M', quantity: 50 },
  { sku: 'SKU-MUG', name: 'Mug, white', quantity: 25 },
] as const;

/** Creates the demo products and receives their stock in Roosendaal (NR) through a packing slip, as the warehouse would. */
export async function createDemoProducts(db: Db, payloads: EventPayloads, client: Client): Promise<void> {
  for (const { sku, name } of demoProducts) await createProduct(db, client.id, { sku, name });
  const slipId = await createPackingSlip(db, client, {
    expectedIn: 'NR',
    reference: 'DEMO-STARTING-STOCK',
    items: demoProducts.map(({ sku, quantity }) => ({ sku, quantity })),
  });
  await receivePackingSlip(db, payloads, client, slipId);
}
