// The noisy client A of bench/neighbours.ts, run as a process of its own (forked by it) so that A's requests do not share
// an event loop with the load generator that measures client B: A creates orders and ships them (its webhooks fire),
// or uploads order attachments and product images at full speed. Stops at its deadline, at `stop`, or after `maxRequests`.
import { randomBytes } from 'node:crypto';
import { JSONAPI, orderDocument, type BenchClient } from './lib.ts';
import { multipart } from '../server/test/support/multipart.ts';
import { largePng, onePageA4Pdf } from '../server/test/support/uploads.ts';

export interface NoiseOrder {
  kind: 'ship' | 'upload';
  url: string;
  token: string;
  client: BenchClient;
  /** Loops sending at once. */
  loops: number;
  /** The noise stops by this many milliseconds even if never told to. */
  durationMs: number;
  maxRequests: number;
}

export interface NoiseReport {
  /** Answers by status ('error' for a request that failed or hit its 30 s deadline), per route. */
  statuses: Record<string, Record<string, number>>;
  bytesSent: number;
}

/** A file just under each route's limit (attachments 5 MiB, images 10 MiB): 4.5 MiB of incompressible bytes either way. */
const fileBytes = 4.5 * 1024 * 1024;

const report: NoiseReport = { statuses: {}, bytesSent: 0 };
let stopped = false;
let sent = 0;

function count(route: string, status: number | 'error') {
  report.statuses[route] ??= {};
  const byStatus = report.statuses[route];
  byStatus[status] = (byStatus[status] ?? 0) + 1;
}

async function call(order: NoiseOrder, route: string, method: string, path: string, body?: Buffer | string, contentType = JSONAPI) {
  sent++;
  try {
    const answer = await fetch(`${order.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${order.token}`, accept: JSONAPI, ...(body ? { 'content-type': contentType } : {}) },
      body: typeof body === 'string' ? body : body && new Uint8Array(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await answer.text();
    count(route, answer.status);
    if (body) report.bytesSent += body.length;
    return { status: answer.status, body: text };
  } catch {
    count(route, 'error');
    return { status: 0, body: '' };
  }
}

const idOf = (body: string) => (JSON.parse(body) as { data: { id: number } }).data.id;
let numbers = 0;
const newOrder = (order: NoiseOrder) =>
  call(order, 'POST /v3/orders', 'POST', '/v3/orders', JSON.stringify(orderDocument(order.client, `NOISE-${process.pid}-${++numbers}`)));

/** Creates an order and ships it: four shipment events, each to every webhook of A. */
async function shipLoop(order: NoiseOrder, going: () => boolean) {
  while (going()) {
    const created = await newOrder(order);
    if (created.status === 201) await call(order, 'POST /sandbox/orders/{id}/ship', 'POST', `/sandbox/orders/${idOf(created.body)}/ship`);
  }
}

/** Attachments to A's open orders and images of its products, alternately, each file new bytes. */
async function uploadLoop(order: NoiseOrder, going: () => boolean, orderNumbers: string[], pdf: Buffer, loop: number) {
  for (let n = 0; going(); n++) {
    if (n % 2 === 0) {
      const externalOrderNumber = orderNumbers[n % orderNumbers.length];
      const data = JSON.stringify({
        data: { type: 'orderAttachment', attributes: { filename: 'invoice.pdf', contentType: 'application/pdf', externalOrderNumber } },
      });
      const { payload, contentType } = multipart([
        { name: 'data', value: data },
        { name: 'file', value: pdf, filename: 'invoice.pdf', contentType: 'application/pdf' },
      ]);
      await call(order, 'POST /v3/orderAttachments', 'POST', '/v3/orderAttachments', payload, contentType);
    } else {
      const productId = order.client.productIds[(n + loop) % order.client.productIds.length];
      await call(order, 'POST /v3/products/{id}/image', 'POST', `/v3/products/${productId}/image`, largePng(fileBytes), 'image/png');
    }
  }
}

process.once('message', async (order: NoiseOrder) => {
  process.on('message', () => {
    stopped = true;
  });
  const until = Date.now() + order.durationMs;
  const going = () => !stopped && Date.now() < until && sent < order.maxRequests;
  if (order.kind === 'ship') {
    process.send!({ ready: true });
    await Promise.all(Array.from({ length: order.loops }, () => shipLoop(order, going)));
  } else {
    // Prepared before A starts: a few open orders to attach to, and the PDF (one A4 page carrying incompressible bytes).
    const orderNumbers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await newOrder(order);
      if (created.status === 201) orderNumbers.push(JSON.parse(created.body).data.attributes.externalOrderNumber);
    }
    if (!orderNumbers.length) throw new Error('noise: could not create an order to attach to');
    const pdf = await onePageA4Pdf(randomBytes(fileBytes));
    // One upload of each kind first: the server compiles a route's validator and serializer at its first call (a few
    // hundred milliseconds, once per process), which is start-up, not the steady noise measured here.
    let warmUps = 0;
    await uploadLoop(order, () => warmUps++ < 2, orderNumbers, pdf, 0);
    report.statuses = {};
    report.bytesSent = 0;
    sent = 0;
    process.send!({ ready: true });
    await Promise.all(Array.from({ length: order.loops }, (_, loop) => uploadLoop(order, going, orderNumbers, pdf, loop)));
  }
  process.send!({ report }, () => process.exit(0));
});
