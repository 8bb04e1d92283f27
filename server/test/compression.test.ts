// Compressed answers: the portal's files and the API's answers (also the order list, sent as a prebuilt Buffer) come
// in br or gzip when the client accepts it, and decompress to exactly the uncompressed answer.
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { operations } from '@shopapi/contract';
import { buildApp, composeServices } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/platform/db/index.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { createDemoProducts } from '../src/modules/demo/service.ts';

let app: FastifyInstance;
let database: Database;
let token: string;
const build = mkdtempSync(join(tmpdir(), 'portal-build-'));
const script = `// a portal chunk\n${Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n')}\n`;

const decoders: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };
/** The build's Brotli copy of a page (portal/plugins/precompress), at the quality the server does not use on the fly. */
const page = `<html><body>${'<p>the docs</p>'.repeat(200)}</body></html>`;
const pageBrotli = brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } });

beforeAll(async () => {
  writeFileSync(join(build, 'index.html'), '<html><body>home</body></html>');
  mkdirSync(join(build, 'assets'));
  writeFileSync(join(build, 'assets', 'main.js'), script);
  writeFileSync(join(build, 'assets', 'other.js'), script);
  mkdirSync(join(build, 'docs'));
  writeFileSync(join(build, 'docs', 'index.html'), page);
  writeFileSync(join(build, 'docs', 'index.html.br'), pageBrotli);
  database = await openDatabase({ inMemory: true });
  const config = loadConfig({ logLevel: 'silent' });
  const services = composeServices(config);
  app = await buildApp({ db: database.db, config, services, logger: false, portalDir: build });
  const client = await createClient(database.db, { username: 'demo', password: 'demo-password-123' });
  await createDemoProducts(database.db, services.eventPayloads, client);
  const answer = await app.inject({
    method: 'POST',
    url: '/token',
    payload: 'grant_type=password&username=demo&password=demo-password-123',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  token = answer.json().access_token;
  // The reference's createOrder example, sent as it is (with its own order numbers): the demo client has its skus.
  const example = operations.find((operation) => operation.operationId === 'createOrder')!.requestExample as {
    data: { attributes: Record<string, unknown> };
  };
  for (let n = 1; n <= 4; n++) {
    const body = structuredClone(example);
    body.data.attributes.externalOrderNumber = `COMPRESS-${n}`;
    const created = await app.inject({
      method: 'POST',
      url: '/v3/orders',
      payload: body,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
    });
    expect(created.statusCode, created.body).toBe(201);
  }
});

afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(build, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  app.inject({
    method: 'GET',
    url,
    headers: {
      authorization: `Bearer ${token}`,
      accept: url.startsWith('/v3') ? 'application/vnd.api+json' : '*/*',
      ...(encoding ? { 'accept-encoding': encoding } : {}),
    },
  });

describe('compressed answers', () => {
  it.each([
    '/assets/main.js',
    '/v3/orders?include=orderItems',
    '/v3/products',
    '/v3/orders/1?include=orderItems,deliveryAddress,billingAddress',
  ])('%s comes in br and gzip, and as it is without Accept-Encoding', async (url) => {
    const plain = await get(url);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      const answer = await get(url, `${encoding}, deflate`);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding'], `${url} ${encoding}`).toBe(encoding);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decoders[encoding](answer.rawPayload).toString()).toBe(plain.body);
    }
  });

  it('prefers br when both are accepted', async () => {
    expect((await get('/assets/main.js', 'gzip, br')).headers['content-encoding']).toBe('br');
  });

  it("sends the build's Brotli copy of a file as it is, and compresses the file itself for a client without br", async () => {
    const brotli = await get('/docs/', 'gzip, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.equals(pageBrotli)).toBe(true);
    const gzip = await get('/docs/', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(page);
    expect((await get('/docs/')).body).toBe(page);
  });

  it("lets browsers keep the build's content-named scripts for good, and revalidate its pages", async () => {
    // With and without a Brotli copy of its own, and to a client that takes only gzip or nothing.
    writeFileSync(join(build, 'assets', 'main.js.br'), brotliCompressSync(script));
    for (const encoding of ['br', 'gzip', undefined]) {
      for (const asset of ['/assets/main.js', '/assets/other.js']) {
        expect((await get(asset, encoding)).headers['cache-control'], `${asset} ${encoding}`).toBe('public, max-age=31536000, immutable');
      }
      expect((await get('/docs/', encoding)).headers['cache-control'], `/docs/ ${encoding}`).toBe('public, max-age=0');
    }
  });

  it('leaves request bodies as sent: a gzip-encoded token request is not inflated into a valid one', async () => {
    const form = 'grant_type=password&username=demo&password=demo-password-123';
    const answer = await app.inject({
      method: 'POST',
      url: '/token',
      payload: gzipSync(form),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
    });
    expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    expect(answer.statusCode).toBeLessThan(500);
  });
});
