// The benchmark's own server process: the real app (buildApp) plus baseline routes that send a pre-built payload of the
// same size through the same response schema, so route/baseline isolates auth, database and resource mapping.
// Configured by the environment: DATABASE_URL (else PGlite in memory), BENCH_SEED_ORDERS (seed a new client with that
// many orders and shipments), or BENCH_CLIENT (a client seeded by the orchestrator, as JSON). Reports to its parent over IPC.
import type { FastifyInstance } from 'fastify';
import { operationById } from '@shopapi/contract';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/platform/db/index.ts';
import { JSONAPI, seedClient, seedOrders, type BenchClient, type ServerInfo } from './lib.ts';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, inMemory: !process.env.DATABASE_URL, poolSize: 10 });
let client: BenchClient;
if (process.env.BENCH_CLIENT) client = JSON.parse(process.env.BENCH_CLIENT) as BenchClient;
else {
  client = await seedClient(database.db);
  await seedOrders(database.db, client, Number(process.env.BENCH_SEED_ORDERS ?? 200), { shipments: true });
}
const config = loadConfig({
  logLevel: 'silent',
  port: 0,
  host: '127.0.0.1',
  rateLimitPerHour: 1_000_000_000,
  publicUrl: 'http://127.0.0.1',
});

async function tokenOf(app: FastifyInstance): Promise<string> {
  const answer = await app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username: client.username, password: client.password }).toString(),
  });
  return (JSON.parse(answer.body) as { access_token: string }).access_token;
}

// The payloads the baselines send: the real answers, taken from a first instance of the app.
const baselines = [
  { path: '/bench/baseline/orders', operationId: 'listOrders', real: '/v3/orders?include=orderItems&page[size]=100' },
  { path: '/bench/baseline/shipments', operationId: 'listShipments', real: '/v3/shipments?include=shipmentItems&page[size]=100' },
];
const payloads = new Map<string, unknown>();
let sampleOrderId = 0;
{
  const probe = await buildApp({ db: database.db, config, logger: false });
  const token = await tokenOf(probe);
  for (const b of baselines) {
    const answer = await probe.inject({ method: 'GET', url: b.real, headers: { authorization: `Bearer ${token}`, accept: JSONAPI } });
    if (answer.statusCode !== 200) throw new Error(`${b.real}: ${answer.statusCode} ${answer.body}`);
    const document = JSON.parse(answer.body) as { data: { id: number }[] };
    payloads.set(b.path, document);
    if (b.operationId === 'listOrders') sampleOrderId = document.data[Math.floor(document.data.length / 2)]?.id ?? 0;
  }
  await probe.close();
}

const app = await buildApp({ db: database.db, config, logger: false });
for (const b of baselines) {
  const op = operationById(b.operationId);
  const payload = payloads.get(b.path);
  app.get(b.path, { schema: { response: { 200: op.responses[op.success]!.schema! } } }, async (_request, reply) => {
    reply.type(JSONAPI);
    return payload;
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const url = `http://127.0.0.1:${port}`;
const info: ServerInfo = { port, url, client, token: await tokenOf(app), sampleOrderId };
process.send?.(info);

const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('disconnect', () => void shutdown());
