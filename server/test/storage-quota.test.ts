// Each client's order attachments and product images together stay within its storage quota (STORAGE_QUOTA_MIB): a file
// that does not fit is refused with 413 (v3) or 400 NOK (v2) naming the quota and the usage, and writes nothing; a new
// image gives the bytes of the one it replaces back; concurrent uploads, on several processes too, never pass the quota
// together (issue 29, item 4).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { JSON_API_MEDIA_TYPE } from '@shopapi/contract';
import { buildApp } from '../src/app.ts';
import { openDatabase, queryRows, type Database, schema } from '../src/platform/db/index.ts';
import { dbKind, startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';
import { multipart } from './support/multipart.ts';
import { largePng, onePageA4Pdf } from './support/uploads.ts';
import { exchange, rawRequest } from './support/raw-http.ts';
import { fingerprint } from './support/fingerprint.ts';

const KiB = 1024;
const QUOTA = 1024 * KiB;

let sb: TestSandbox & { databaseUrl?: string };
let port: number;

beforeAll(async () => {
  sb = await startSandbox({ storageQuotaBytes: QUOTA });
  await sb.app.listen({ port: 0, host: '127.0.0.1' });
  port = (sb.app.server.address() as { port: number }).port;
});
afterAll(() => sb.close());

/** A client with one order to attach to. */
async function clientWithOrder(): Promise<TestClient & { externalOrderNumber: string }> {
  const client = await sb.newClient();
  await createProducts(sb, client.token, ['MUG']);
  const order = await sb.call('POST', '/v3/orders', {
    token: client.token,
    body: orderDocument(client, { items: [{ sku: 'MUG', quantity: 1 }] }),
  });
  return { ...client, externalOrderNumber: order.body.data.attributes.externalOrderNumber };
}

function attachmentBody(externalOrderNumber: string, file: Buffer) {
  const data = JSON.stringify({
    data: { type: 'orderAttachment', attributes: { filename: 'invoice.pdf', contentType: 'application/pdf', externalOrderNumber } },
  });
  return multipart([
    { name: 'data', value: data },
    { name: 'file', value: file, filename: 'invoice.pdf', contentType: 'application/pdf' },
  ]);
}

function attach(client: TestClient & { externalOrderNumber: string }, file: Buffer) {
  const { payload, contentType } = attachmentBody(client.externalOrderNumber, file);
  return sb.call('POST', '/v3/orderAttachments', { token: client.token, payload, headers: { 'content-type': contentType } });
}

const uploadImage = (app: FastifyInstance, client: TestClient, productId: number, image: Buffer) =>
  app.inject({
    method: 'POST',
    url: `/v3/products/${productId}/image`,
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'image/png' },
    payload: image,
  });

/** The client's usage as booked, and the bytes its parts really hold: always equal. */
async function usageOf(clientId: number) {
  const [row] = await queryRows<{ booked: string | null; stored: string }>(
    sb.database.db,
    sql`select (select bytes from storage_usage where client_id = ${clientId}) as booked,
      (select coalesce(sum(octet_length(bytes)), 0) from file_parts where client_id = ${clientId}) as stored`,
  );
  return { booked: Number(row.booked ?? 0), stored: Number(row.stored) };
}

const quotaDetail = (usedKiB: number, fileBytes: number) =>
  new RegExp(
    `storage quota is 1\\.0 MiB and your files .* take ${(usedKiB / 1024).toFixed(1).replace('.', '\\.')} MiB: this file of ${(fileBytes / 1024 / 1024).toFixed(1).replace('.', '\\.')} MiB does not fit`,
  );

describe('the storage quota on POST /v3/orderAttachments', () => {
  it('accepts attachments up to the quota, then refuses with 413 naming the quota and the usage, writing nothing', async () => {
    const client = await clientWithOrder();
    const pdf = await onePageA4Pdf(randomBytes(400 * KiB));
    expect((await attach(client, pdf)).status).toBe(201);
    expect((await attach(client, pdf)).status).toBe(201);
    expect(await usageOf(client.id)).toEqual({ booked: 2 * pdf.length, stored: 2 * pdf.length });

    const before = await fingerprint(sb.database.db, client.id);
    const refused = await attach(client, pdf);
    expect(refused.status).toBe(413);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        code: '413',
        status: '413',
        detail: expect.stringMatching(quotaDetail((2 * pdf.length) / KiB, pdf.length)),
      }),
    ]);
    expect(await fingerprint(sb.database.db, client.id)).toEqual(before);

    // A smaller file still fits in what is left.
    const small = await onePageA4Pdf();
    expect((await attach(client, small)).status).toBe(201);
    expect(await usageOf(client.id)).toEqual({ booked: 2 * pdf.length + small.length, stored: 2 * pdf.length + small.length });
  });

  it("counts each client's files on their own: another client still has its whole quota", async () => {
    const full = await clientWithOrder();
    const pdf = await onePageA4Pdf(randomBytes(700 * KiB));
    expect((await attach(full, pdf)).status).toBe(201);
    expect((await attach(full, pdf)).status).toBe(413);
    const other = await clientWithOrder();
    expect((await attach(other, pdf)).status).toBe(201);
  });

  it('leaves the connection usable after the refusal: the next request on it is served', async () => {
    const client = await clientWithOrder();
    const pdf = await onePageA4Pdf(randomBytes(900 * KiB));
    expect((await attach(client, pdf)).status).toBe(201);
    const { payload, contentType } = attachmentBody(client.externalOrderNumber, pdf);
    const refused = rawRequest(
      'POST',
      '/v3/orderAttachments',
      { authorization: `Bearer ${client.token}`, 'content-type': contentType, accept: JSON_API_MEDIA_TYPE },
      payload,
    );
    const { answers } = await exchange(port, [refused, rawRequest('GET', '/status')], { expected: 2, waitMs: 15_000 });
    expect(answers.map((answer) => answer.status)).toEqual([413, 200]);
  });
});

describe('the storage quota on product images', () => {
  it('gives the bytes of a replaced image back: a new image counts only for what it adds', async () => {
    const client = await sb.newClient();
    const [productId] = await createProducts(sb, client.token, [uniqueNumber('IMG')]);
    expect((await uploadImage(sb.app, client, productId, largePng(600 * KiB))).statusCode).toBe(200);
    // 600 KiB + 600 KiB would not fit; replacing the first, it does.
    expect((await uploadImage(sb.app, client, productId, largePng(700 * KiB))).statusCode).toBe(200);
    expect(await usageOf(client.id)).toEqual({ booked: 700 * KiB, stored: 700 * KiB });
    expect((await uploadImage(sb.app, client, productId, largePng(100 * KiB))).statusCode).toBe(200);
    expect(await usageOf(client.id)).toEqual({ booked: 100 * KiB, stored: 100 * KiB });

    const [second] = await createProducts(sb, client.token, [uniqueNumber('IMG')]);
    const refused = await uploadImage(sb.app, client, second, largePng(950 * KiB));
    expect(refused.statusCode).toBe(413);
    expect(JSON.parse(refused.body).errors[0].detail).toMatch(quotaDetail(100, 950 * KiB));
    expect(await usageOf(client.id)).toEqual({ booked: 100 * KiB, stored: 100 * KiB });
  });

  it('counts a v2 encodedImage too, refused with 400 NOK naming the quota; the product is not added', async () => {
    const client = await sb.newClient();
    const [productId] = await createProducts(sb, client.token, [uniqueNumber('IMG')]);
    expect((await uploadImage(sb.app, client, productId, largePng(1000 * KiB))).statusCode).toBe(200);
    const image = largePng(50 * KiB);
    const sku = uniqueNumber('V2Q');
    const refused = await sb.call('POST', '/product/add', {
      token: client.token,
      body: { sku, name: 'Q', encodedImage: image.toString('base64') },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ messageCode: 'NOK', message: expect.stringMatching(quotaDetail(1000, image.length)) });
    const found = await sb.call('POST', '/product/search', { token: client.token, body: { sku } });
    expect(found.body.messageCode).toBe('NOK');

    // The product with the large image: the new one replaces it, so it fits, and only the new one counts.
    const edit = await sb.call('POST', '/product/edit', {
      token: client.token,
      body: {
        sku: (await sb.call('GET', `/v3/products/${productId}`, { token: client.token })).body.data.attributes.sku,
        encodedImage: image.toString('base64'),
      },
    });
    expect(edit.status).toBe(200);
    expect(await usageOf(client.id)).toEqual({ booked: image.length, stored: image.length });
  });
});

describe('the storage quota under concurrent uploads', () => {
  let second: { app: FastifyInstance; database: Database } | undefined;
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  it('accepts exactly the uploads that fit when they race, on two server processes on PostgreSQL', async () => {
    // On PostgreSQL a second app with its own pool on the same database, as a second process; PGlite has one process.
    if (dbKind() === 'postgres') {
      const database = await openDatabase({ databaseUrl: sb.databaseUrl, poolSize: 5 });
      second = { app: await buildApp({ db: database.db, config: sb.config, logger: false }), database };
      await second.app.ready();
    }
    const apps = [sb.app, second?.app ?? sb.app];
    const client = await sb.newClient();
    const productIds = await createProducts(
      sb,
      client.token,
      Array.from({ length: 8 }, () => uniqueNumber('RACE')),
    );
    // Three fit in 1 MiB, a fourth does not.
    const image = largePng(300 * KiB);
    const answers = await Promise.all(productIds.map((id, index) => uploadImage(apps[index % 2], client, id, image)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 413, 413, 413, 413, 413]);
    expect(await usageOf(client.id)).toEqual({ booked: 3 * image.length, stored: 3 * image.length });
    const withImage = await sb.database.db
      .select({ id: schema.products.id })
      .from(schema.products)
      .where(sql`${schema.products.clientId} = ${client.id} and ${schema.products.imageContentType} is not null`);
    expect(withImage).toHaveLength(3);
  });
});

describe('STORAGE_QUOTA_MIB=0', () => {
  // It starts a sandbox of its own (a fresh embedded database and its migrations): on a loaded machine that takes a while.
  it('turns the quota off', { timeout: 180_000 }, async () => {
    const unlimited = await startSandbox({ storageQuotaBytes: 0 });
    try {
      const client = await unlimited.newClient();
      const [productId] = await createProducts(unlimited, client.token, [uniqueNumber('IMG')]);
      expect((await uploadImage(unlimited.app, client, productId, largePng(2 * QUOTA))).statusCode).toBe(200);
      const [row] = await unlimited.database.db
        .select({ bytes: schema.storageUsage.bytes })
        .from(schema.storageUsage)
        .where(eq(schema.storageUsage.clientId, client.id));
      expect(row.bytes).toBe(2 * QUOTA);
    } finally {
      await unlimited.close();
    }
  });
});
