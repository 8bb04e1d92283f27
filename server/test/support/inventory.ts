// Helpers for the warehouse-side tests: products with stock received through the sandbox, and the domain's Client of a test client.
import { eq } from 'drizzle-orm';
import { schema } from '../../src/platform/db/index.ts';
import type { Client } from '../../src/modules/clients/client.ts';
import type { TestClient, TestSandbox } from './sandbox.ts';
import { uniqueNumber } from './fixtures.ts';

/** Announces a packing slip and returns its id. */
export async function announce(sb: TestSandbox, client: TestClient, items: { sku: string; quantity: number }[], expectedIn = 'NR') {
  const answer = await sb.call('POST', '/v3/inboundPackingSlips', {
    token: client.token,
    body: {
      data: { type: 'inboundPackingSlip', attributes: { expectedIn, reference: uniqueNumber('PS') } },
      included: items.map((attributes) => ({ type: 'inboundPackingSlipItem', attributes })),
    },
  });
  if (answer.status !== 201) throw new Error(`packing slip: ${answer.raw}`);
  return answer.body.data.id as number;
}

/** Announces and receives goods at once (optionally fewer than announced); returns the inbound. */
export async function receiveGoods(
  sb: TestSandbox,
  client: TestClient,
  items: { sku: string; quantity: number }[],
  opts: { expectedIn?: string; received?: { sku: string; quantity: number }[] } = {},
) {
  const slipId = await announce(sb, client, items, opts.expectedIn);
  const answer = await sb.call('POST', `/sandbox/inboundPackingSlips/${slipId}/receive`, {
    token: client.token,
    body: opts.received ? { items: opts.received } : undefined,
  });
  if (answer.status !== 201) throw new Error(`receive: ${answer.raw}`);
  return { slipId, inbound: answer.body.data, items: answer.body.included };
}

/** The domain's view of a test client (for calling domain services directly). */
export async function domainClient(sb: TestSandbox, client: TestClient): Promise<Client> {
  const [row] = await sb.database.db.select().from(schema.clients).where(eq(schema.clients.id, client.id));
  return { id: row.id, username: row.username, defaultWarehouse: row.defaultWarehouse, clockOffsetSeconds: row.clockOffsetSeconds };
}
