import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { storedFile } from '../src/platform/file-parts.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { uniqueNumber } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
});
afterAll(() => sb.close());

const productDoc = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: {
    type: 'product',
    attributes: { sku: uniqueNumber('SKU'), name: 'A product', ...attributes },
    ...(relationships ? { relationships } : {}),
  },
});
const post = (attributes: Record<string, unknown> = {}, relationships?: Record<string, unknown>, token = client.token) =>
  sb.call('POST', '/v3/products', { token, body: productDoc(attributes, relationships) });
const put = (id: number, attributes: Record<string, unknown>, token = client.token) =>
  sb.call('PUT', `/v3/products/${id}`, { token, body: { data: { type: 'product', id, attributes } } });
const codes = (answer: { body: { errors: { code: string }[] } }) => answer.body.errors.map((e) => e.code);
const pointers = (answer: { body: { errors: { source?: { pointer?: string } }[] } }) => answer.body.errors.map((e) => e.source?.pointer);
const parts = (...list: [number, number][]) => ({
  parts: { data: list.map(([id, quantity]) => ({ type: 'product', id, meta: { quantity } })) },
});

/** Puts units of the product on a location, as a receipt would. */
async function putStock(productId: number, sku: string, quantity: number) {
  const db = sb.database.db;
  const [location] = await db
    .insert(schema.stockLocations)
    .values({ clientId: client.id, warehouseCode: 'NR', locationType: 'PICKABLE', locationCode: uniqueNumber('LOC') })
    .returning();
  const now = new Date();
  await db.insert(schema.stock).values({
    clientId: client.id,
    productId,
    sku,
    stockLocationId: location.id,
    warehouseCode: 'NR',
    locationType: 'PICKABLE',
    locationCode: location.locationCode,
    quantity,
    modifiedOn: now,
    receivedOn: now,
  });
}

describe('POST /v3/products', () => {
  it('creates a product with every writable attribute and answers 201 with defaults for the rest', async () => {
    const sku = uniqueNumber('SKU');
    const answer = await post({
      sku,
      name: 'T-shirt, size M',
      description: 'Organic cotton',
      barcode: uniqueNumber('871'),
      status: 'DISCONTINUED',
      stockLevelType: 'ECONOMIC',
      hasLotNumber: true,
      hasSerialNumber: true,
      countryOfOrigin: 'PT',
      hsCodes: [{ country: 'XX', hsCode: '610910' }],
      purchasePrice: [{ currency: 'EUR', amount: 4.5 }],
      metadata: { extra1: 'one', extra5: 'five' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({
      type: 'product',
      attributes: {
        sku,
        name: 'T-shirt, size M',
        description: 'Organic cotton',
        hasBarcode: true,
        type: 'DEFAULT',
        status: 'DISCONTINUED',
        stockLevelType: 'ECONOMIC',
        hasLotNumber: true,
        hasSerialNumber: true,
        hasExpirationDate: false,
        expirationDate: null,
        countryOfOrigin: 'PT',
        hsCodes: [{ country: 'XX', hsCode: '610910' }],
        purchasePrice: [{ currency: 'EUR', amount: 4.5 }],
        metadata: { extra1: 'one', extra2: null, extra3: null, extra4: null, extra5: 'five' },
        weight: null,
        length: null,
        width: null,
        height: null,
      },
      relationships: { stockLevels: { data: { type: 'stockLevel', id: answer.body.data.id } }, parts: { data: [] } },
      links: { self: `http://sandbox.test/v3/products/${answer.body.data.id}` },
    });
    const minimal = await post();
    expect(minimal.body.data.attributes).toMatchObject({
      hasBarcode: false,
      status: 'AVAILABLE',
      stockLevelType: 'AVAILABLE',
      hasLotNumber: false,
      hsCodes: [],
      purchasePrice: [],
    });
  });

  it('rejects a second product with the same sku with 409', async () => {
    const sku = uniqueNumber('SKU');
    expect((await post({ sku })).status).toBe(201);
    const answer = await post({ sku });
    expect(answer.status).toBe(409);
    expect(pointers(answer)).toEqual(['/data/attributes/sku']);
  });

  it('rejects a second product with the same barcode with 409, and reports sku and barcode together', async () => {
    const sku = uniqueNumber('SKU');
    const barcode = uniqueNumber('BC');
    expect((await post({ sku, barcode })).status).toBe(201);
    const answer = await post({ sku, barcode });
    expect(answer.status).toBe(409);
    expect(pointers(answer).sort()).toEqual(['/data/attributes/barcode', '/data/attributes/sku']);
  });

  it('lets another client use the same sku and barcode', async () => {
    const other = await sb.newClient();
    const sku = uniqueNumber('SKU');
    const barcode = uniqueNumber('BC');
    expect((await post({ sku, barcode })).status).toBe(201);
    expect((await post({ sku, barcode }, undefined, other.token)).status).toBe(201);
  });

  it('sets hasBarcode when a barcode is sent, even with hasBarcode false', async () => {
    const answer = await post({ barcode: uniqueNumber('BC'), hasBarcode: false });
    expect(answer.body.data.attributes.hasBarcode).toBe(true);
  });

  it('accepts every product type and status', async () => {
    for (const type of ['DEFAULT', 'DEFAULT_IN_PACKAGING', 'PART', 'GREETING_CARD', 'SERVICE']) {
      expect((await post({ type })).body.data.attributes.type).toBe(type);
    }
    for (const status of ['AVAILABLE', 'DISCONTINUED', 'END_OF_LIFE']) {
      expect((await post({ status })).body.data.attributes.status).toBe(status);
    }
    expect((await post({ type: 'KIT' })).status).toBe(400);
    expect((await post({ status: 'SOLD_OUT' })).status).toBe(400);
  });

  it('checks name, description, metadata, sku and barcode lengths', async () => {
    const answer = await post({
      sku: 'X',
      name: '',
      description: 'd'.repeat(limits.productDescriptionMax + 1),
      barcode: ' 123',
      metadata: { extra1: 'm'.repeat(limits.metadataExtraMax + 1), extra6: 'no' },
    });
    expect(answer.status).toBe(400);
    expect(pointers(answer)).toEqual(
      expect.arrayContaining([
        '/data/attributes/sku',
        '/data/attributes/name',
        '/data/attributes/description',
        '/data/attributes/barcode',
        '/data/attributes/metadata/extra1',
        '/data/attributes/metadata/extra6',
      ]),
    );
    expect((await post({ name: 'n'.repeat(limits.productNameMax) })).status).toBe(201);
    expect((await post({ name: 'n'.repeat(limits.productNameMax + 1) })).status).toBe(400);
  });
});

describe('hsCodes', () => {
  it('strips every character that is not a digit', async () => {
    const answer = await post({ hsCodes: [{ country: 'XX', hsCode: '6109.10-00' }] });
    expect(answer.body.data.attributes.hsCodes).toEqual([{ country: 'XX', hsCode: '61091000' }]);
  });

  it('needs 6 to 12 digits after stripping', async () => {
    expect((await post({ hsCodes: [{ hsCode: '123456' }] })).status).toBe(201);
    expect((await post({ hsCodes: [{ hsCode: '123456789012' }] })).status).toBe(201);
    const short = await post({ hsCodes: [{ hsCode: '12.345' }] });
    expect(short.status).toBe(400);
    expect(pointers(short)).toEqual(['/data/attributes/hsCodes/0/hsCode']);
    expect((await post({ hsCodes: [{ hsCode: '1234567890123' }] })).status).toBe(400);
  });

  it('takes XX as the country when none is given', async () => {
    const answer = await post({ hsCodes: [{ hsCode: '610910' }] });
    expect(answer.body.data.attributes.hsCodes).toEqual([{ country: 'XX', hsCode: '610910' }]);
  });

  it('copies the missing XX entry from EU, else NL, else the first entry', async () => {
    const fromEu = await post({
      hsCodes: [
        { country: 'US', hsCode: '111111' },
        { country: 'NL', hsCode: '222222' },
        { country: 'EU', hsCode: '333333' },
      ],
    });
    expect(fromEu.body.data.attributes.hsCodes).toContainEqual({ country: 'XX', hsCode: '333333' });
    const fromNl = await post({
      hsCodes: [
        { country: 'US', hsCode: '111111' },
        { country: 'NL', hsCode: '222222' },
      ],
    });
    expect(fromNl.body.data.attributes.hsCodes).toContainEqual({ country: 'XX', hsCode: '222222' });
    const fromFirst = await post({
      hsCodes: [
        { country: 'US', hsCode: '111111' },
        { country: 'GB', hsCode: '444444' },
      ],
    });
    expect(fromFirst.body.data.attributes.hsCodes).toEqual([
      { country: 'US', hsCode: '111111' },
      { country: 'GB', hsCode: '444444' },
      { country: 'XX', hsCode: '111111' },
    ]);
  });

  it('needs at least one entry when sent, and each country once', async () => {
    expect((await post({ hsCodes: [] })).status).toBe(400);
    expect(
      (
        await post({
          hsCodes: [
            { country: 'NL', hsCode: '111111' },
            { country: 'NL', hsCode: '222222' },
          ],
        })
      ).status,
    ).toBe(400);
  });
});

describe('purchasePrice', () => {
  it('takes at most one entry, in EUR only; the currency defaults to EUR', async () => {
    expect((await post({ purchasePrice: [{ amount: 3.25 }] })).body.data.attributes.purchasePrice).toEqual([
      { currency: 'EUR', amount: 3.25 },
    ]);
    expect(
      (
        await post({
          purchasePrice: [
            { currency: 'EUR', amount: 1 },
            { currency: 'EUR', amount: 2 },
          ],
        })
      ).status,
    ).toBe(400);
    const usd = await post({ purchasePrice: [{ currency: 'USD', amount: 1 }] });
    expect(usd.status).toBe(400);
    expect(pointers(usd)).toEqual(['/data/attributes/purchasePrice/0/currency']);
  });
});

describe('perishable products', () => {
  const perishable = { hasExpirationDate: true, expirationDate: 'SCAN_AT_INBOUND', expirationDateMargin: 30, expirationDateWarning: 45 };

  it('creates a perishable product with expirationDate SCAN_AT_INBOUND, a margin and a warning', async () => {
    const answer = await post(perishable);
    expect(answer.status).toBe(201);
    expect(answer.body.data.attributes).toMatchObject(perishable);
  });

  it('refuses a perishable product without SCAN_AT_INBOUND, without a positive margin, or with a warning below the margin', async () => {
    const answer = await post({ hasExpirationDate: true });
    expect(answer.status).toBe(400);
    expect(pointers(answer).sort()).toEqual([
      '/data/attributes/expirationDate',
      '/data/attributes/expirationDateMargin',
      '/data/attributes/expirationDateWarning',
    ]);
    expect((await post({ ...perishable, expirationDateMargin: 0 })).status).toBe(400);
    const low = await post({ ...perishable, expirationDateWarning: 29 });
    expect(low.status).toBe(400);
    expect(pointers(low)).toEqual(['/data/attributes/expirationDateWarning']);
    expect((await post({ ...perishable, expirationDateWarning: 30 })).status).toBe(201);
  });

  it('refuses expirationDate SCAN_AT_INBOUND on a product that is not perishable', async () => {
    expect((await post({ expirationDate: 'SCAN_AT_INBOUND' })).status).toBe(400);
    expect((await post({ ...perishable, expirationDate: 'TODAY' })).status).toBe(400);
  });
});

describe('bundles and composites', () => {
  it('creates a bundle of existing products with their quantities', async () => {
    const a = (await post()).body.data.id;
    const b = (await post({ type: 'PART' })).body.data.id;
    const bundle = await post({ type: 'BUNDLE' }, parts([a, 2], [b, 1]));
    expect(bundle.status).toBe(201);
    expect(bundle.body.data.relationships.parts.data).toEqual([
      { type: 'product', id: a, meta: { quantity: 2 } },
      { type: 'product', id: b, meta: { quantity: 1 } },
    ]);
    const read = await sb.call('GET', `/v3/products/${bundle.body.data.id}`, { token: client.token });
    expect(read.body.data.relationships.parts).toEqual(bundle.body.data.relationships.parts);
    const composite = await post({ type: 'COMPOSITE' }, parts([a, 3]));
    expect(composite.status).toBe(201);
  });

  it('refuses parts with quantity 0', async () => {
    const a = (await post()).body.data.id;
    const answer = await post({ type: 'BUNDLE' }, parts([a, 0]));
    expect(answer.status).toBe(400);
    expect(pointers(answer)).toEqual(['/data/relationships/parts/data/0/meta/quantity']);
  });

  it('refuses a bundle without parts, parts on a DEFAULT product, unknown or repeated parts, and parts that have parts', async () => {
    const a = (await post()).body.data.id;
    expect((await post({ type: 'BUNDLE' })).status).toBe(400);
    expect((await post({ type: 'DEFAULT' }, parts([a, 1]))).status).toBe(400);
    const unknown = await post({ type: 'BUNDLE' }, parts([a, 1], [999999, 1], [a, 2]));
    expect(unknown.status).toBe(400);
    expect(pointers(unknown)).toEqual(['/data/relationships/parts/data/1/id', '/data/relationships/parts/data/2']);
    const bundle = (await post({ type: 'BUNDLE' }, parts([a, 1]))).body.data.id;
    expect((await post({ type: 'BUNDLE' }, parts([bundle, 1]))).status).toBe(400);
  });

  it("refuses another client's product as a part", async () => {
    const other = await sb.newClient();
    const theirs = (await post({}, undefined, other.token)).body.data.id;
    expect((await post({ type: 'BUNDLE' }, parts([theirs, 1]))).status).toBe(400);
  });
});

describe('weight and dimensions', () => {
  it('refuses weight or dimensions on create with 409: the warehouse measures them at first receipt', async () => {
    const answer = await post({ weight: 250, height: 10 });
    expect(answer.status).toBe(409);
    expect(pointers(answer).sort()).toEqual(['/data/attributes/height', '/data/attributes/weight']);
    expect((await post({ weight: null })).status).toBe(201);
  });

  it('accepts the measured values on update but answers 409 to different ones', async () => {
    const id = (await post()).body.data.id;
    await sb.database.db
      .update(schema.products)
      .set({ weight: 250, length: 300, width: 200, height: 20 })
      .where(eq(schema.products.id, id));
    const same = await put(id, { name: 'Renamed', weight: 250, length: 300, width: 200, height: 20 });
    expect(same.status).toBe(200);
    expect(same.body.data.attributes).toMatchObject({ name: 'Renamed', weight: 250, length: 300 });
    const different = await put(id, { name: 'Again', weight: 300 });
    expect(different.status).toBe(409);
    expect((await sb.call('GET', `/v3/products/${id}`, { token: client.token })).body.data.attributes.name).toBe('Renamed');
  });
});

describe('PUT /v3/products/{id}', () => {
  it('changes the attributes sent and keeps the others', async () => {
    const created = await post({ description: 'kept', hasLotNumber: true, metadata: { extra2: 'kept' } });
    const id = created.body.data.id;
    const answer = await put(id, { name: 'New name', status: 'END_OF_LIFE', hsCodes: [{ country: 'NL', hsCode: '1234 5678' }] });
    expect(answer.status).toBe(200);
    expect(answer.body.data.attributes).toMatchObject({
      sku: created.body.data.attributes.sku,
      name: 'New name',
      status: 'END_OF_LIFE',
      description: 'kept',
      hasLotNumber: true,
      metadata: { extra2: 'kept' },
      hsCodes: [
        { country: 'NL', hsCode: '12345678' },
        { country: 'XX', hsCode: '12345678' },
      ],
    });
  });

  it('refuses a different sku or type with 400 and accepts the same ones', async () => {
    const created = (await post()).body.data;
    const answer = await put(created.id, { sku: 'OTHER-SKU', type: 'BUNDLE' });
    expect(answer.status).toBe(400);
    expect(pointers(answer).sort()).toEqual(['/data/attributes/sku', '/data/attributes/type']);
    expect((await put(created.id, { sku: created.attributes.sku, type: 'DEFAULT' })).status).toBe(200);
  });

  it('changes the barcode while the product has no stock, and answers 409 once it has', async () => {
    const created = (await post({ barcode: uniqueNumber('BC') })).body.data;
    const changed = await put(created.id, { barcode: uniqueNumber('BC') });
    expect(changed.status).toBe(200);
    await putStock(created.id, created.attributes.sku, 5);
    const refused = await put(created.id, { barcode: uniqueNumber('BC') });
    expect(refused.status).toBe(409);
    expect(pointers(refused)).toEqual(['/data/attributes/barcode']);
    expect((await put(created.id, { barcode: changed.body.data.attributes.barcode, name: 'Same barcode is fine' })).status).toBe(200);
  });

  it('refuses a barcode another product of the client has with 409', async () => {
    const barcode = uniqueNumber('BC');
    await post({ barcode });
    const id = (await post()).body.data.id;
    expect((await put(id, { barcode })).status).toBe(409);
  });

  it('checks the perishable rules on the product after the update', async () => {
    const id = (await post()).body.data.id;
    expect((await put(id, { hasExpirationDate: true })).status).toBe(400);
    expect(
      (await put(id, { hasExpirationDate: true, expirationDate: 'SCAN_AT_INBOUND', expirationDateMargin: 5, expirationDateWarning: 10 }))
        .status,
    ).toBe(200);
    expect((await put(id, { expirationDateWarning: 4 })).status).toBe(400);
  });

  it('answers 404 for an unknown product', async () => {
    expect((await put(999999, { name: 'x' })).status).toBe(404);
  });
});

describe('GET /v3/products', () => {
  it('filters by sku and barcode and pages by cursor', async () => {
    const other = await sb.newClient();
    const make = (attributes: Record<string, unknown>) => post(attributes, undefined, other.token);
    const a = (await make({ sku: 'FILTER-A', barcode: 'BARCODE-A' })).body.data.id;
    const b = (await make({ sku: 'FILTER-B' })).body.data.id;
    const c = (await make({ sku: 'FILTER-C', barcode: 'BARCODE-C' })).body.data.id;
    const list = (query: string) => sb.call('GET', `/v3/products${query}`, { token: other.token });
    expect((await list('?filter[sku][in]=FILTER-A,FILTER-C')).body.data.map((p: { id: number }) => p.id)).toEqual([a, c]);
    expect((await list('?filter[barcode][in]=BARCODE-C')).body.data.map((p: { id: number }) => p.id)).toEqual([c]);
    const first = await list('?page[size]=2');
    expect(first.body.data.map((p: { id: number }) => p.id)).toEqual([a, b]);
    const next = await sb.call('GET', first.body.links.next.replace('http://sandbox.test', ''), { token: other.token });
    expect(next.body.data.map((p: { id: number }) => p.id)).toEqual([c]);
    expect(next.body.links.next).toBeUndefined();
    expect((await list('?filter[sku][in]=FILTER-A,FILTER-A')).status).toBe(400);
  });
});

describe('tenancy', () => {
  it("another client's product is a 404 on read, update and image, and stays unchanged", async () => {
    const other = await sb.newClient();
    const created = (await post({ name: 'Mine' })).body.data;
    expect((await sb.call('GET', `/v3/products/${created.id}`, { token: other.token })).status).toBe(404);
    expect((await put(created.id, { name: 'Theirs' }, other.token)).status).toBe(404);
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4460000000049454e44ae426082',
      'hex',
    );
    const image = await sb.call('POST', `/v3/products/${created.id}/image`, {
      token: other.token,
      payload: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(image.status).toBe(404);
    expect((await sb.call('GET', '/v3/products', { token: other.token })).body.data).toEqual([]);
    const [row] = await sb.database.db.select().from(schema.products).where(eq(schema.products.id, created.id));
    expect(row.name).toBe('Mine');
    expect(row.imageContentType).toBeNull();
    expect(await storedFile(sb.database.db, 'productImage', created.id)).toBeUndefined();
    expect(codes((await sb.call('GET', `/v3/products/${created.id}`, { token: other.token })) as never)).toEqual(['404']);
  });
});
