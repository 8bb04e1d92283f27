import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { bodyStyles, sendV2 } from './support/v2.ts';

let sb: TestSandbox;
let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  other = await sb.newClient();
});
afterAll(() => sb.close());

const v3Product = async (id: number) => (await sb.call('GET', `/v3/products/${id}`, { token: client.token })).body.data.attributes;

describe('v2 products', () => {
  it.each(bodyStyles)('adds, edits and finds a product (%s), the same product as v3', async (style) => {
    const sku = `V2P-${style.replace(/\W/g, '')}`;
    const added = await sendV2(sb, 'POST', '/product/add', { sku, name: 'Mug', barcode: `87${sku.length}${style.length}000`, costPrice: 4.5, countryOfOriginIso: 'nl', extra1: 'x', useEconomicStock: true }, client.token, style);
    expect(added.body).toEqual({ messageCode: 'OK', message: 'Product has been successfully added', result: expect.any(Number) });
    expect(await v3Product(added.body.result)).toMatchObject({ sku, name: 'Mug', countryOfOrigin: 'NL' });

    const edited = await sendV2(sb, 'POST', '/product/edit', { sku, description: 'd'.repeat(250) }, client.token, style);
    expect(edited.body).toEqual({ messageCode: 'OK', message: 'Request processed successfully.', result: null });
    const after = await v3Product(added.body.result);
    expect(after.description).toHaveLength(200);
    expect(after.name).toBe('Mug');

    const found = await sendV2(sb, 'POST', '/product/search', { sku }, client.token, style);
    expect(found.body).toEqual({ messageCode: 'OK', message: 'Product found.', result: { sku, barcode: after.barcode, weight: null, costPrice: 4.5, minTHT: null } });
  });

  it('searches sku before barcode, with GET and POST, on both paths', async () => {
    await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-A', name: 'A', barcode: '1111111' } });
    await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-B', name: 'B', barcode: '2222222' } });
    expect((await sb.call('GET', '/v2/product/search?sku=V2P-A&barcode=2222222', { token: client.token })).body.result.sku).toBe('V2P-A');
    expect((await sb.call('GET', '/product/search?Barcode=2222222', { token: client.token })).body.result.sku).toBe('V2P-B');
    expect((await sb.call('POST', '/v2/product/search', { token: client.token, body: { barcode: '1111111' } })).body.result.sku).toBe('V2P-A');
  });

  it('refuses an empty name, a duplicate sku, and does not find or edit another client\'s product', async () => {
    await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-MINE', name: 'Mine' } });
    expect((await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-MINE', name: 'Again' } })).body.messageCode).toBe('NOK');
    expect((await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-X', name: '' } })).body.message).toBe('Unable to process request due to malformed contents');
    expect((await sb.call('POST', '/product/edit', { token: client.token, body: { sku: 'V2P-MINE', name: '' } })).status).toBe(400);
    expect((await sb.call('POST', '/product/edit', { token: other.token, body: { sku: 'V2P-MINE', name: 'Stolen' } })).status).toBe(404);
    expect((await sb.call('GET', '/v2/product/search?sku=V2P-MINE', { token: other.token })).status).toBe(404);
    expect((await sb.call('POST', '/product/search', { token: other.token, body: { sku: 'V2P-MINE' } })).status).toBe(404);
  });
});
