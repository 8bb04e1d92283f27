// Webhook delivery from the outbox: signed POSTs to a real local receiver, retries with backoff, deactivation,
// the sandbox delivery log and redelivery, and no event lost when the server process is killed mid-delivery.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { webhookEvents } from '@shopapi/contract';
import { Webhook } from 'standardwebhooks';
import { openDatabase, queryRows, schema, type Db } from '../src/platform/db/index.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { emitEvent } from '../src/modules/webhooks/outbox.ts';
import { deliveriesChannel, dispatchDue, maxAttempts, retryDelaysSeconds, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { dbKind, startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { startReceiver, type Received, type Receiver } from './support/webhook-receiver.ts';
import { createWebhook, emit } from './support/webhook-outbox.ts';
import { freePort } from './support/ports.ts';
import { createProducts, orderDocument, uniqueNumber } from './support/fixtures.ts';

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

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

describe('delivery', () => {
  it('POSTs each event to every subscribed webhook, in order, signed per Standard Webhooks', async () => {
    const created = await createWebhook(receiver, sb.database.db, client.id, 'shipment.created.3', '/order-1/created');
    const shipped = await createWebhook(receiver, sb.database.db, client.id, 'shipment.shipped.3', '/order-1/shipped');
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
      eventId: got[0].id,
      event: 'shipment.created.3',
      entity: 'shipment',
      entityId: 101,
      status: 'DELIVERED',
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptOn: null,
    });
    expect(log.body.data[0].attributes.log).toEqual([
      expect.objectContaining({ statusCode: 200, durationMs: expect.any(Number), error: null }),
    ]);
    expect(shipped.isActive).toBe(true);
    // Nothing is left to send.
    expect(await dispatchDue(sb.database.db, options)).toEqual({ attempted: 0, delivered: 0 });
  });

  it('writes nothing when the transaction that emits rolls back', async () => {
    await createWebhook(receiver, sb.database.db, client.id, 'shipment.readyToPick.3', '/rollback');
    await sb.database.db
      .transaction(async (tx) => {
        await emitEvent(tx as unknown as Db, client.id, {
          type: 'shipment.readyToPick.3',
          entity: 'shipment',
          entityId: 7,
          occurredOn: new Date(),
          data: {},
        });
        tx.rollback();
      })
      .catch(() => undefined);
    expect(await dispatchDue(sb.database.db, options)).toEqual({ attempted: 0, delivered: 0 });
  });

  it('retries other answers with backoff until a 200, and every event arrives once by webhook-id', async () => {
    await createWebhook(receiver, sb.database.db, client.id, 'shipment.readyToShip.3', '/flaky');
    receiver.answer = 500;
    for (let id = 201; id <= 203; id++) await emit(sb.database.db, client.id, 'shipment.readyToShip.3', id, 'READY_TO_SHIP');
    expect(await dispatchDue(sb.database.db, options)).toEqual({ attempted: 3, delivered: 0 });
    // Not due again before the first backoff.
    expect(await dispatchDue(sb.database.db, options, later(retryDelaysSeconds[0] - 2))).toEqual({ attempted: 0, delivered: 0 });
    expect(await dispatchDue(sb.database.db, options, later(retryDelaysSeconds[0] + 1))).toEqual({ attempted: 3, delivered: 0 });
    receiver.answer = 200;
    expect(await dispatchDue(sb.database.db, options, later(retryDelaysSeconds[0] + retryDelaysSeconds[1] + 2))).toEqual({
      attempted: 3,
      delivered: 3,
    });

    const flaky = receiver.requests.filter((r) => r.path === '/flaky');
    expect(flaky).toHaveLength(9);
    expect(new Set(flaky.map((r) => r.id)).size).toBe(3);
    expect(flaky.every((r) => r.verified)).toBe(true);
    const once = receiver.delivered().filter((r) => r.path === '/flaky');
    expect(once.map((r) => r.data.id)).toEqual([201, 202, 203]);
  });

  it('shows in the delivery log the raw body sent and the signature headers of every attempt', async () => {
    const webhook = await createWebhook(receiver, sb.database.db, client.id, 'shipment.delivered.3', '/log-detail');
    receiver.answer = 500;
    await emit(sb.database.db, client.id, 'shipment.delivered.3', 251, 'DELIVERED');
    await dispatchDue(sb.database.db, options);
    receiver.answer = 200;
    await dispatchDue(sb.database.db, options, later(retryDelaysSeconds[0] + 1));
    const got = receiver.requests.filter((r) => r.path === '/log-detail');
    expect(got).toHaveLength(2);

    const [listed] = (await sb.call('GET', `/sandbox/webhooks/${webhook.id}/deliveries`, { token: client.token })).body.data;
    const one = await sb.call('GET', `/sandbox/webhooks/${webhook.id}/deliveries/${listed.id}`, { token: client.token });
    expect(one.status).toBe(200);
    const { payload, log } = one.body.data.attributes;
    expect(listed.attributes.payload).toBe(payload);
    // Byte for byte the body that arrived, on every attempt.
    for (const r of got) expect(payload).toBe(r.raw);
    const signatureHeaders = (r: Received) => ({
      'webhook-id': r.headers['webhook-id'],
      'webhook-timestamp': r.headers['webhook-timestamp'],
      'webhook-signature': r.headers['webhook-signature'],
    });
    expect(log.map((entry: { headers: unknown }) => entry.headers)).toEqual(got.map(signatureHeaders));
    expect(log.map((entry: { statusCode: number }) => entry.statusCode)).toEqual([500, 200]);
    // An integrator verifies the logged body with the logged headers and the webhook's secret.
    const wh = new Webhook(webhook.secret);
    for (const entry of log) expect(wh.verify(payload, entry.headers)).toEqual(JSON.parse(payload));
    expect(JSON.parse(payload)).toMatchObject({ type: 'shipment.delivered.3', data: { id: 251, attributes: { status: 'DELIVERED' } } });
  });

  it('deactivates a webhook whose delivery failed every attempt; redelivery after reactivation keeps the event id', async () => {
    const webhook = await createWebhook(receiver, sb.database.db, client.id, 'shipment.created.3', '/dead');
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
    const webhook = await createWebhook(receiver, sb.database.db, client.id, 'shipment.shipped.3', '/private');
    await emit(sb.database.db, client.id, 'shipment.shipped.3', 401, 'SHIPPED');
    // Both shipment.shipped.3 webhooks of the client point at the loopback receiver.
    expect(await dispatchDue(sb.database.db, { ...options, allowPrivateTargets: false })).toEqual({ attempted: 2, delivered: 0 });
    expect(receiver.requests.filter((r) => r.path === '/private')).toEqual([]);
    const log = await sb.call('GET', `/sandbox/webhooks/${webhook.id}/deliveries`, { token: client.token });
    expect(log.body.data[0].attributes).toMatchObject({
      status: 'PENDING',
      lastStatusCode: null,
      lastError: expect.stringMatching(/not a public address/),
    });
  });

  it("shows a webhook's deliveries only to its own client", async () => {
    const other = await sb.newClient();
    const [webhook] = await sb.database.db.select().from(schema.webhooks).where(eq(schema.webhooks.clientId, client.id)).limit(1);
    expect((await sb.call('GET', `/sandbox/webhooks/${webhook.id}/deliveries`, { token: other.token })).status).toBe(404);
    expect((await sb.call('POST', `/sandbox/webhooks/${webhook.id}/deliveries/1/redeliver`, { token: other.token })).status).toBe(404);
  });
});

describe('wake-up on commit', () => {
  it('sends a committed event at once, with the interval an hour away; on PostgreSQL woken through another connection', async () => {
    const own = await sb.newClient();
    // On PostgreSQL the dispatcher runs on a second handle, as in a second process: only NOTIFY can wake it.
    const other = dbKind() === 'postgres' ? await openDatabase({ databaseUrl: sb.databaseUrl!, poolSize: 2 }) : undefined;
    const listening = other ?? sb.database;
    const errors: unknown[] = [];
    const dispatcher = startDispatcher(listening.db, { ...options, intervalMs: 3_600_000, onError: (e) => errors.push(e) });
    const stopListening = await listening.listen(deliveriesChannel, dispatcher.notified, (e) => errors.push(e));
    try {
      await createWebhook(receiver, sb.database.db, own.id, 'shipment.shipped.3', '/woken');
      const arrivals: Received[] = [];
      for (let n = 1; n <= 3; n++) {
        const arrived = receiver.nextRequest('/woken');
        await emit(sb.database.db, own.id, 'shipment.shipped.3', 900 + n, 'SHIPPED');
        arrivals.push(
          await Promise.race([arrived, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not woken')), 15_000))]),
        );
      }
      expect(arrivals.map((r) => [r.path, r.data.id, r.verified])).toEqual([
        ['/woken', 901, true],
        ['/woken', 902, true],
        ['/woken', 903, true],
      ]);
      // Booked in the delivery log as well.
      await dispatcher.stop();
      const states = await queryRows<{ delivered: number }>(
        sb.database.db,
        sql`select count(*)::int as delivered from webhook_deliveries where client_id = ${own.id} and delivered_at is not null`,
      );
      expect(states[0].delivered).toBe(3);
      expect(errors).toEqual([]);
    } finally {
      await stopListening();
      await dispatcher.stop();
      await other?.close();
    }
  });
});

describe('payloads', () => {
  /**
   * The exact text of a resource object in a body. Answers and deliveries are compact JSON whose strings are spelled as
   * JSON.stringify spells them, so stringifying the parsed object again gives its text back; the raw answer must
   * contain that text, which checks it.
   */
  const textIn = (raw: string, resource: unknown) => {
    const text = JSON.stringify(resource);
    expect(raw, 'the resource object as it is written in the body').toContain(text);
    return text;
  };
  /** The skeleton of a resource: its members in their order, without values (which change with its state). */
  const skeleton = (text: string) =>
    JSON.stringify(JSON.parse(text), (_key, value) => (value !== null && typeof value === 'object' ? value : null));

  it('delivers as data the bytes GET /v3/{resource}/{id} answers for the same state, for every event of every entity', {
    timeout: 60_000,
  }, async () => {
    const owner = await sb.newClient();
    const call = (method: string, url: string, body?: unknown) => sb.call(method, url, { token: owner.token, body });
    const pathOf = (event: string) => `/payloads/${owner.id}/${event}`;
    const events = [...webhookEvents.shipment, ...webhookEvents.inbound];
    for (const event of events) await createWebhook(receiver, sb.database.db, owner.id, event, pathOf(event));
    const arrived = new Map<string, string[]>();
    /** Sends what is due; the data of what arrived, by event type in order, each also as the events table holds it. */
    async function deliver() {
      const before = receiver.requests.length;
      await dispatchDue(sb.database.db, options);
      const fresh = receiver.requests.slice(before).filter((r) => r.path.startsWith(`/payloads/${owner.id}/`));
      const now = new Map<string, string[]>();
      for (const received of fresh) {
        expect(received.verified).toBe(true);
        const data = JSON.stringify(received.data);
        const [stored] = await queryRows<{ payload: string }>(
          sb.database.db,
          sql`select payload::text as payload from events where id = ${received.id}`,
        );
        expect(stored.payload, `${received.type} as stored`).toBe(data);
        now.set(received.type, [...(now.get(received.type) ?? []), data]);
        arrived.set(received.type, [...(arrived.get(received.type) ?? []), data]);
      }
      return now;
    }
    async function read(path: string) {
      const answer = await call('GET', path);
      expect(answer.status, answer.raw).toBe(200);
      return textIn(answer.raw, answer.body.data);
    }
    // Text whose spelling differs between writers: quotes, backslashes, control and non-ASCII characters, U+2028.
    const tricky = 'He said "hi" \\ \n\t</script> ünï 𝄞 \u0001 \u2028';
    await createProducts(sb, owner.token, ['PAY-1', 'PAY-2']);

    // Inbound: received in part, so it walks PROCESSING → CHECKING → checkingUpdate → CHECKED in one transaction; the
    // last event has the state GET answers afterwards, the earlier ones the same members in the same order.
    const slip = await call('POST', '/v3/inboundPackingSlips', {
      data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', reference: `${uniqueNumber('PAY')} ${tricky}` } },
      included: [
        { type: 'inboundPackingSlipItem', attributes: { sku: 'PAY-1', quantity: 5 } },
        { type: 'inboundPackingSlipItem', attributes: { sku: 'PAY-2', quantity: 3 } },
      ],
    });
    expect(slip.status, slip.raw).toBe(201);
    const received = await call('POST', `/sandbox/inboundPackingSlips/${slip.body.data.id}/receive`, {
      items: [
        { sku: 'PAY-1', quantity: 5 },
        { sku: 'PAY-2', quantity: 2 },
      ],
    });
    expect(received.status, received.raw).toBe(201);
    const inbound = `/v3/inbounds/${received.body.data.id}`;
    let got = await deliver();
    expect([...got.keys()]).toEqual(['inbound.processing', 'inbound.checking', 'inbound.checkingUpdate', 'inbound.checked']);
    const checked = await read(inbound);
    expect(got.get('inbound.checked')).toEqual([checked]);
    for (const [type, [data]] of got) expect(skeleton(data), type).toBe(skeleton(checked));

    // Shipment: the warehouse starts the order (created and readyToPick, one state), then it moves step by step.
    const order = await call(
      'POST',
      '/v3/orders',
      orderDocument(owner, { items: [{ sku: 'PAY-1', quantity: 2 }], attributes: { metadata: { extra2: tricky, extra1: 'b' } } }),
    );
    expect(order.status, order.raw).toBe(201);
    expect((await call('POST', '/sandbox/clock/advance', { seconds: 1 })).status).toBe(200);
    const shipments = (await call('GET', `/v3/shipments?orderId=${order.body.data.id}`)).body.data;
    expect(shipments).toHaveLength(1);
    const shipment = `/v3/shipments/${shipments[0].id}`;
    got = await deliver();
    const started = await read(shipment);
    expect(Object.fromEntries(got)).toEqual({ 'shipment.created.3': [started], 'shipment.readyToPick.3': [started] });
    for (const expected of [[], ['shipment.readyToShip.3'], ['shipment.shipped.3']]) {
      expect((await call('POST', `${shipment}/advance`.replace('/v3/', '/sandbox/'))).status).toBe(200);
      got = await deliver();
      const now = await read(shipment);
      expect([...got.keys()]).toEqual(expected);
      for (const type of expected) expect(got.get(type), type).toEqual([now]);
    }
    expect(JSON.parse(await read(shipment)).attributes.tracking).not.toBeNull();

    // The inbound completes by itself 2 hours later, on the client's clock.
    expect((await call('POST', '/sandbox/clock/advance', { seconds: 2 * 3600 + 1 })).status).toBe(200);
    got = await deliver();
    expect(got.get('inbound.processed')).toEqual([await read(inbound)]);

    // Every event of the spec was delivered and compared.
    expect(events.filter((event) => !arrived.has(event))).toEqual([]);
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
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'src', 'cli.ts'), 'start'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      PORT: String(await freePort()),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    };
    if (dbKind() === 'postgres') {
      // A database of its own: the deliveries other tests left pending must not reach the receiver first.
      const fresh = await startSandbox();
      env.DATABASE_URL = fresh.databaseUrl;
      await fresh.close();
    }
    // The event is in the outbox before the process starts, as if an earlier process had written it.
    const database = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL, poolSize: 1 } : { dataDir });
    const owner = await createClient(database.db, { username: `killed-${randomBytes(3).toString('hex')}`, password: 'a long password' });
    await createWebhook(receiver, database.db, owner.id, 'shipment.shipped.3', '/killed');
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
    // The killed attempt's lease (30 s) runs out, then the restarted process sends the event again.
    const second = await redelivered;
    expect(second.id).toBe(first.id);
    expect(second.verified).toBe(true);
    expect(
      receiver
        .delivered()
        .filter((r) => r.path === '/killed')
        .map((r) => r.data.id),
    ).toEqual([501]);
    server.kill('SIGTERM');
    await new Promise((resolve) => server!.once('exit', resolve));
    server = undefined;
  });
});
