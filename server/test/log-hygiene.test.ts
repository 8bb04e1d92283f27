// Log lines hold no bound query parameters (customers' data) and stay small, whatever failed: the logger's err
// serializer on real database errors, and a failing request through the app's logger and error handler.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { schema } from '../src/platform/db/index.ts';
import { serializeError, type SerializedError } from '../src/platform/log-serializers.ts';
import { JSONAPI, startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';

/** A bound value of about 540 KB, like the request that wrote a 3.6 MB log line, with a marker to look for. */
const marker = 'PRIVATE-VALUE-7f3a';
const big = `${marker} ${'customer@example.com, 1 Long Street; '.repeat(15_000)}`;
/** Bounds every serialized error must keep. */
const maxSerializedBytes = 16 * 1024;

let sb: TestSandbox;
let client: TestClient;
beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
});
afterAll(() => sb.close());

async function failure(query: () => Promise<unknown>): Promise<unknown> {
  try {
    await query();
  } catch (error) {
    return error;
  }
  throw new Error('the query did not fail');
}

describe('the err serializer on real database errors', () => {
  it('keeps the statement but no parameter of a failed insert, in the error and its cause', async () => {
    // client 999999 does not exist: a foreign key violation, whose PostgreSQL detail also names the value.
    const error = await failure(() =>
      sb.database.db.insert(schema.webhooks).values({
        clientId: 999_999,
        entity: 'shipment',
        event: 'shipment.shipped.3',
        targetUrl: `https://shop.example.com/${big}`,
        secret: `whsec_${marker}`,
      }),
    );
    expect(error).toBeInstanceOf(DrizzleQueryError);
    expect((error as Error).message).toContain(marker);
    const serialized = serializeError(error);
    const text = JSON.stringify(serialized);
    expect(text).not.toContain(marker);
    expect(text).not.toContain('customer@example.com');
    expect(text).not.toContain('999999');
    expect(text.length).toBeLessThan(maxSerializedBytes);
    expect(serialized.type).toBe('DrizzleQueryError');
    expect(serialized.message).toMatch(/^Failed query: insert into "webhooks"/);
    expect(serialized.sql).toMatch(/^insert into "webhooks"/);
    expect(serialized.stack).toMatch(/\n\s+at /);
    expect(serialized.cause).toMatchObject({ code: '23503', constraint: expect.any(String) });
    expect(serialized.cause).not.toHaveProperty('detail');
    expect(serialized.cause).not.toHaveProperty('params');
  });

  it('leaves out the value PostgreSQL quotes in its message', async () => {
    const error = await failure(() => sb.database.db.execute(sql`select ${big}::integer`));
    expect(error).toBeInstanceOf(DrizzleQueryError);
    const serialized = serializeError(error);
    const text = JSON.stringify(serialized);
    expect(text).not.toContain(marker);
    expect(text.length).toBeLessThan(maxSerializedBytes);
    expect(serialized.cause?.message).toMatch(/^invalid input syntax for type integer: \[value omitted\]$/);
  });

  it('bounds long messages, deep cause chains and values that are not errors', () => {
    let chain = new Error('deepest');
    for (let i = 0; i < 50; i++) chain = new Error(`level ${i} ${'x'.repeat(100_000)}`, { cause: chain });
    const serialized = serializeError(chain);
    expect(JSON.stringify(serialized).length).toBeLessThan(maxSerializedBytes * 2);
    expect(serialized.message).toMatch(/^level 49 x+… \(\d+ more characters\)$/);
    let depth = 0;
    for (let at: SerializedError | undefined = serialized; at; at = at.cause) depth++;
    expect(depth).toBe(5);
    expect(JSON.stringify(serialized)).toContain('"causeOmitted":true');
    expect(serializeError('y'.repeat(100_000)).message.length).toBeLessThan(2100);
  });
});

describe("the app's logger", () => {
  let app: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ db: sb.database.db, config: sb.config, logger: { level: 'error', stream } });
    await app.ready();
  });
  afterAll(() => app.close());

  it("logs a failing request's database error without its parameters, in a bounded line", async () => {
    // Provoked on purpose (a trigger refuses the insert): no operation documents 500, so the answer is read directly.
    await sb.database.db.execute(
      sql.raw(`
      create function refuse_webhooks() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$;
    `),
    );
    await sb.database.db.execute(
      sql.raw('create trigger refuse_webhooks before insert on webhooks for each row execute function refuse_webhooks()'),
    );
    try {
      const targetUrl = `https://shop.example.com/${marker}/${'a'.repeat(1500)}`;
      const answer = await app.inject({
        method: 'POST',
        url: '/v3/webhooks',
        headers: { authorization: `Bearer ${client.token}`, 'content-type': JSONAPI, accept: JSONAPI },
        payload: JSON.stringify({ data: { type: 'webhook', attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl } } }),
      });
      expect(answer.statusCode).toBe(500);
    } finally {
      await sb.database.db.execute(sql.raw('drop trigger refuse_webhooks on webhooks'));
      await sb.database.db.execute(sql.raw('drop function refuse_webhooks()'));
    }
    const logged = lines.join('');
    expect(logged).toContain('refused by the test');
    expect(logged).toContain('insert into \\"webhooks\\"');
    expect(logged).not.toContain(marker);
    // The signing secret is a bound parameter of the insert too.
    expect(logged).not.toContain('whsec_');
    for (const line of lines) expect(line.length).toBeLessThan(maxSerializedBytes + 2048);
  });

  it('serializes errors logged by the background loops (dispatcher, pacer) the same way', async () => {
    lines.length = 0;
    const error = await failure(() => sb.database.db.execute(sql`select ${big}::integer`));
    app.log.error({ err: error }, 'webhook dispatch round failed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(marker);
    expect(lines[0].length).toBeLessThan(maxSerializedBytes + 2048);
    expect(JSON.parse(lines[0]).err.type).toBe('DrizzleQueryError');
  });
});
