// Running the sandbox: readiness, Prometheus metrics, and a graceful shutdown that finishes what is in flight.
import { createServer, type Server } from 'node:http';
import { request } from 'node:http';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNotNull } from 'drizzle-orm';
import { readinessMessages } from '@shopapi/contract';
import { openDatabase, schema } from '../src/platform/db/index.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { emitEvent } from '../src/modules/webhooks/outbox.ts';
import type { Db } from '../src/platform/db/index.ts';
import { startSandbox, type TestSandbox } from './support/sandbox.ts';
import { serverEnv, startServerProcess } from './support/server-process.ts';

describe('readiness and metrics', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.app.close());

  it('GET /metrics counts requests by route pattern and status class, and reports the webhook queue', async () => {
    const client = await sb.newClient();
    await sb.call('GET', '/v3/orders/999999', { token: client.token });
    await sb.call('GET', '/v3/orders/999998', { token: client.token });
    const answer = await sb.app.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // Both ids land in one series: the pattern, not the URL.
    expect(answer.body).toMatch(/^http_requests_total\{method="GET",route="\/v3\/orders\/:id",status_class="4xx"\} 2$/m);
    expect(answer.body).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/v3\/orders\/:id",status_class="4xx"\} 2$/m);
    expect(answer.body).not.toContain('/v3/orders/999999');
    expect(answer.body).toMatch(/^webhook_deliveries_open\{state="due"\} \d+$/m);
    expect(answer.body).toMatch(/^webhook_deliveries_open\{state="pending"\} \d+$/m);
    expect(answer.body).toMatch(/^process_cpu_seconds_total /m);
  });

  it('GET /status/ready answers 200 while the database answers, 503 once it does not', async () => {
    expect((await sb.call('GET', '/status/ready')).body).toEqual({ messageCode: 'OK', message: readinessMessages.ready, result: null });
    await sb.database.close();
    const down = await sb.call('GET', '/status/ready');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ messageCode: 'NOK', message: readinessMessages.notReady, result: null });
    // /status says the process is up, whatever the database does.
    expect((await sb.call('GET', '/status')).status).toBe(200);
  });
});

describe('graceful shutdown (SIGTERM)', () => {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('answers the request in flight, finishes the delivery in flight, then exits 0', { timeout: 60_000 }, async () => {
    // A receiver that takes a second to answer, so the delivery is under way when the signal comes.
    let deliveryArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (deliveryArrived = resolve));
    const receiver: Server = createServer((req, res) => {
      req.resume();
      deliveryArrived();
      setTimeout(() => res.writeHead(200).end(), 1000);
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    cleanups.push(() => receiver.close());
    const target = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

    const { env, cleanup } = await serverEnv();
    cleanups.push(cleanup);
    // The event is in the outbox before the process starts, as if an earlier process had written it.
    const open = () => openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, poolSize: 1 } : { dataDir: env.DATA_DIR });
    let database = await open();
    const owner = await createClient(database.db, { username: `graceful-${randomBytes(3).toString('hex')}`, password: 'a long password' });
    await database.db.insert(schema.webhooks).values({
      clientId: owner.id,
      entity: 'shipment',
      event: 'shipment.shipped.3',
      targetUrl: target,
      secret: `whsec_${randomBytes(24).toString('base64')}`,
    });
    await database.db.transaction((tx) =>
      emitEvent(tx as unknown as Db, owner.id, {
        type: 'shipment.shipped.3',
        entity: 'shipment',
        entityId: 7,
        occurredOn: new Date(),
        data: { type: 'shipment', id: 7, attributes: { status: 'SHIPPED' } },
      }),
    );
    await database.close();

    const server = await startServerProcess(env);
    cleanups.push(() => server.child.kill('SIGKILL'));
    // A token request whose body arrives in two parts: it is in flight when the signal comes.
    const url = new URL(server.url);
    const body = new URLSearchParams({ grant_type: 'password', username: owner.username, password: 'a long password' }).toString();
    const inFlight = request({
      host: url.hostname,
      port: url.port,
      method: 'POST',
      path: '/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      inFlight.on('response', (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: text }));
      });
      inFlight.on('error', reject);
    });
    inFlight.write(body.slice(0, 10));
    await arrived;
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    inFlight.end(body.slice(10));

    const answer = await answered;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).access_token).toEqual(expect.any(String));
    expect(await server.exited).toBe(0);

    database = await open();
    const delivered = await database.db.select().from(schema.webhookDeliveries).where(isNotNull(schema.webhookDeliveries.deliveredAt));
    await database.close();
    expect(delivered).toHaveLength(1);
  });
});
