import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { storedFile } from '../src/platform/file-parts.ts';
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
    const added = await sendV2(
      sb,
      'POST',
      '/product/add',
      {
        sku,
        name: 'Mug',
        barcode: `87${sku.length}${style.length}000`,
        costPrice: 4.5,
        countryOfOriginIso: 'nl',
        extra1: 'x',
        useEconomicStock: true,
      },
      client.token,
      style,
    );
    expect(added.body).toEqual({ messageCode: 'OK', message: 'Product has been successfully added', result: expect.any(Number) });
    expect(await v3Product(added.body.result)).toMatchObject({ sku, name: 'Mug', countryOfOrigin: 'NL' });

    const edited = await sendV2(sb, 'POST', '/product/edit', { sku, description: 'd'.repeat(250) }, client.token, style);
    expect(edited.body).toEqual({ messageCode: 'OK', message: 'Request processed successfully.', result: null });
    const after = await v3Product(added.body.result);
    expect(after.description).toHaveLength(200);
    expect(after.name).toBe('Mug');

    const found = await sendV2(sb, 'POST', '/product/search', { sku }, client.token, style);
    expect(found.body).toEqual({
      messageCode: 'OK',
      message: 'Product found.',
      result: { sku, barcode: after.barcode, weight: null, costPrice: 4.5, minTHT: null },
    });
  });

  it('searches sku before barcode, with GET and POST, on both paths', async () => {
    await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-A', name: 'A', barcode: '1111111' } });
    await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-B', name: 'B', barcode: '2222222' } });
    expect((await sb.call('GET', '/v2/product/search?sku=V2P-A&barcode=2222222', { token: client.token })).body.result.sku).toBe('V2P-A');
    expect((await sb.call('GET', '/product/search?Barcode=2222222', { token: client.token })).body.result.sku).toBe('V2P-B');
    expect((await sb.call('POST', '/v2/product/search', { token: client.token, body: { barcode: '1111111' } })).body.result.sku).toBe(
      'V2P-A',
    );
  });

  it("refuses an empty name, a duplicate sku, and does not find or edit another client's product", async () => {
    await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-MINE', name: 'Mine' } });
    expect(
      (await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-MINE', name: 'Again' } })).body.messageCode,
    ).toBe('NOK');
    expect((await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-X', name: '' } })).body.message).toBe(
      'Unable to process request due to malformed contents',
    );
    expect((await sb.call('POST', '/product/edit', { token: client.token, body: { sku: 'V2P-MINE', name: '' } })).status).toBe(400);
    expect((await sb.call('POST', '/product/edit', { token: other.token, body: { sku: 'V2P-MINE', name: 'Stolen' } })).status).toBe(404);
    // A search that misses is a 200 NOK (v2 clients decide "new product" by it), the same for another client's sku.
    const miss = { messageCode: 'NOK', message: 'Product not found.', result: null };
    for (const answer of [
      await sb.call('GET', '/v2/product/search?sku=V2P-MINE', { token: other.token }),
      await sb.call('POST', '/product/search', { token: other.token, body: { sku: 'V2P-MINE' } }),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(miss);
    }
  });
});

describe('v2 product fields v3 does not have, the encoded image, and the barcode once stocked', () => {
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4460000000049454e44ae426082',
    'hex',
  );
  const storedRow = async (sku: string) => {
    const [row] = await sb.database.db
      .select()
      .from(schema.products)
      .where(and(eq(schema.products.clientId, client.id), eq(schema.products.sku, sku)));
    return row;
  };

  it.each(bodyStyles)('keeps the v2-only fields, maps the others onto v3 attributes and stores the image (%s)', async (style) => {
    const sku = `V2P-L-${style.replace(/\W/g, '')}`;
    const added = await sendV2(
      sb,
      'POST',
      '/product/add',
      {
        sku,
        name: 'Tea',
        encodedImage: png.toString('base64'),
        supplierCode: 'SUP-1',
        supplierProductCode: 'SP-9',
        stockMinimum: 5,
        stockMaximum: 50,
        priceA: 1.5,
        priceB: 2,
        priceC: 2.5,
        priceD: 3,
        vatLevel: 1,
        orderQuantity: 12,
        hasThtDate: true,
        warningDaysTillThtDate: 30,
        maxDaysTillThtDate: 10,
        hasLotNumber: true,
        hasSerial: false,
      },
      client.token,
      style,
    );
    expect(added.body.messageCode, added.raw).toBe('OK');
    const v3 = await v3Product(added.body.result);
    expect(v3).toMatchObject({
      hasExpirationDate: true,
      expirationDateWarning: 30,
      expirationDateMargin: 10,
      hasLotNumber: true,
      hasSerialNumber: false,
    });
    const row = await storedRow(sku);
    expect(row.legacy).toEqual({
      supplierCode: 'SUP-1',
      supplierProductCode: 'SP-9',
      stockMinimum: 5,
      stockMaximum: 50,
      priceA: 1.5,
      priceB: 2,
      priceC: 2.5,
      priceD: 3,
      vatLevel: 1,
      orderQuantity: 12,
    });
    expect(row.imageContentType).toBe('image/png');
    expect(await storedFile(sb.database.db, 'productImage', row.id)).toEqual(png);
    // An edit merges: fields left out keep their value.
    expect((await sendV2(sb, 'POST', '/product/edit', { sku, priceA: 1.75 }, client.token, style)).body.messageCode).toBe('OK');
    expect((await storedRow(sku)).legacy).toMatchObject({ priceA: 1.75, priceB: 2, supplierCode: 'SUP-1' });
  });

  it('refuses an encoded image over 100 KB or one that is not an image, and writes nothing', async () => {
    const big = Buffer.concat([png, Buffer.alloc(limits.v2EncodedImageMaxBytes + 1 - png.length)]);
    const justRight = Buffer.concat([png, Buffer.alloc(limits.v2EncodedImageMaxBytes - png.length)]);
    const tooBig = await sb.call('POST', '/product/add', {
      token: client.token,
      body: { sku: 'V2P-BIG', name: 'Big', encodedImage: big.toString('base64') },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.messageCode).toBe('NOK');
    expect(await storedRow('V2P-BIG')).toBeUndefined();
    const notImage = await sb.call('POST', '/product/add', {
      token: client.token,
      body: { sku: 'V2P-TXT', name: 'Text', encodedImage: Buffer.from('hello').toString('base64') },
    });
    expect(notImage.status).toBe(400);
    expect(await storedRow('V2P-TXT')).toBeUndefined();
    expect(
      (
        await sb.call('POST', '/product/add', {
          token: client.token,
          body: { sku: 'V2P-MAX', name: 'Max', encodedImage: justRight.toString('base64') },
        })
      ).body.messageCode,
    ).toBe('OK');
    expect(
      (await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-VAT', name: 'Vat', vatLevel: 3 } })).status,
    ).toBe(400);
  });

  it('changes the barcode only while the product has no stock', async () => {
    await sb.call('POST', '/product/add', { token: client.token, body: { sku: 'V2P-STOCK', name: 'Stocked', barcode: '5555555' } });
    expect(
      (await sb.call('POST', '/product/edit', { token: client.token, body: { sku: 'V2P-STOCK', barcode: '5555556' } })).body.messageCode,
    ).toBe('OK');
    const po = await sb.call('POST', '/purchaseorder/add', {
      token: client.token,
      body: { reference: 'V2P-STOCK-PO', purchaseOrderItems: [{ sku: 'V2P-STOCK', quantity: 2 }] },
    });
    await sb.call('POST', `/sandbox/inboundPackingSlips/${po.body.result}/receive`, { token: client.token });
    const refused = await sb.call('POST', '/product/edit', {
      token: client.token,
      body: { sku: 'V2P-STOCK', barcode: '5555557', name: 'Renamed' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ messageCode: 'NOK', message: expect.stringContaining('barcode') });
    expect(await storedRow('V2P-STOCK')).toMatchObject({ barcode: '5555556', name: 'Stocked' });
  });
});
