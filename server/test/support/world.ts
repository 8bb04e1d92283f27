// One of every resource for a client, made through the API, and the path parameters that name them.
// Generated tests (bad input, object-level authorization) use it for every operation of the contract:
// an operation whose path parameters it cannot fill fails those tests, so a new route cannot be forgotten.
import type { Operation } from '@shopapi/contract';
import type { TestClient, TestSandbox } from './sandbox.ts';
import { createProducts, orderDocument } from './fixtures.ts';

export interface World {
  client: TestClient;
  ids: Record<string, number>;
  sku: string;
}

export async function buildWorld(sb: TestSandbox, client: TestClient): Promise<World> {
  const sku = `WORLD-${client.id}`;
  const [product] = await createProducts(sb, client.token, [sku]);
  const order = (await sb.call('POST', '/v3/orders', { token: client.token, body: orderDocument(client, { items: [{ sku, quantity: 2 }] }) })).body.data;
  const shippedOrder = (await sb.call('POST', '/v3/orders', { token: client.token, body: orderDocument(client, { items: [{ sku, quantity: 1 }] }) })).body.data;
  const shipment = (await sb.call('POST', `/sandbox/orders/${shippedOrder.id}/ship`, { token: client.token })).body.data;
  return {
    client,
    sku,
    ids: {
      orders: order.id,
      orderitems: order.relationships.orderItems.data[0].id,
      shipments: shipment.id,
      products: product,
    },
  };
}

/** The value for each path parameter of an operation, taken from the world; undefined when the world lacks one. */
export function pathFor(op: Operation, world: World, override?: string): string | undefined {
  let missing = false;
  const path = op.path.replace(/\{(\w+)\}/g, (_whole, name: string, offset: number) => {
    if (override !== undefined) return encodeURIComponent(override).replace(/%25/g, '%');
    if (name === 'sku') return encodeURIComponent(world.sku);
    const segments = op.path.slice(0, offset).split('/').filter(Boolean);
    const resource = segments[segments.length - 1]?.toLowerCase();
    const id = world.ids[resource];
    if (id === undefined) missing = true;
    return String(id);
  });
  return missing ? undefined : path;
}
