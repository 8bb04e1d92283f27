// The retention window hides old shipments from the API's reads only: the warehouse still moves them and the sandbox
// controls still reach them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import type { Client } from '../src/modules/clients/client.ts';
import { findShipment, requireShipment } from '../src/modules/shipments/service.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { orderDocument, uniqueNumber } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;
const step = 30;

const call = (method: string, url: string, body?: unknown) => sb.call(method, url, { token: client.token, body });

/** The client as the services take it, with its clock as it is now. */
async function asClient(): Promise<Client> {
  const [row] = await sb.database.db.select().from(schema.clients).where(eq(schema.clients.id, client.id));
  return { id: row.id, username: row.username, defaultWarehouse: row.defaultWarehouse, clockOffsetSeconds: row.clockOffsetSeconds };
}

beforeAll(async () => {
  sb = await startSandbox({ sandboxStepSeconds: step });
  client = await sb.newClient();
  const product = await call('POST', '/v3/products', { data: { type: 'product', attributes: { sku: 'KEPT', name: 'Kept' } } });
  expect(product.status, product.raw).toBe(201);
});
afterAll(async () => {
  await sb.close();
});

describe('shipments past the retention window', () => {
  it('are hidden from reads, yet the warehouse moves them and the sandbox can still return their goods', async () => {
    const order = await call(
      'POST',
      '/v3/orders',
      orderDocument(client, { externalOrderNumber: uniqueNumber('RET'), items: [{ sku: 'KEPT', quantity: 1 }] }),
    );
    expect(order.status, order.raw).toBe(201);
    const shipped = await call('POST', `/sandbox/orders/${order.body.data.id}/ship`);
    expect(shipped.status, shipped.raw).toBe(201);
    const shipmentId = Number(shipped.body.data.id);
    const before = await requireShipment(sb.database.db, await asClient(), shipmentId);
    expect(before.tracking?.stage).toBe('LABELLED');

    // The tracking moves fall due one step apart; the clock jumps past the window at once, so they run on a shipment
    // that is already past it.
    const advanced = await call('POST', '/sandbox/clock/advance', { seconds: (limits.shipmentRetentionDays + 1) * 86_400 });
    expect(advanced.status, advanced.raw).toBe(200);
    const now = await asClient();
    expect((await call('GET', `/v3/shipments/${shipmentId}`)).status).toBe(404);
    expect(await findShipment(sb.database.db, now, shipmentId)).toBeUndefined();
    await expect(requireShipment(sb.database.db, now, shipmentId)).rejects.toThrow(`Shipment ${shipmentId} not found.`);
    const kept = await requireShipment(sb.database.db, now, shipmentId, { pastRetention: true });
    expect(kept.tracking?.stage).toBe('DELIVERED');

    const returned = await call('POST', `/sandbox/shipments/${shipmentId}/return`, {
      items: [{ sku: 'KEPT', quantity: 1, condition: 'RETURN' }],
    });
    expect(returned.status, returned.raw).toBe(201);
  });

  it('belong to their client only, whatever the window', async () => {
    const other = await sb.newClient();
    const [row] = await sb.database.db.select().from(schema.clients).where(eq(schema.clients.id, other.id));
    const [mine] = await sb.database.db
      .select({ id: schema.shipments.id })
      .from(schema.shipments)
      .where(eq(schema.shipments.clientId, client.id));
    const otherClient: Client = { id: row.id, username: row.username, defaultWarehouse: row.defaultWarehouse, clockOffsetSeconds: 0 };
    expect(await findShipment(sb.database.db, otherClient, mine.id, { pastRetention: true })).toBeUndefined();
  });
});
