// Compressed answers: the portal's files and the API's answers (also the order list, sent as a prebuilt Buffer) come
// in br or gzip when the client accepts it, and decompress to exactly the uncompressed answer.
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { operations } from '@shopapi/contract';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/platform/db/index.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { createDemoProducts } from '../src/modules/clients/demo.ts';

let app: FastifyInstance;
let database: Database;
let token: string;
const build = mkdtempSync(join(tmpdir(), 'portal-build-'));
const script = `// a portal chunk\n${Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n')}\n`;

const decoders: Record<string, (body: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

beforeAll(async () => {
  writeFileSync(join(build, 'index.html'), '<html><body>home</body></html>');
  mkdirSync(join(build, 'assets'));
  writeFileSync(join(build, 'assets', 'main.js'), script);
  database = await openDatabase({ inMemory: true });
  app = await buildApp({ db: database.db, config: loadConfig({ logLevel: 'silent' }), logger: false, portalDir: build });
  const client = await createClient(database.db, { username: 'demo', password: 'demo-password-123' });
  await createDemoProducts(database.db, client);
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
