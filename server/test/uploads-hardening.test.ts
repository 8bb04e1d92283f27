// Uploads never block the event loop: PDF compression bombs are refused by a bounded worker, large images are read
// in a worker and stored in parts, and GET /status keeps answering meanwhile (issue 11).
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { PART_BYTES } from '../src/platform/file-parts.ts';
import { fileCheckWorker, PoolBusyError, TaskLimitError, WorkerPool } from '../src/platform/untrusted-files/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';
import { multipart } from './support/multipart.ts';
import { httpCall, largePng, onePageA4Pdf, pdfBomb, watchStatus } from './support/uploads.ts';

/** The slowest GET /status allowed while an upload is handled; generous for a loaded two-core machine. */
const STATUS_WORST_MS = 500;
const BOMB_INFLATED_BYTES = 400 * 1024 * 1024;

let sb: TestSandbox;
let client: TestClient;
let baseUrl: string;
let externalOrderNumber: string;
let productId: number;
let bomb: Buffer;

beforeAll(async () => {
  // PGlite in a data folder, as `npm start` runs it (its in-memory file system copies growing files on large writes).
  sb = await startSandbox({}, { onDisk: true });
  await sb.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(sb.app.server.address() as { port: number }).port}`;
  client = await sb.newClient();
  await createProducts(sb, client.token, ['MUG']);
  externalOrderNumber = (
    await sb.call('POST', '/v3/orders', { token: client.token, body: orderDocument(client, { items: [{ sku: 'MUG', quantity: 1 }] }) })
  ).body.data.attributes.externalOrderNumber;
  [productId] = await createProducts(sb, client.token, [uniqueNumber('IMG')]);
  bomb = await pdfBomb(BOMB_INFLATED_BYTES);
  // Warm the worker and the tsx cache: the first file waits for the worker to start, which is not what is measured here.
  expect((await attach(await onePageA4Pdf())).status).toBe(201);
});
afterAll(() => sb.close());

function attach(file: Buffer) {
  const data = JSON.stringify({
    data: { type: 'orderAttachment', attributes: { filename: 'invoice.pdf', contentType: 'application/pdf', externalOrderNumber } },
  });
  const { payload, contentType } = multipart([
    { name: 'data', value: data },
    { name: 'file', value: file, filename: 'invoice.pdf', contentType: 'application/pdf' },
  ]);
  return httpCall(baseUrl, 'POST', '/v3/orderAttachments', { token: client.token, payload, contentType });
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** The digest of a stored file, computed by the database so 10 MiB do not come back, and how many parts hold it. */
async function storedDigest(owner: 'productImage' | 'orderAttachment', ownerId: number) {
  const { fileParts } = schema;
  const [stored] = await sb.database.db
    .select({
      md5: sql<string>`md5(string_agg(${fileParts.bytes}, ''::bytea order by ${fileParts.part}))`,
      parts: sql<number>`count(*)::int`,
    })
    .from(fileParts)
    .where(and(eq(fileParts.clientId, client.id), eq(fileParts.owner, owner), eq(fileParts.ownerId, ownerId)));
  return stored;
}

async function expectServerAnswers() {
  expect((await httpCall(baseUrl, 'GET', '/status')).status).toBe(200);
  expect((await httpCall(baseUrl, 'GET', `/v3/products/${productId}`, { token: client.token })).status).toBe(200);
}

describe('POST /v3/orderAttachments with a PDF compression bomb', () => {
  it('is a small file that decodes to hundreds of MB', () => {
    expect(bomb.length).toBeLessThan(limits.attachmentMaxBytes);
    expect(bomb.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('refuses the bomb with 400 on /file saying it expands too much, while /status keeps answering', async () => {
    const { result, worstMs, samples } = await watchStatus(baseUrl, () => attach(bomb));
    expect(result.status).toBe(400);
    expect(result.body.errors).toEqual([
      expect.objectContaining({
        status: '400',
        code: '400',
        source: { pointer: '/file' },
        detail: expect.stringMatching(/expands too much/),
      }),
    ]);
    expect(samples).toBeGreaterThanOrEqual(2);
    expect(worstMs).toBeLessThan(STATUS_WORST_MS);
    await expectServerAnswers();
  });

  it('refuses several bombs sent at once (400, or 503 when the check queue is full) and stays up', async () => {
    const { result: answers, worstMs } = await watchStatus(baseUrl, () => Promise.all(Array.from({ length: 6 }, () => attach(bomb))));
    for (const answer of answers) {
      expect([400, 503]).toContain(answer.status);
      if (answer.status === 400) expect(answer.body.errors[0].detail).toMatch(/expands too much/);
    }
    expect(answers.some((answer) => answer.status === 400)).toBe(true);
    expect(worstMs).toBeLessThan(STATUS_WORST_MS);
    await expectServerAnswers();
    expect((await attach(await onePageA4Pdf())).status).toBe(201);
  });

  it('still accepts a normal one-page A4 PDF, and a 4 MiB one stored byte for byte, while /status keeps answering', async () => {
    expect((await attach(await onePageA4Pdf())).status).toBe(201);
    const large = await onePageA4Pdf(randomBytes(4 * 1024 * 1024));
    const { result, worstMs } = await watchStatus(baseUrl, () => attach(large));
    expect(result.status).toBe(201);
    expect(worstMs).toBeLessThan(STATUS_WORST_MS);
    expect(await storedDigest('orderAttachment', result.body.data.id)).toEqual({
      md5: md5(large),
      parts: Math.ceil(large.length / PART_BYTES),
    });
  });
});

describe('POST /v3/products/{id}/image with an image just under the limit', () => {
  it('accepts it and stores it byte for byte, while /status keeps answering', async () => {
    const image = largePng(limits.productImageMaxBytes - 1);
    const { result, worstMs, samples } = await watchStatus(baseUrl, () =>
      httpCall(baseUrl, 'POST', `/v3/products/${productId}/image`, { token: client.token, payload: image, contentType: 'image/png' }),
    );
    expect(result.status).toBe(200);
    expect(result.body.meta).toMatchObject({ code: '200-1', contentType: 'image/png', size: image.length });
    expect(samples).toBeGreaterThanOrEqual(2);
    expect(worstMs).toBeLessThan(STATUS_WORST_MS);
    expect(await storedDigest('productImage', productId)).toEqual({ md5: md5(image), parts: Math.ceil(image.length / PART_BYTES) });
    const [product] = await sb.database.db
      .select({ contentType: schema.products.imageContentType })
      .from(schema.products)
      .where(eq(schema.products.id, productId));
    expect(product.contentType).toBe('image/png');
    await expectServerAnswers();
  });

  it('still refuses a large file that is not an image with 400-8', async () => {
    const answer = await httpCall(baseUrl, 'POST', `/v3/products/${productId}/image`, {
      token: client.token,
      payload: Buffer.alloc(1024 * 1024, 'x'),
      contentType: 'image/png',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].code).toBe('400-8');
  });
});

describe('the file-check worker pool', () => {
  const pool = (options: { queueMax: number; deadlineMs: number }) =>
    new WorkerPool({
      ...fileCheckWorker,
      ...options,
      size: 1,
      startupMs: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: 128 },
    });

  it('stops a file at its deadline and starts a new worker for the next one', async () => {
    const limited = pool({ queueMax: 1, deadlineMs: 1 });
    try {
      // A 400 MB bomb cannot be decoded (even to the 32 MiB budget) within 1 ms.
      await expect(limited.run('pdf', bomb)).rejects.toBeInstanceOf(TaskLimitError);
      await expect(limited.run('pdf', bomb)).rejects.toBeInstanceOf(TaskLimitError);
    } finally {
      await limited.close();
    }
  });

  it('lends a file to its worker without a copy and hands it back whole; a part of a larger buffer is copied', async () => {
    const lending = pool({ queueMax: 1, deadlineMs: 30_000 });
    try {
      const pdf = await onePageA4Pdf();
      const whole = new Uint8Array(pdf);
      // A Buffer that is the whole of its ArrayBuffer, as a large upload's body is.
      const sent = Buffer.from(new Uint8Array(pdf).buffer);
      const checked = await lending.lend('pdf', sent);
      expect(checked.result).toEqual({ outcome: 'pdf', pages: [{ width: 595.28, height: 841.89 }] });
      // Handed over: the caller's view is empty, and the bytes came back as they were.
      expect(sent.length).toBe(0);
      expect(Buffer.from(checked.bytes).equals(Buffer.from(whole))).toBe(true);
      // A view of part of a larger ArrayBuffer would take the rest along: it is copied, and the caller keeps it.
      const inside = Buffer.concat([Buffer.from('xx'), pdf]).subarray(2);
      const copied = await lending.lend('pdf', inside);
      expect(copied.result).toMatchObject({ outcome: 'pdf' });
      expect(inside.length).toBe(pdf.length);
      expect(Buffer.from(copied.bytes).equals(inside)).toBe(true);
      // run() always copies.
      const kept = Buffer.from(whole);
      expect(await lending.run('pdf', kept)).toMatchObject({ outcome: 'pdf' });
      expect(kept.length).toBe(whole.length);
    } finally {
      await lending.close();
    }
  });

  it('refuses a file at once when the queue is full, and finishes the others', async () => {
    const small = pool({ queueMax: 1, deadlineMs: 30_000 });
    try {
      const pdf = await onePageA4Pdf();
      const [first, second, third] = [small.run('pdf', pdf), small.run('pdf', pdf), small.run('pdf', pdf)];
      await expect(third).rejects.toBeInstanceOf(PoolBusyError);
      expect(await first).toEqual({ outcome: 'pdf', pages: [{ width: 595.28, height: 841.89 }] });
      expect(await second).toMatchObject({ outcome: 'pdf' });
    } finally {
      await small.close();
    }
  });
});
