// Every self link resolves: a full order flow (addresses, a pick-up point, an attachment, a shipped shipment with
// items), then every links.self found in its answers is followed and answers 200 with the resource it names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Answer, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { multipart } from './support/multipart.ts';
import { onePageA4Pdf } from './support/uploads.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['LINK-1', 'LINK-2']);
});
afterAll(() => sb.close());

/** Every resource object (an object with type, id and links.self) anywhere in the answer. */
function resourcesIn(value: unknown, found: { type: string; id: number; self: string }[] = []) {
  if (Array.isArray(value)) value.forEach((v) => resourcesIn(v, found));
  else if (value && typeof value === 'object') {
    const object = value as { type?: unknown; id?: unknown; links?: { self?: unknown } };
    if (typeof object.type === 'string' && typeof object.id === 'number' && typeof object.links?.self === 'string') {
      found.push({ type: object.type, id: object.id, self: object.links.self });
    }
    Object.values(object).forEach((v) => resourcesIn(v, found));
  }
  return found;
}

async function attach(orderId: number) {
  const { payload, contentType } = multipart([
    { name: 'data', value: JSON.stringify({ data: { type: 'orderAttachment', attributes: { filename: 'invoice.pdf', contentType: 'application/pdf' }, relationships: { order: { data: { type: 'order', id: orderId } } } } }) },
    { name: 'file', value: await onePageA4Pdf(), filename: 'invoice.pdf', contentType: 'application/pdf' },
  ]);
  return sb.call('POST', '/v3/orderAttachments', { token: client.token, payload, headers: { 'content-type': contentType } });
}

describe('self links', () => {
  it('every links.self of a full order flow answers 200 with the resource it names', async () => {
    const { token } = client;
    const created = await sb.call('POST', '/v3/orders', {
      token,
      body: orderDocument(client, {
        billing: { street1: 'Markt', houseNumber: '1', city: 'Roosendaal', countryCode: 'NL' },
        pickUpPoint: { identifier: 'PUP-7', name: 'Shop around the corner', countryCode: 'NL' },
        items: [{ sku: 'LINK-1', quantity: 2 }, { sku: 'LINK-2', quantity: 1 }],
      }),
    });
    expect(created.status).toBe(201);
    const order = created.body.data;
    const attached = await attach(order.id);
    expect(attached.status).toBe(201);
    const shipped = await sb.call('POST', `/sandbox/orders/${order.id}/ship`, { token });
    expect(shipped.status).toBe(201);
    const shipment = shipped.body.data;

    const answers: Answer[] = [created, attached, shipped];
    const all = 'include=orderItems,deliveryAddress,billingAddress,pickUpPoint';
    for (const url of [`/v3/orders/${order.id}?${all}`, `/v3/orders?${all}`, `/v3/shipments/${shipment.id}?include=shipmentItems`, `/v3/shipments?include=shipmentItems&orderId=${order.id}`]) {
      const answer = await sb.call('GET', url, { token });
      expect(answer.status, url).toBe(200);
      answers.push(answer);
    }

    const resources = new Map(answers.flatMap((a) => resourcesIn(a.body)).map((r) => [r.self, r]));
    const types = new Set([...resources.values()].map((r) => r.type));
    expect([...types].sort()).toEqual(['address', 'order', 'orderAttachment', 'orderItem', 'pickUpPoint', 'shipment', 'shipmentItem']);
    expect([...resources.values()].filter((r) => r.type === 'address')).toHaveLength(2);
    for (const { type, id, self } of resources.values()) {
      const url = new URL(self);
      expect(url.origin).toBe('http://sandbox.test');
      const answer = await sb.call('GET', url.pathname, { token });
      expect(answer.status, `${self}: ${answer.raw.slice(0, 200)}`).toBe(200);
      expect(answer.body.data).toMatchObject({ type, id, links: { self } });
    }

    // The attachment's metadata, never its contents; and every new read is owned: another client's id is a 404.
    const attachment = await sb.call('GET', `/v3/orderAttachments/${attached.body.data.id}`, { token });
    expect(attachment.body).toEqual(attached.body);
    expect(attachment.raw).not.toMatch(/%PDF|content"/);
    const other = await sb.newClient();
    for (const self of resources.keys()) {
      const answer = await sb.call('GET', new URL(self).pathname, { token: other.token });
      expect(answer.status, self).toBe(404);
    }
  }, 60_000);

  it('answers 404 for an id that names nothing', async () => {
    for (const path of ['addresses', 'pickUpPoints', 'orderAttachments', 'shipmentItems']) {
      const answer = await sb.call('GET', `/v3/${path}/987654`, { token: client.token });
      expect(answer.status, path).toBe(404);
      expect(answer.body.errors[0].code).toBe('404');
    }
  });
});
