// Read-only and owned attributes sent in writes are refused or ignored, never stored:
// ids, status, timestamps, measured weight and dimensions, received quantities, the owning client, secrets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../../src/platform/db/index.ts';
import { startSandbox, type Answer, type TestClient, type TestSandbox } from '../support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from '../support/fixtures.ts';
import { fingerprint } from '../support/fingerprint.ts';

let sb: TestSandbox;
let client: TestClient;
let other: TestClient;
let productId: number;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  other = await sb.newClient();
  [productId] = await createProducts(sb, client.token, ['MASS-1']);
});
afterAll(() => sb.close());

/** A refused write is a 4xx that changed nothing. */
async function expectRefused(write: () => Promise<Answer>) {
  const before = await fingerprint(sb.database.db);
  const answer = await write();
  expect(answer.status, answer.raw.slice(0, 200)).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(await fingerprint(sb.database.db)).toBe(before);
}

describe('v3 writes', () => {
  it('refuses read-only order attributes (createdOn, status, fulfilled state, owner) and stores no order', async () => {
    for (const attribute of [
      { createdOn: '2020-01-01T00:00:00Z' },
      { status: 'SHIPPED' },
      { fulfilledAt: '2020-01-01T00:00:00Z' },
      { clientId: other.id },
      { id: 1 },
    ]) {
      await expectRefused(() =>
        sb.call('POST', '/v3/orders', {
          token: client.token,
          body: orderDocument(client, { attributes: attribute, items: [{ sku: 'MASS-1', quantity: 1 }] }),
        }),
      );
    }
  });

  it('ignores a client-chosen order id: the server assigns its own', async () => {
    const doc: any = orderDocument(client, { items: [{ sku: 'MASS-1', quantity: 1 }] });
    doc.data.id = 424242;
    const answer = await sb.call('POST', '/v3/orders', { token: client.token, body: doc });
    expect(answer.status).toBe(201);
    expect(answer.body.data.id).not.toBe(424242);
    const [row] = await sb.database.db.select().from(schema.orders).where(eq(schema.orders.id, answer.body.data.id));
    expect(row.clientId).toBe(client.id);
  });

  it('refuses measured weight and dimensions on a product before its first receipt', async () => {
    await expectRefused(() =>
      sb.call('POST', '/v3/products', {
        token: client.token,
        body: { data: { type: 'product', attributes: { sku: 'MASS-2', name: 'x', weight: 999 } } },
      }),
    );
    await expectRefused(() =>
      sb.call('PUT', `/v3/products/${productId}`, {
        token: client.token,
        body: { data: { type: 'product', id: productId, attributes: { name: 'renamed', weight: 999, length: 1, width: 1, height: 1 } } },
      }),
    );
    const [row] = await sb.database.db.select().from(schema.products).where(eq(schema.products.id, productId));
    expect([row.weight, row.length, row.width, row.height, row.name]).toEqual([null, null, null, null, 'Product MASS-1']);
  });

  it('refuses received quantities and status on a new packing slip', async () => {
    for (const attributes of [{ status: 'COMPLETED' }, { receivedOn: '2026-01-01T00:00:00Z' }]) {
      await expectRefused(() =>
        sb.call('POST', '/v3/inboundPackingSlips', {
          token: client.token,
          body: {
            data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', reference: uniqueNumber('PS'), ...attributes } },
            included: [{ type: 'inboundPackingSlipItem', attributes: { sku: 'MASS-1', quantity: 5 } }],
          },
        }),
      );
    }
    await expectRefused(() =>
      sb.call('POST', '/v3/inboundPackingSlips', {
        token: client.token,
        body: {
          data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', reference: uniqueNumber('PS') } },
          included: [{ type: 'inboundPackingSlipItem', attributes: { sku: 'MASS-1', quantity: 5, received: 5 } }],
        },
      }),
    );
  });

  it('never stores a webhook secret the client sends: the server makes its own', async () => {
    const answer = await sb.call('POST', '/v3/webhooks', {
      token: client.token,
      body: {
        data: {
          type: 'webhook',
          attributes: {
            entity: 'shipment',
            event: 'shipment.shipped.3',
            targetUrl: 'http://127.0.0.1:9/x',
            isActive: true,
            secret: 'whsec_chosen-by-the-client',
          },
        },
      },
    });
    if (answer.status === 201) {
      const [row] = await sb.database.db.select().from(schema.webhooks).where(eq(schema.webhooks.id, answer.body.data.id));
      expect(row.secret).not.toBe('whsec_chosen-by-the-client');
    } else {
      expect(answer.status).toBe(400);
    }
  });
});

describe('v2 writes', () => {
  it("drops unknown and owned keys of /order/add: the order belongs to the caller and has the server's id", async () => {
    const settings = (await sb.call('GET', '/settings/get', { token: client.token })).body.result;
    const externalOrderNumber = uniqueNumber('V2');
    const answer = await sb.call('POST', '/order/add', {
      token: client.token,
      body: {
        externalOrderNumber,
        paymentMethodId: 1,
        languageId: settings.languages[0].id,
        orderTypeId: settings.orderTypes[0].id,
        deliveryAddressLastName: 'Jansen',
        deliveryAddressPostalCode: '4701AB',
        deliveryAddressHouseNumber: 12,
        deliveryAddressStreet: 'Kerkstraat',
        deliveryAddressCityName: 'Roosendaal',
        deliveryAddressCountryIso: 'NL',
        orderItems: [{ sku: 'MASS-1', quantity: 1, price: 5 }],
        ClientId: other.id,
        Id: 424242,
        FulfilledAt: '2020-01-01',
      },
    });
    expect(answer.body.messageCode).toBe('OK');
    const [row] = await sb.database.db.select().from(schema.orders).where(eq(schema.orders.externalOrderNumber, externalOrderNumber));
    expect(row.clientId).toBe(client.id);
    expect(row.id).not.toBe(424242);
    expect(row.fulfilledAt).toBeNull();
  });

  it("does not take a product's measured weight from /product/add", async () => {
    const answer = await sb.call('POST', '/product/add', {
      token: client.token,
      body: { sku: 'MASS-V2', name: 'v2 product', weight: 750, Length: 10 },
    });
    expect(answer.body.messageCode).toBe('OK');
    const [row] = await sb.database.db.select().from(schema.products).where(eq(schema.products.sku, 'MASS-V2'));
    expect([row.weight, row.length]).toEqual([null, null]);
  });
});
