// Webhook delivery from the outbox: signed POSTs to a real local receiver, retries with backoff, deactivation,
// the sandbox delivery log and redelivery, and no event lost when the server process is killed mid-delivery.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase, schema, type Db } from '../src/db/index.ts';
import { createClient } from '../src/domain/clients/service.ts';
import { emitEvent } from '../src/domain/webhooks/outbox.ts';
import { dispatchDue, maxAttempts, retryDelaysSeconds } from '../src/domain/webhooks/dispatcher.ts';
import { dbKind, startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { startReceiver, type Receiver } from './support/webhook-receiver.ts';
import { freePort } from './support/ports.ts';

let sb: TestSandbox & { databaseUrl?: string };
let client: TestClient;
let receiver: Receiver;
const options = { allowPrivateTargets: true, timeoutMs: 2_000 };

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await sb.close();
});
beforeEach(() => {
  receiver.answer = 200;
});

/** A webhook row as the webhooks service stores it, with its own secret and receiver path. */
async function createWebhook(db: Db, clientId: number, event: string, path: string) {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const [row] = await db.insert(schema.webhooks).values({
    clientId, entity: event.split('.')[0], event, targetUrl: receiver.url(path), secret,
  }).returning();
  receiver.secrets.set(path, secret);
  return row;
}

async function emit(db: Db, clientId: number, type: string, entityId: number, status: string) {
  await db.transaction(async (tx) => {
    await emitEvent(tx as unknown as Db, clientId, {
      type, entity: 'shipment', entityId, occurredOn: new Date(), data: { type: 'shipment', id: entityId, attributes: { status } },
    });
  });
}

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

describe('delivery', () => {
  it('POSTs each event to every subscribed webhook, in order, signed per Standard Webhooks', async () => {
    const created = await createWebhook(sb.database.db, client.id, 'shipment.created.3', '/order-1/created');
    const shipped = await createWebhook(sb.database.db, client.id, 'shipment.shipped.3', '/order-1/shipped');
    await emit(sb.database.db, client.id, 'shipment.created.3', 101, 'READY_TO_PICK');
    await emit(sb.database.db, client.id, 'shipment.readyToShip.3', 101, 'READY_TO_SHIP');
    await emit(sb.database.db, client.id, 'shipment.shipped.3', 101, 'SHIPPED');

    expect(await dispatchDue(sb.database.db, options)).toEqual({ attempted: 2, delivered: 2 });
    const got = receiver.requests.filter((r) => r.path.startsWith('/order-1/'));
    expect(got.map((r) => [r.path, r.type, r.data.attributes.status])).toEqual([
      ['/order-1/created', 'shipment.created.3', 'READY_TO_PICK'],
      ['/order-1/shipped', 'shipment.shipped.3', 'SHIPPED'],
    ]);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(got[0].headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(got[0].timestamp).toEqual(expect.any(String));

    const log = await sb.call('GET', `/sandbox/webhooks/${created.id}/deliveries`, { token: client.token });
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0].attributes).toMatchObject({
      eventId: got[0].id, event: 'shipment.created.3', entity: 'shipment', entityId: 101, status: 'DELIVERED', attempts: 1, lastStatusCode: 200, nextAttemptOn: null,
    });
    expect(log.body.data[0].attributes.log).toEqual([expect.objectContaining({ statusCode: 200, durationMs: expect.any(Number), error: null })]);
    expect(shipped.isActive).toBe(true);
    // Nothing is left to send.
    expect(await dispatchDue(sb.database.db, options)).toEqual({ attempted: 0, delivered: 0 });
  });

  it('writes nothing when the transaction that emits rolls back', async () => {
    await createWebhook(sb.database.db, client.id, 'shipment.readyToPick.3', '/rollback');
    await sb.database.db.transaction(async (tx) => {
      await emitEvent(tx as unknown as Db, client.id, { type: 'shipment.readyToPick.3', entity: 'shipment', entityId: 7, occurredOn: new Date(), data: {} });
      tx.rollback();
    }).catch(() => undefined);
    expect(await dispatchDue(sb.database.db, options)).toEqual({ attempted: 0, delivered: 0 });
  });

  it('retries other answers with backoff until a 200, and every event arrives once by webhook-id', async () => {
    await createWebhook(sb.database.db, client.id, 'shipment.readyToShip.3', '/flaky');
    receiver.answer = 500;
    for (let id = 201; id <= 203; id++) await emit(sb.database.db, client.id, 'shipment.readyToShip.3', id, 'READY_TO_SHIP');
    expect(await dispatchDue(sb.database.db, options)).toEqual({ attempted: 3, delivered: 0 });
    // Not due again before the first backoff.
    expect(await dispatchDue(sb.database.db, options, later(retryDelaysSeconds[0] - 2))).toEqual({ attempted: 0, delivered: 0 });
    expect(await dispatchDue(sb.database.db, options, later(retryDelaysSeconds[0] + 1))).toEqual({ attempted: 3, delivered: 0 });
    receiver.answer = 200;
    expect(await dispatchDue(sb.database.db, options, later(retryDelaysSeconds[0] + retryDelaysSeconds[1] + 2))).toEqual({ attempted: 3, delivered: 3 });

    const flaky = receiver.requests.filter((r) => r.path === '/flaky');
    expect(flaky).toHaveLength(9);
    expect(new Set(flaky.map((r) => r.id)).size).toBe(3);
    expect(flaky.every((r) => r.verified)).toBe(true);
    const once = receiver.delivered().filter((r) => r.path === '/flaky');
    expect(once.map((r) => r.data.id)).toEqual([201, 202, 203]);
  });

  it('deactivates a webhook whose delivery failed every attempt; redelivery after reactivation keeps the event id', async () => {
    const webhook = await createWebhook(sb.database.db, client.id, 'shipment.created.3', '/dead');
    receiver.answer = 503;
    await emit(sb.database.db, client.id, 'shipment.created.3', 301, 'READY_TO_PICK');
    let at = Date.now();
    await dispatchDue(sb.database.db, options, new Date(at));
    for (const delay of retryDelaysSeconds) {
      at += (delay + 1) * 1000;
      await dispatchDue(sb.database.db, options, new Date(at));
    }
    const [row] = await sb.database.db.select().from(schema.webhooks).where(eq(schema.webhooks.id, webhook.id));
    expect(row.isActive).toBe(false);
    expect(row.deactivatedAt).not.toBeNull();
    const log = await sb.call('GET', `/sandbox/webhooks/${webhook.id}/deliveries`, { token: client.token });
    const delivery = log.body.data[0];
    expect(delivery.attributes).toMatchObject({ status: 'FAILED', attempts: maxAttempts, lastStatusCode: 503 });
    expect(delivery.attributes.log).toHaveLength(maxAttempts);

    const refused = await sb.call('POST', `/sandbox/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`, { token: client.token });
    expect(refused.status).toBe(409);
    await sb.database.db.update(schema.webhooks).set({ isActive: true }).where(eq(schema.webhooks.id, webhook.id));
    receiver.answer = 200;
    const again = await sb.call('POST', `/sandbox/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`, { token: client.token });
    expect(again.status).toBe(201);
    expect(again.body.data.attributes).toMatchObject({ status: 'PENDING', eventId: delivery.attributes.eventId, attempts: 0 });
    await dispatchDue(sb.database.db, options);
    const dead = receiver.delivered().filter((r) => r.path === '/dead');
    expect(dead.map((r) => r.id)).toEqual([delivery.attributes.eventId]);
  });

  it('refuses loopback targets when private targets are not allowed', async () => {
    const webhook = await createWebhook(sb.database.db, client.id, 'shipment.shipped.3', '/private');
    await emit(sb.database.db, client.id, 'shipment.shipped.3', 401, 'SHIPPED');
    // Both shipment.shipped.3 webhooks of the client point at the loopback receiver.
    expect(await dispatchDue(sb.database.db, { ...options, allowPrivateTargets: false })).toEqual({ attempted: 2, delivered: 0 });
    expect(receiver.requests.filter((r) => r.path === '/private')).toEqual([]);
    const log = await sb.call('GET', `/sandbox/webhooks/${webhook.id}/deliveries`, { token: client.token });
    expect(log.body.data[0].attributes).toMatchObject({ status: 'PENDING', lastStatusCode: null, lastError: expect.stringMatching(/not a public address/) });
  });

  it('shows a webhook\'s deliveries only to its own client', async () => {
    const other = await sb.newClient();
    const [webhook] = await sb.database.db.select().from(schema.webhooks).where(eq(schema.webhooks.clientId, client.id)).limit(1);
    expect((await sb.call('GET', `/sandbox/webhooks/${webhook.id}/deliveries`, { token: other.token })).status).toBe(404);
    expect((await sb.call('POST', `/sandbox/webhooks/${webhook.id}/deliveries/1/redeliver`, { token: other.token })).status).toBe(404);
  });
});

describe('a server process killed during delivery', () => {
  let dataDir: string;
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The sandbox as `npm start` runs it, in one node process (tsx as a loader), so SIGKILL really kills it. */
  async function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
    const root = join(import.meta.dirname, '..', '..');
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'src', 'cli.ts'), 'start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        if (output.includes('Sandbox ready')) resolve();
      });
      child.stderr!.on('data', (chunk) => (output += chunk));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
    return child;
  }

  it('delivers the event after a restart: nothing is lost', { timeout: 120_000 }, async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sandbox-webhooks-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', PORT: String(await freePort()), WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
    if (dbKind() === 'postgres') {
      // A database of its own: the deliveries other tests left pending must not reach the receiver first.
      const fresh = await startSandbox();
      env.DATABASE_URL = fresh.databaseUrl;
      await fresh.close();
    }
    // The event is in the outbox before the process starts, as if an earlier process had written it.
    const database = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, poolSize: 1 } : { dataDir });
    const owner = await createClient(database.db, { username: `killed-${randomBytes(3).toString('hex')}`, password: 'a long password' });
    await createWebhook(database.db, owner.id, 'shipment.shipped.3', '/killed');
    await emit(database.db, owner.id, 'shipment.shipped.3', 501, 'SHIPPED');
    await database.close();

    receiver.answer = 'hang';
    const arrived = receiver.nextRequest();
    server = await startServer(env);
    const first = await arrived;
    server.kill('SIGKILL');
    await new Promise((resolve) => server!.once('exit', resolve));

    receiver.answer = 200;
    const redelivered = receiver.nextRequest();
    server = await startServer(env);
    // The killed attempt's lease (20 s) runs out, then the restarted process sends the event again.
    const second = await redelivered;
    expect(second.id).toBe(first.id);
    expect(second.verified).toBe(true);
    expect(receiver.delivered().filter((r) => r.path === '/killed').map((r) => r.data.id)).toEqual([501]);
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = undefined;
  });
});
