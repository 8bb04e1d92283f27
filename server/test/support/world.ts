// One of every resource for a client, made through the API, and the path parameters that name them.
// Generated tests (bad input, object-level authorization) use it for every operation of the contract:
// an operation whose path parameters it cannot fill fails those tests, so a new route cannot be forgotten.
import { operations, type Operation } from '@shopapi/contract';
import type { TestClient, TestSandbox } from './sandbox.ts';
import { createProducts, orderDocument } from './fixtures.ts';
import { multipart } from './multipart.ts';
import { onePageA4Pdf } from './uploads.ts';

export interface World {
  client: TestClient;
  /** Ids by resource name as it appears in paths, lower case (orders, orderitems, webhooks, ...). */
  ids: Record<string, number>;
  sku: string;
  /** The Request-Id of one of the client's calls: the id of its request log entry. */
  requestId: string;
  /** Identifiers request bodies refer to objects by, keyed by the body field that carries them. */
  refs: Record<string, string | number | number[]>;
}

/** Every sku the request examples mention: the world has products for them, so the examples are valid requests. */
function exampleSkus(): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, key = '') => {
    if (typeof value === 'string' && key.toLowerCase() === 'sku') found.add(value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, Array.isArray(value) ? key : k);
  };
  for (const op of operations) walk(op.requestExample);
  return [...found];
}

async function must(sb: TestSandbox, method: string, url: string, token: string, body?: unknown) {
  const answer = await sb.call(method, url, { token, body });
  if (answer.status >= 300) throw new Error(`world: ${method} ${url} answered ${answer.status}: ${answer.raw.slice(0, 300)}`);
  return answer.body;
}

export async function buildWorld(sb: TestSandbox, client: TestClient): Promise<World> {
  const { token } = client;
  const sku = exampleSkus()[0] ?? `WORLD-${client.id}`;
  const skus = [...new Set([sku, ...exampleSkus()])];
  const productIds = await createProducts(sb, token, skus);
  const ids: Record<string, number> = { products: productIds[0], stocklevels: productIds[0] };

  let slipReference: string | undefined;
  const slipExample = operations.find((o) => o.operationId === 'createInboundPackingSlip')?.requestExample as
    | { data: { attributes: Record<string, unknown> } }
    | undefined;
  if (slipExample) {
    const slip = structuredClone(slipExample);
    slipReference = `WORLD-${client.id}-${Date.now().toString(36)}`;
    slip.data.attributes.reference = slipReference;
    const created = await must(sb, 'POST', '/v3/inboundPackingSlips', token, slip);
    ids.inboundpackingslips = created.data.id;
    ids.inboundpackingslipitems = created.included?.[0]?.id;
    await must(sb, 'POST', `/sandbox/inboundPackingSlips/${ids.inboundpackingslips}/receive`, token);
    const inbounds = await must(sb, 'GET', '/v3/inbounds?include=inboundItems', token);
    ids.inbounds = inbounds.data[0]?.id;
    ids.inbounditems = inbounds.included?.[0]?.id;
    const stock = await must(sb, 'GET', '/v3/stock', token);
    ids.stock = stock.data[0]?.id;
    ids.stocklocations = stock.data[0]?.relationships.stockLocation.data?.id;
    ids.stockmutations = (await must(sb, 'GET', '/v3/stockMutations', token)).data[0]?.id;
  }

  const webhook = await sb.call('POST', '/v3/webhooks', {
    token,
    body: {
      data: {
        type: 'webhook',
        attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: 'http://127.0.0.1:9/hooks', isActive: true },
      },
    },
  });
  if (webhook.status === 201) ids.webhooks = webhook.body.data.id;

  const order = (
    await must(
      sb,
      'POST',
      '/v3/orders',
      token,
      orderDocument(client, { items: [{ sku, quantity: 2 }], pickUpPoint: { identifier: 'WORLD-PUP', countryCode: 'NL' } }),
    )
  ).data;
  ids.orders = order.id;
  ids.orderitems = order.relationships.orderItems.data[0].id;
  ids.addresses = order.relationships.deliveryAddress.data.id;
  ids.pickuppoints = order.relationships.pickUpPoint.data.id;
  const attachment = multipart([
    {
      name: 'data',
      value: JSON.stringify({
        data: {
          type: 'orderAttachment',
          attributes: { filename: 'world.pdf', contentType: 'application/pdf' },
          relationships: { order: { data: { type: 'order', id: order.id } } },
        },
      }),
    },
    { name: 'file', value: await onePageA4Pdf(), filename: 'world.pdf', contentType: 'application/pdf' },
  ]);
  const attached = await sb.call('POST', '/v3/orderAttachments', {
    token,
    payload: attachment.payload,
    headers: { 'content-type': attachment.contentType },
  });
  if (attached.status !== 201)
    throw new Error(`world: POST /v3/orderAttachments answered ${attached.status}: ${attached.raw.slice(0, 300)}`);
  ids.orderattachments = attached.body.data.id;
  const shippedOrder = (await must(sb, 'POST', '/v3/orders', token, orderDocument(client, { items: [{ sku, quantity: 1 }] }))).data;
  const shipment = await must(sb, 'POST', `/sandbox/orders/${shippedOrder.id}/ship`, token);
  ids.shipments = shipment.data.id;
  ids.shipmentitems = shipment.data.relationships.shipmentItems.data[0].id;
  // A shipment of its own comes back, so the one above stays as it was shipped.
  const returnedOrder = (await must(sb, 'POST', '/v3/orders', token, orderDocument(client, { items: [{ sku, quantity: 1 }] }))).data;
  const returned = await must(sb, 'POST', `/sandbox/orders/${returnedOrder.id}/ship`, token);
  ids.returnitems = (
    await must(sb, 'POST', `/sandbox/shipments/${returned.data.id}/return`, token, { items: [{ sku, quantity: 1, condition: 'RETURN' }] })
  ).data[0].id;

  if (ids.webhooks) {
    const deliveries = await sb.call('GET', `/sandbox/webhooks/${ids.webhooks}/deliveries`, { token });
    ids.deliveries = deliveries.body?.data?.[0]?.id;
  }
  const settingsAnswer = await sb.call('GET', '/settings/get', { token });
  if (settingsAnswer.status !== 200) throw new Error(`world: GET /settings/get answered ${settingsAnswer.status}`);
  const settings = settingsAnswer.body.result;
  const requestId = String(settingsAnswer.headers['request-id']);
  ids.returnreasons = settings.returnReasons[0].id;
  ids.shippingmethods = settings.mainShippingMethods[0].id;
  ids.returnshippingmethods = settings.returnShippingMethods[0].id;
  const refs: World['refs'] = {
    sku,
    externalOrderNumber: order.attributes.externalOrderNumber,
    orderId: order.id,
    shipmentId: ids.shipments,
    shipmentItemId: ids.shipmentitems,
    ids: [ids.shipments],
    ...(slipReference ? { purchaseOrderId: ids.inboundpackingslips, reference: slipReference } : {}),
  };
  return { client, ids, sku, requestId, refs };
}

/** Which world id a path parameter takes: by name where the name says it, else by the resource before it. */
function idFor(op: Operation, name: string, offset: number, world: World): number | string | undefined {
  if (name === 'deliveryId') return world.ids.deliveries;
  if (op.path.startsWith('/sandbox/requests/')) return world.requestId;
  if (name === 'sm') return world.ids.returnshippingmethods;
  if (op.path.startsWith('/v2/returnlabel/')) return world.ids.shipments;
  const segments = op.path.slice(0, offset).split('/').filter(Boolean);
  return world.ids[segments[segments.length - 1]?.toLowerCase()];
}

/** The operation's path with every parameter filled from the world (or with `override`); undefined when the world lacks one. */
export function pathFor(op: Operation, world: World, override?: string): string | undefined {
  let missing = false;
  const path = op.path.replace(/\{(\w+)\}/g, (_whole, name: string, offset: number) => {
    if (override !== undefined) return encodeURIComponent(override).replace(/%25/g, '%');
    if (name === 'sku') return encodeURIComponent(world.sku);
    if (name === 'all') return 'true';
    const id = idFor(op, name, offset, world);
    if (id === undefined) missing = true;
    return String(id);
  });
  return missing ? undefined : path;
}
