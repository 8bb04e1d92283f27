// The request log: each call of a client is kept with its bodies (bounded, credentials redacted) and read back newest
// first; Request-Id on every answer; other clients' entries are invisible; retention per client and by age.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { RequestLogWriter } from '../src/modules/request-log/writer.ts';
import { redact } from '../src/modules/request-log/redact.ts';
import { type Db, queryRows } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { multipart } from './support/multipart.ts';

let sb: Awaited<ReturnType<typeof startSandbox>>;
let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  sb = await startSandbox({ requestLogBodyMaxBytes: 4096 });
  client = await sb.newClient();
  other = await sb.newClient();
});
afterAll(() => sb.close());

type Entry = { id: string; attributes: Record<string, any>; links: { self: string } };
const list = async (query = '', token = client.token) => {
  const answer = await sb.call<{ data: Entry[]; links: { next?: string } }>('GET', `/sandbox/requests${query}`, { token });
  expect(answer.status).toBe(200);
  return answer.body;
};
const entry = async (requestId: string, token = client.token) =>
  sb.call<{ data: Entry }>('GET', `/sandbox/requests/${requestId}`, { token });
const requestIdOf = (answer: { headers: Record<string, unknown> }) => String(answer.headers['request-id']);

describe('Request-Id', () => {
  it('comes with every answer, v3, v2, token and portal, and is new for each request', async () => {
    const answers = [
      await sb.call('GET', '/v3/orders', { token: client.token }),
      await sb.call('GET', '/status/get'),
      await sb.call('POST', '/token', { form: { grant_type: 'password', username: 'nobody', password: 'wrong-password' } }),
      await sb.call('GET', '/v3/orders'),
    ];
    const ids = answers.map(requestIdOf);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(answers.map((a) => a.headers['x-request-id'])).toEqual(ids);
  });

  it("is the server's own: a client cannot choose it", async () => {
    const answer = await sb.call('GET', '/v3/orders', { token: client.token, headers: { 'x-request-id': 'mine', 'request-id': 'mine' } });
    expect(requestIdOf(answer)).not.toBe('mine');
  });

  it('is in the meta of JSON:API error bodies', async () => {
    const answer = await sb.call('GET', '/v3/orders/999999', { token: client.token });
    expect(answer.status).toBe(404);
    expect(answer.body.meta).toEqual({ requestId: requestIdOf(answer) });
  });
});

describe('GET /sandbox/requests', () => {
  it("lists the client's calls newest first, with the token request that started them", async () => {
    const fresh = await sb.newClient();
    const orders = await sb.call('GET', '/v3/orders?page[size]=5', { token: fresh.token });
    const { data } = await list('', fresh.token);
    expect(data.map((e) => e.attributes.operationId)).toEqual(['listOrders', 'getSettings', 'requestToken']);
    expect(data[0]).toMatchObject({
      type: 'sandboxRequest',
      id: requestIdOf(orders),
      attributes: { api: 'v3', method: 'GET', url: '/v3/orders?page[size]=5', status: 200, warnings: [] },
      links: { self: `http://sandbox.test/sandbox/requests/${requestIdOf(orders)}` },
    });
    expect(data[0].attributes.durationMs).toBeGreaterThan(0);
    expect(Date.parse(data[0].attributes.receivedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(data[0].attributes.response).toEqual({
      contentType: 'application/vnd.api+json',
      bytes: Buffer.byteLength(orders.raw),
      truncated: false,
      body: orders.raw,
    });
    expect(data[0].attributes.request).toEqual({ contentType: null, bytes: 0, truncated: false, body: null });
    // One representation: the entry alone is the entry in the page.
    expect((await entry(data[0].id, fresh.token)).body.data).toEqual(data[0]);
    expect(data[1].attributes.api).toBe('v2');
    expect(data[2].attributes.api).toBe('token');
  });

  it('keeps the bodies, as sent and as answered, with the password and the token redacted', async () => {
    const fresh = await sb.newClient();
    const {
      data: [tokenEntry],
    } = await list('?filter[path]=/token', fresh.token);
    const { data } = await entry(tokenEntry.id, fresh.token).then((a) => a.body);
    expect(data.attributes.request.contentType).toBe('application/x-www-form-urlencoded');
    expect(data.attributes.request.body).toBe(`grant_type=password&username=${fresh.username}&password=[redacted]`);
    expect(data.attributes.request.body).not.toContain(fresh.password);
    expect(data.attributes.response.body).not.toContain(fresh.token);
    expect(JSON.parse(data.attributes.response.body)).toMatchObject({
      access_token: '[redacted]',
      token_type: 'bearer',
      userName: fresh.username,
    });
  });

  it('keeps a v3 create with its document and answer, and never the Authorization header', async () => {
    await createProducts(sb, client.token, ['LOG-SKU-1']);
    const document = orderDocument(client, { items: [{ sku: 'LOG-SKU-1', quantity: 2 }] });
    const created = await sb.call('POST', '/v3/orders', { token: client.token, body: document });
    expect(created.status).toBe(201);
    const { data } = (await entry(requestIdOf(created))).body;
    expect(data.attributes).toMatchObject({ api: 'v3', operationId: 'createOrder', method: 'POST', status: 201 });
    expect(JSON.parse(data.attributes.request.body)).toEqual(document);
    expect(data.attributes.request.bytes).toBe(Buffer.byteLength(JSON.stringify(document)));
    expect(data.attributes.response.body).toBe(created.raw);
    expect(JSON.stringify(data)).not.toContain(client.token);
  });

  it('redacts the webhook secret from the create answer', async () => {
    const created = await sb.call('POST', '/v3/webhooks', {
      token: client.token,
      body: {
        data: {
          type: 'webhook',
          attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: 'https://shop.example.com/hooks' },
        },
      },
    });
    expect(created.status).toBe(201);
    const secret = created.body.data.attributes.secret;
    const { data } = (await entry(requestIdOf(created))).body;
    expect(data.attributes.response.body).not.toContain(secret);
    expect(JSON.parse(data.attributes.response.body).data.attributes.secret).toBe('[redacted]');
  });

  it('keeps errors with their answer, and v2 calls in their own words', async () => {
    const missing = await sb.call('GET', '/v3/orders/424242', { token: client.token });
    const v2 = await sb.call('POST', '/order/add', { token: client.token, body: { externalOrderNumber: 'X' } });
    const [v3Entry, v2Entry] = await Promise.all([entry(requestIdOf(missing)), entry(requestIdOf(v2))]);
    expect(v3Entry.body.data.attributes).toMatchObject({ status: 404, api: 'v3' });
    expect(JSON.parse(v3Entry.body.data.attributes.response.body)).toEqual(missing.body);
    expect(v2Entry.body.data.attributes).toMatchObject({ status: v2.status, api: 'v2', operationId: 'addOrderV2' });
    expect(JSON.parse(v2Entry.body.data.attributes.request.body)).toEqual({ externalOrderNumber: 'X' });
  });

  it('keeps the warnings of a lenient call, the same ones its Sandbox-Warning headers carried', async () => {
    const v2 = await sb.call('POST', '/order/search', { token: client.token, body: { ExternalOrderNumber: 'NONE-1', Colour: 'blue' } });
    const v3 = await sb.call('GET', '/v3/orders?page[size]=500', { token: client.token });
    for (const answer of [v2, v3]) {
      const headerLines = ([] as string[]).concat(answer.headers['sandbox-warning'] as string | string[]);
      const { data } = (await entry(requestIdOf(answer))).body;
      expect(data.attributes.warnings.length).toBeGreaterThan(0);
      expect(
        data.attributes.warnings.map(
          (w: { kind: string; source?: string; detail: string }) => `${w.kind}${w.source ? ` ${w.source}` : ''}: ${w.detail}`,
        ),
      ).toEqual(headerLines);
    }
    const { data } = (await entry(requestIdOf(v2))).body;
    expect(data.attributes.warnings).toContainEqual(expect.objectContaining({ kind: 'ignored', source: '/Colour' }));
  });

  it('cuts long bodies at the configured size and says so', async () => {
    const comment = 'x'.repeat(10_000);
    const answer = await sb.call('POST', '/order/add', { token: client.token, body: { externalOrderNumber: 'LONG', comment } });
    const { data } = (await entry(requestIdOf(answer))).body;
    expect(data.attributes.request).toMatchObject({
      truncated: true,
      bytes: Buffer.byteLength(JSON.stringify({ externalOrderNumber: 'LONG', comment })),
    });
    expect(data.attributes.request.body).toHaveLength(4096);
  });

  it('stores a body as it came, character for character, as text that the database compresses (lz4 where it has it)', async () => {
    const comment = 'Café ☕ naïve 東京 '.repeat(100);
    const sent = { externalOrderNumber: 'COMPRESSED', comment };
    const answer = await sb.call('POST', '/order/add', { token: client.token, body: sent });
    const { data } = (await entry(requestIdOf(answer))).body;
    expect(data.attributes.request).toEqual({
      contentType: 'application/json',
      body: JSON.stringify(sent),
      bytes: Buffer.byteLength(JSON.stringify(sent)),
      truncated: false,
    });
    expect(data.attributes.response.body).toBe(answer.raw);
    const [stored] = await queryRows<{ request_body: string | null; brotli: boolean; method: string | null; response_body: string | null }>(
      sb.database.db,
      sql`select request_body, request_body_brotli is not null as brotli, pg_column_compression(request_body) as method, response_body
        from request_log where request_id = ${requestIdOf(answer)}`,
    );
    expect(stored).toMatchObject({ request_body: JSON.stringify(sent), brotli: false, response_body: answer.raw });
    // 2.3 KB of body make the row long enough for the database to compress it: with lz4 on PostgreSQL (migration 0013).
    const [{ lz4 }] = await queryRows<{ lz4: boolean }>(
      sb.database.db,
      sql`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`,
    );
    expect(stored.method).toBe(lz4 ? 'lz4' : 'pglz');
    if (sb.databaseUrl) expect(lz4).toBe(true);
  });

  it('describes an upload by type and size, without its bytes', async () => {
    const file = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(2000, 0x20), Buffer.from('\n%%EOF\n')]);
    const data = JSON.stringify({ data: { type: 'orderAttachment', attributes: { fileName: 'invoice.pdf' } } });
    const { payload, contentType } = multipart([
      { name: 'data', value: data },
      { name: 'file', value: file, filename: 'invoice.pdf', contentType: 'application/pdf' },
    ]);
    const answer = await sb.call('POST', '/v3/orderAttachments', {
      token: client.token,
      payload,
      headers: { 'content-type': contentType },
    });
    const { data: logged } = (await entry(requestIdOf(answer))).body;
    expect(logged.attributes).toMatchObject({ operationId: 'createOrderAttachment', status: answer.status });
    expect(logged.attributes.request).toEqual({ contentType, body: null, bytes: payload.length, truncated: false });
  });

  it('filters by status, method, path prefix and request id, and pages with the next link', async () => {
    const fresh = await sb.newClient();
    const missing = await sb.call('GET', '/v3/orders/1', { token: fresh.token });
    await sb.call('GET', '/v3/shipments', { token: fresh.token });
    await sb.call('POST', '/sandbox/clock/advance', { token: fresh.token, body: { seconds: 60 } });
    const ops = async (query: string) => (await list(query, fresh.token)).data.map((e) => e.attributes.operationId);
    expect(await ops('?filter[status]=4xx')).toEqual(['getOrder']);
    expect(await ops('?filter[status]=404,200')).toEqual([
      'sandboxAdvanceClock',
      'listShipments',
      'getOrder',
      'getSettings',
      'requestToken',
    ]);
    expect(await ops('?filter[method]=post')).toEqual(['sandboxAdvanceClock', 'requestToken']);
    expect(await ops('?filter[path]=/v3/')).toEqual(['listShipments', 'getOrder']);
    expect(await ops('?filter[path]=/sandbox/')).toEqual(['sandboxAdvanceClock']);
    expect(await ops(`?filter[requestId]=${requestIdOf(missing)}`)).toEqual(['getOrder']);
    const all: string[] = [];
    let url: string | undefined = '/sandbox/requests?page[size]=2';
    while (url) {
      const page: { data: Entry[]; links: { next?: string } } = (await sb.call('GET', url, { token: fresh.token })).body;
      expect(page.data.length).toBeLessThanOrEqual(2);
      all.push(...page.data.map((e) => e.attributes.operationId));
      url = page.links.next && new URL(page.links.next).pathname + new URL(page.links.next).search;
    }
    expect(all).toEqual(['sandboxAdvanceClock', 'listShipments', 'getOrder', 'getSettings', 'requestToken']);
  });

  it('answers bad filters with 400 naming them', async () => {
    for (const query of [
      'filter[status]=600',
      'filter[status]=4x',
      'filter[method]=G%20T',
      'filter[path]=v3',
      'filter[requestId]=abc',
      'filter[verb]=GET',
      'page[cursor]=0',
    ]) {
      const answer = await sb.call('GET', `/sandbox/requests?${query}`, { token: client.token });
      expect(answer.status, query).toBe(400);
    }
  });

  it("shows a client only its own calls: another client's request id is 404", async () => {
    const mine = await sb.call('GET', '/v3/products', { token: client.token });
    expect((await entry(requestIdOf(mine), other.token)).status).toBe(404);
    expect((await list(`?filter[requestId]=${requestIdOf(mine)}`, other.token)).data).toEqual([]);
    expect((await entry(requestIdOf(mine))).status).toBe(200);
  });

  it('does not log reading the log, nor calls without a valid token', async () => {
    const fresh = await sb.newClient();
    await list('', fresh.token);
    await sb.call('GET', '/v3/orders', { token: 'not-a-token' });
    expect((await list('', fresh.token)).data.map((e) => e.attributes.operationId)).toEqual(['getSettings', 'requestToken']);
  });

  it('leaves out a GET or HEAD sent with Sandbox-Log: skip, and logs a write whatever it asks', async () => {
    const fresh = await sb.newClient();
    const skip = { 'sandbox-log': 'skip' };
    await sb.call('GET', '/v3/orders', { token: fresh.token, headers: skip });
    // HEAD answers as GET does but is not a documented operation: past the OpenAPI check.
    const head = (headers: Record<string, string>) =>
      sb.app.inject({ method: 'HEAD', url: '/sandbox/clock', headers: { authorization: `Bearer ${fresh.token}`, ...headers } });
    expect((await head({ 'Sandbox-Log': 'Skip' })).statusCode).toBe(200);
    await sb.call('GET', '/sandbox/clock', { token: fresh.token, headers: skip });
    await sb.call('GET', '/v3/orders/999999', { token: fresh.token, headers: skip });
    const logged = await sb.call('GET', '/v3/products', { token: fresh.token });
    const write = await sb.call('POST', '/sandbox/clock/advance', { token: fresh.token, body: { seconds: 60 }, headers: skip });
    expect(write.status).toBe(200);
    const { data } = await list('', fresh.token);
    expect(data.map((e) => e.attributes.operationId)).toEqual(['sandboxAdvanceClock', 'listProducts', 'getSettings', 'requestToken']);
    expect(data.map((e) => e.id).slice(0, 2)).toEqual([requestIdOf(write), requestIdOf(logged)]);
    // Any other value is no request to skip.
    await sb.call('GET', '/v3/orders', { token: fresh.token, headers: { 'sandbox-log': 'no' } });
    expect((await list('?page[size]=1', fresh.token)).data[0].attributes.operationId).toBe('listOrders');
    await head({});
    expect((await list('?page[size]=1', fresh.token)).data[0].attributes).toMatchObject({ method: 'HEAD', url: '/sandbox/clock' });
  });
});

describe('retention', () => {
  it("keeps each client's newest entries up to the configured count", async () => {
    const small = await startSandbox({ requestLogMaxPerClient: 5 });
    try {
      const fresh = await small.newClient();
      const tenant = await small.newClient();
      for (let i = 0; i < 8; i++) await small.call('GET', `/v3/orders?page[size]=${i + 1}`, { token: fresh.token });
      const { body } = await small.call('GET', '/sandbox/requests?page[size]=100', { token: fresh.token });
      expect(body.data.map((e: Entry) => e.attributes.url)).toEqual([8, 7, 6, 5, 4].map((n) => `/v3/orders?page[size]=${n}`));
      // The other client's entries are its own to keep.
      expect((await small.call('GET', '/sandbox/requests', { token: tenant.token })).body.data).toHaveLength(2);
    } finally {
      await small.close();
    }
  });

  it('deletes entries older than the configured age', async () => {
    await sb.call('GET', '/v3/orders', { token: other.token });
    await sb.app.requestLog.flush();
    expect((await list('', other.token)).data.length).toBeGreaterThan(0);
    const deleted = await sb.app.requestLog.deleteExpired(new Date(Date.now() + 8 * 86_400_000));
    expect(deleted).toBeGreaterThan(0);
    expect((await list('', other.token)).data).toEqual([]);
  });

  it('is off with REQUEST_LOG_MAX_PER_CLIENT=0, and every call still answers', async () => {
    const off = await startSandbox({ requestLogMaxPerClient: 0 });
    try {
      const fresh = await off.newClient();
      expect((await off.call('GET', '/v3/orders', { token: fresh.token })).status).toBe(200);
      expect((await off.call('GET', '/sandbox/requests', { token: fresh.token })).body.data).toEqual([]);
    } finally {
      await off.close();
    }
  });
});

describe('bodies PostgreSQL cannot store as they are', () => {
  it('keeps a call whose body has a NUL character, with U+FFFD in its place, and the calls of other clients beside it', async () => {
    const sender = await sb.newClient();
    const bystander = await sb.newClient();
    const body = '{"data":"a\u0000b"}';
    const hostile = await sb.call('POST', '/v3/orders', {
      token: sender.token,
      payload: body,
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(hostile.status).toBe(400);
    const beside = await sb.call('GET', '/v3/orders', { token: bystander.token });
    await sb.app.requestLog.flush();
    const [kept] = (await list('', sender.token)).data;
    expect(kept.id).toBe(requestIdOf(hostile));
    expect(kept.attributes.request).toMatchObject({ body: '{"data":"a\uFFFDb"}', bytes: Buffer.byteLength(body), truncated: false });
    expect((await list('', bystander.token)).data[0].id).toBe(requestIdOf(beside));
  });
});

describe('the writer', () => {
  const entryOf = (n: number) => ({
    clientId: 1,
    requestId: `r${n}`,
    receivedAt: new Date(),
    api: 'v3',
    method: 'GET',
    url: '/v3/orders',
    status: 200,
    durationMs: 1,
    warnings: [],
  });

  /** A writer whose entries go to `insert`; after an insert it asks the database for the client's oldest entry kept. */
  const noEntriesKept = {
    select: () => ({ from: () => ({ where: () => ({ orderBy: () => ({ offset: () => ({ limit: async () => [] }) }) }) }) }),
  } as unknown as Db;
  const writerOver = (insert: () => Promise<void>, opts: Partial<ConstructorParameters<typeof RequestLogWriter>[1]> = {}) =>
    new (class extends RequestLogWriter {
      protected override insertRows = insert;
    })(noEntriesKept, { maxPerClient: 10, maxAgeSeconds: 60, ...opts });

  it('trims a client once a tenth of its count was written since the last trim: never more than that over the count', async () => {
    const owner = await sb.newClient();
    // Its token and settings calls are in the log first (the oldest: trimmed away below).
    await sb.app.requestLog.flush();
    // 30 kept: trimmed every 3 entries of the client, so it holds 30 to 32.
    const writer = new RequestLogWriter(sb.database.db, { maxPerClient: 30, maxAgeSeconds: 3600 });
    const kept = async () =>
      (await queryRows<{ n: number }>(sb.database.db, sql`select count(*)::int as n from request_log where client_id = ${owner.id}`))[0].n;
    const write = async (from: number, count: number) => {
      for (let n = from; n < from + count; n++) writer.add({ ...entryOf(n), clientId: owner.id, requestId: `trim-${n}` });
      await writer.flush();
    };
    await write(0, 40);
    expect(await kept()).toBe(30);
    await write(40, 1);
    await write(41, 1);
    expect(await kept()).toBe(32);
    await write(42, 1);
    expect(await kept()).toBe(30);
    // The newest are the ones kept.
    const oldest = await queryRows<{ request_id: string }>(
      sb.database.db,
      sql`select request_id from request_log where client_id = ${owner.id} order by id limit 1`,
    );
    expect(oldest[0].request_id).toBe('trim-13');
  });

  it('drops entries, never the call, when the database refuses them', async () => {
    const errors: unknown[] = [];
    const writer = writerOver(
      async () => {
        throw new Error('disk full');
      },
      { onError: (e) => errors.push(e) },
    );
    writer.add(entryOf(1));
    writer.add(entryOf(2));
    await writer.flush();
    expect(writer.dropped).toBe(2);
    expect(errors).toEqual([new Error('disk full')]);
  });

  it('writes a batch whose bodies take many 2 ms slices to compress, every body as it came and in order', async () => {
    const owner = await sb.newClient();
    const writer = new RequestLogWriter(sb.database.db, { maxPerClient: 1000, maxAgeSeconds: 3600 });
    // Bodies of about 15 KiB that compress well: some 50 µs each, so 400 of them take several slices.
    const bodyOf = (n: number, part: string) =>
      JSON.stringify({
        n,
        part,
        rows: Array.from({ length: 300 }, (_, i) => ({ i, sku: `SKU-${(i * 7919 + n) % 1000}`, name: 'Bench product' })),
      });
    const sent = Array.from({ length: 200 }, (_, n) => ({ request: bodyOf(n, 'request'), response: bodyOf(n, 'response') }));
    for (const [n, body] of sent.entries())
      writer.add({ ...entryOf(n), clientId: owner.id, requestId: `slices-${n}`, requestBody: body.request, responseBody: body.response });
    await writer.flush();
    const stored = await queryRows<{ request_id: string; request_body_brotli: Buffer; response_body_brotli: Buffer }>(
      sb.database.db,
      sql`select request_id, request_body_brotli, response_body_brotli from request_log where client_id = ${owner.id} and request_id like 'slices-%' order by id`,
    );
    expect(stored.map((row) => row.request_id)).toEqual(sent.map((_, n) => `slices-${n}`));
    stored.forEach((row, n) => {
      expect(brotliDecompressSync(row.request_body_brotli).toString('utf8')).toBe(sent[n].request);
      expect(brotliDecompressSync(row.response_body_brotli).toString('utf8')).toBe(sent[n].response);
    });
  });

  it('compresses a body longer than 8 KiB with Brotli and keeps one of 8 KiB as text', async () => {
    const owner = await sb.newClient();
    const writer = new RequestLogWriter(sb.database.db, { maxPerClient: 1000, maxAgeSeconds: 3600 });
    // Two-byte characters: the limit is in bytes of UTF-8, not in characters.
    const body = (bytes: number) => `{"t":"${'é'.repeat((bytes - 8) / 2)}"}`;
    const [atLimit, overLimit] = [body(8192), body(8194)];
    expect([Buffer.byteLength(atLimit), Buffer.byteLength(overLimit)]).toEqual([8192, 8194]);
    writer.add({ ...entryOf(1), clientId: owner.id, requestId: 'limit-at', requestBody: atLimit, responseBody: null });
    writer.add({ ...entryOf(2), clientId: owner.id, requestId: 'limit-over', requestBody: overLimit, responseBody: atLimit });
    await writer.flush();
    const stored = await queryRows<{
      request_id: string;
      request_body: string | null;
      request_body_brotli: Buffer | null;
      response_body: string | null;
    }>(
      sb.database.db,
      // Only this writer's rows: the app's own writer may still be logging the calls that set the client up.
      sql`select request_id, request_body, request_body_brotli, response_body from request_log where client_id = ${owner.id} and request_id like 'limit-%' order by id`,
    );
    expect(stored.map((row) => row.request_id)).toEqual(['limit-at', 'limit-over']);
    expect(stored[0]).toMatchObject({ request_body: atLimit, request_body_brotli: null, response_body: null });
    expect(stored[1].request_body).toBeNull();
    expect(brotliDecompressSync(stored[1].request_body_brotli!).toString('utf8')).toBe(overLimit);
    expect(stored[1].request_body_brotli!.length).toBeLessThan(1024);
    expect(stored[1].response_body).toBe(atLimit);
  });

  it('holds a bounded amount in memory while the database is slow', async () => {
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    const errors: unknown[] = [];
    const writer = writerOver(() => stalled, { pendingBytesMax: 100_000, onError: (e) => errors.push(e) });
    writer.add(entryOf(0));
    const first = writer.flush();
    for (let i = 1; i <= 1000; i++) writer.add({ ...entryOf(i), responseBody: 'x'.repeat(1000) });
    expect(writer.dropped).toBeGreaterThan(900);
    release();
    await first;
    await writer.close();
    expect(errors).toEqual([]);
  });
});

describe('redaction', () => {
  it('replaces credentials in JSON and form bodies, also cut short, and leaves other text as it was', () => {
    expect(redact('{"Password": "p\\"w", "AccessToken":"abc","n":1}', 'application/json')).toBe(
      '{"Password": "[redacted]", "AccessToken":"[redacted]","n":1}',
    );
    expect(redact('grant_type=password&username=a&password=s%26cret', 'application/x-www-form-urlencoded')).toBe(
      'grant_type=password&username=a&password=[redacted]',
    );
    expect(redact('{"data":{"attributes":{"secret":"whsec_ab', 'application/json')).toBe('{"data":{"attributes":{"secret":"[redacted]"');
    expect(redact('signed with whsec_QUJD+/= today', 'text/plain')).toBe('signed with [redacted] today');
    const order = '{"data":{"type":"order","attributes":{"externalOrderNumber":"A-1","locale":"nl-NL"}}}';
    expect(redact(order, 'application/vnd.api+json')).toBe(order);
  });
});
