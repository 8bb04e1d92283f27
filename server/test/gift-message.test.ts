// Scratch (issue 30 §2 proof, not kept): an optional order attribute end to end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;
beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['GIFT']);
});
afterAll(() => sb.close());

describe('giftMessage', () => {
  it('is stored on create, read back everywhere, kept or changed by PUT', async () => {
    const created = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { attributes: { giftMessage: 'Happy "birthday"' }, items: [{ sku: 'GIFT', quantity: 1 }] }),
    });
    expect(created.status, created.raw).toBe(201);
    const { id, attributes } = created.body.data;
    expect(attributes.giftMessage).toBe('Happy "birthday"');
    const read = await sb.call('GET', `/v3/orders/${id}`, { token: client.token });
    expect(read.body.data.attributes.giftMessage).toBe('Happy "birthday"');
    const list = await sb.call('GET', '/v3/orders', { token: client.token });
    expect(list.body.data.find((o: { id: number }) => o.id === id).attributes.giftMessage).toBe('Happy "birthday"');
    const put = (extra: Record<string, unknown>) =>
      sb.call('PUT', `/v3/orders/${id}`, {
        token: client.token,
        body: {
          data: {
            type: 'order',
            id,
            attributes: { externalOrderNumber: attributes.externalOrderNumber, locale: 'nl-NL', onHold: false, ...extra },
          },
        },
      });
    expect((await put({})).body.data.attributes.giftMessage).toBe('Happy "birthday"');
    expect((await put({ giftMessage: 'Changed' })).body.data.attributes.giftMessage).toBe('Changed');
    expect((await put({ giftMessage: null })).body.data.attributes.giftMessage).toBeNull();
    const plain = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: orderDocument(client, { externalOrderNumber: uniqueNumber(), items: [{ sku: 'GIFT', quantity: 1 }] }),
    });
    expect(plain.status, plain.raw).toBe(201);
    expect(plain.body.data.attributes.giftMessage).toBeNull();
  });
});
