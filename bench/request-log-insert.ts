// What one batch insert of the request log costs PostgreSQL, by how the bodies travel: the probe behind the findings'
// figures for writer.ts (bodies as binary bytea[] parameters; text up to 8 KiB, compressed by the database). Not part
// of `npm run bench`:
//   npx tsx bench/request-log-insert.ts
// It captures 60 create entries from a server under load, then inserts them as one batch 60 times a round, five rounds,
// three times each way: µs per entry (the median round). Also Brotli's cost for the same bodies in this process.
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import pg from 'pg';
import { startCluster } from '../server/test/support/postgres-cluster.ts';
import { byteaArray } from '../server/src/platform/db/index.ts';
import { createRate, probeDatabase, startBenchServer } from './lib.ts';

const cluster = await startCluster({ fsync: true });
try {
  const url = await probeDatabase(cluster, 'request_log_insert');
  const server = await startBenchServer({ DATABASE_URL: url, BENCH_SEED_ORDERS: '100' });
  await createRate(server, 2);
  await server.stop(); // writes what it has queued
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const { rows } = await db.query(`select client_id, request_id, received_at, api, operation_id, method, url, status, duration_ms,
      request_content_type, coalesce(request_body, convert_from(request_body_brotli, 'UTF8')) as request_body, request_bytes,
      response_content_type, response_body, response_body_brotli, response_bytes, warnings
    from request_log where operation_id = 'createOrder' order by id limit 60`);
  if (rows.length < 60) throw new Error(`only ${rows.length} create entries were logged`);
  const bodies = rows.map((row) => ({
    request: Buffer.from(row.request_body as string),
    response: row.response_body_brotli ? brotliDecompressSync(row.response_body_brotli) : Buffer.from(row.response_body as string),
  }));
  const brotli = (bytes: Buffer) =>
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 1,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(10, Math.ceil(Math.log2(bytes.length)))),
      },
    });
  const compressed = bodies.map((b) => ({ request: brotli(b.request), response: brotli(b.response) }));
  const meta = rows.map((row) => ({
    clientId: row.client_id,
    requestId: row.request_id,
    receivedAt: row.received_at,
    api: row.api,
    operationId: row.operation_id,
    method: row.method,
    url: row.url,
    status: row.status,
    durationMs: row.duration_ms,
    requestContentType: row.request_content_type,
    requestBytes: row.request_bytes,
    responseContentType: row.response_content_type,
    responseBytes: row.response_bytes,
    warnings: row.warnings,
  }));
  const columns = `client_id, request_id, received_at, api, operation_id, method, url, status, duration_ms, request_content_type,
    request_body, request_body_brotli, request_bytes, response_content_type, response_body, response_body_brotli, response_bytes, warnings`;
  const record = `json_to_recordset($1::json) as ("clientId" int, "requestId" text, "receivedAt" timestamptz, api text,
    "operationId" text, method text, url text, status int, "durationMs" float8, "requestContentType" text,
    "requestBodyBrotli" text, "requestBytes" int, "responseContentType" text, "responseBodyBrotli" text, "responseBytes" int,
    warnings json)`;
  const head = `e."clientId", e."requestId", e."receivedAt", e.api, e."operationId", e.method, e.url, e.status, e."durationMs", e."requestContentType"`;
  const binary = (request: string, requestBrotli: string, response: string, responseBrotli: string) =>
    `insert into request_log (${columns}) select ${head}, ${request}, ${requestBrotli}, e."requestBytes", e."responseContentType",
      ${response}, ${responseBrotli}, e."responseBytes", e.warnings
    from rows from (${record}) with ordinality as e
    join rows from (unnest($2::bytea[], $3::bytea[])) with ordinality as b(request, response, n) on b.n = e.ordinality
    order by e.ordinality`;
  const ways: [string, string, unknown[]][] = [
    [
      'Brotli as base64 in the JSON (before)',
      `insert into request_log (${columns}) select ${head}, null, decode(e."requestBodyBrotli", 'base64'), e."requestBytes",
        e."responseContentType", null, decode(e."responseBodyBrotli", 'base64'), e."responseBytes", e.warnings
      from rows from (${record}) with ordinality as e order by e.ordinality`,
      [
        JSON.stringify(
          meta.map((m, i) => ({
            ...m,
            requestBodyBrotli: compressed[i].request.toString('base64'),
            responseBodyBrotli: compressed[i].response.toString('base64'),
          })),
        ),
      ],
    ],
    [
      'Brotli as binary bytea[]',
      binary('null', 'b.request', 'null', 'b.response'),
      [JSON.stringify(meta), byteaArray(compressed.map((c) => c.request)), byteaArray(compressed.map((c) => c.response))],
    ],
    [
      'text as binary bytea[] (now)',
      binary(`convert_from(b.request, 'UTF8')`, 'null', `convert_from(b.response, 'UTF8')`, 'null'),
      [JSON.stringify(meta), byteaArray(bodies.map((b) => b.request)), byteaArray(bodies.map((b) => b.response))],
    ],
  ];
  const [{ compression }] = (
    await db.query(
      `select attcompression as compression from pg_attribute where attrelid = 'request_log'::regclass and attname = 'response_body'`,
    )
  ).rows;
  console.log(`response_body compression: ${compression === 'l' ? 'lz4' : compression === 'p' ? 'pglz' : 'the default'}`);
  for (let repeat = 0; repeat < 3; repeat++)
    for (const [name, text, values] of ways) {
      const rounds: number[] = [];
      for (let round = 0; round < 5; round++) {
        const started = process.hrtime.bigint();
        for (let i = 0; i < 60; i++) await db.query({ name: `probe-${ways.findIndex((w) => w[0] === name)}`, text, values });
        rounds.push(Number(process.hrtime.bigint() - started) / 1000 / 60 / rows.length);
      }
      rounds.sort((a, b) => a - b);
      console.log(`${name}: ${rounds[2].toFixed(0)} µs per entry (rounds ${rounds.map((r) => r.toFixed(0)).join(', ')})`);
    }
  const started = process.hrtime.bigint();
  for (let i = 0; i < 20; i++)
    for (const b of bodies) {
      brotli(b.request);
      brotli(b.response);
    }
  console.log(
    `Brotli of both bodies in this process: ${(Number(process.hrtime.bigint() - started) / 1000 / 20 / bodies.length).toFixed(0)} µs per entry`,
  );
  await db.end();
} finally {
  cluster.stop();
}
