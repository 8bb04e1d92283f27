import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { PART_BYTES, storedFile } from '../src/platform/file-parts.ts';
import { fingerprint } from './support/fingerprint.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, uniqueNumber } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;
let productId: number;

// The smallest real files of a few accepted types.
const png = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4460000000049454e44ae426082',
  'hex',
);
const gif = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');
const jpeg = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(64), Buffer.from('ffd9', 'hex')]);
const webp = Buffer.from('524946461a000000574542505650384c0d0000002f0000001007101111888808', 'hex');
const bmp = Buffer.concat([
  Buffer.from('424d3a000000000000003600000028000000010000000100000001001800000000000400000000000000000000000000000000000000', 'hex'),
  Buffer.from('ffffff00', 'hex'),
]);
const psd = Buffer.concat([Buffer.from('38425053000100000000000000030000000100000001000800030000000000000000', 'hex'), Buffer.alloc(32)]);

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  [productId] = await createProducts(sb, client.token, [uniqueNumber('IMG')]);
});
afterAll(() => sb.close());

const upload = (payload: Buffer, contentType = 'image/png', id = productId, token = client.token) =>
  sb.call('POST', `/v3/products/${id}/image`, { token, payload, headers: { 'content-type': contentType } });
const stored = async (id = productId) => (await sb.database.db.select().from(schema.products).where(eq(schema.products.id, id)))[0];
const storedImage = (id = productId) => storedFile(sb.database.db, 'productImage', id);
/** A real PNG followed by zeros: still a PNG by its magic number, as large as needed. */
const padded = (size: number) => Buffer.concat([png, Buffer.alloc(size - png.length)]);

describe('POST /v3/products/{id}/image', () => {
  it('accepts a PNG with code 200-1 and stores it', async () => {
    const answer = await upload(png);
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toMatchObject({ code: '200-1', title: 'Image accepted', contentType: 'image/png', size: png.length });
    expect(answer.body.data).toMatchObject({ type: 'product', id: productId });
    expect(await storedImage()).toEqual(png);
    expect((await stored()).imageContentType).toBe('image/png');
  });

  it('accepts jpeg, gif, bmp, webp and Photoshop files by their bytes', async () => {
    for (const [file, contentType, detected] of [
      [jpeg, 'image/jpeg', 'image/jpeg'],
      [jpeg, 'image/pjpeg', 'image/jpeg'],
      [gif, 'image/gif', 'image/gif'],
      [bmp, 'image/bmp', 'image/bmp'],
      [webp, 'image/webp', 'image/webp'],
      [psd, 'image/x-photoshop', 'image/vnd.adobe.photoshop'],
      [png, 'image/x-png', 'image/png'],
    ] as const) {
      const answer = await upload(file, contentType);
      expect(answer.status, contentType).toBe(200);
      expect(answer.body.meta.contentType).toBe(detected);
    }
  });

  it('keeps one image per product: a new upload replaces the old one, all of its parts', async () => {
    const large = padded(3 * PART_BYTES + 1);
    expect((await upload(large)).status).toBe(200);
    // Compared as buffers: a deep equality walks 768 KiB element by element.
    expect(Buffer.compare((await storedImage())!, large)).toBe(0);
    expect((await upload(gif, 'image/gif')).status).toBe(200);
    expect((await stored()).imageContentType).toBe('image/gif');
    expect(await storedImage()).toEqual(gif);
  });

  it('decides by the bytes, not the header: a PNG sent as application/octet-stream is accepted', async () => {
    expect((await upload(png, 'application/octet-stream')).body.meta.contentType).toBe('image/png');
  });

  it('rejects a text file that claims to be a PNG with 400-8 and writes nothing', async () => {
    expect((await upload(png)).status).toBe(200);
    const before = await fingerprint(sb.database.db, client.id);
    // The digest covers the stored parts, so a change to them would show.
    expect(before).toMatch(/file_parts=[1-9]/);
    const answer = await upload(Buffer.from('definitely not an image'), 'image/png');
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: { code: string }) => e.code)).toEqual(['400-8']);
    expect(await fingerprint(sb.database.db, client.id)).toBe(before);
    expect(await storedImage()).toEqual(png);
  });

  it('rejects types outside the list (a PDF, a TIFF) and an empty body with 400-8', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
    const tiff = Buffer.concat([Buffer.from('49492a00080000000000', 'hex'), Buffer.alloc(32)]);
    for (const [file, type] of [
      [pdf, 'image/png'],
      [tiff, 'image/tiff'],
      [Buffer.alloc(0), 'image/png'],
    ] as const) {
      const answer = await upload(file, type);
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].code).toBe('400-8');
    }
  });

  it('accepts an image just under 10 MiB and rejects one of 10 MiB or more with 400-8', async () => {
    expect((await upload(padded(limits.productImageMaxBytes - 1))).status).toBe(200);
    for (const size of [limits.productImageMaxBytes, limits.productImageMaxBytes + 1]) {
      const answer = await upload(padded(size));
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].code).toBe('400-8');
    }
  });

  it('answers 415 to a body that is not an image type', async () => {
    expect((await upload(png, 'text/plain')).status).toBe(415);
  });

  it("answers 404 for an unknown product and for another client's product", async () => {
    expect((await upload(png, 'image/png', 999999)).status).toBe(404);
    const other = await sb.newClient();
    const [theirs] = await createProducts(sb, other.token, [uniqueNumber('IMG')]);
    expect((await upload(png, 'image/png', theirs)).status).toBe(404);
    expect(await storedImage(theirs)).toBeUndefined();
    expect((await stored(theirs)).imageContentType).toBeNull();
  });
});
