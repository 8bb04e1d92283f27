// One client's webhook receivers never hold up another's deliveries: every attempt has a deadline and a bounded read,
// one client takes at most its share of the dispatcher, and deleting a webhook mid-delivery costs nobody else anything.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { openDatabase, schema } from '../src/platform/db/index.ts';
import { deliveriesChannel, dispatchDue, startDispatcher, type DispatcherOptions } from '../src/modules/webhooks/dispatcher.ts';
import { dbKind, startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { startReceiver, type Received, type Receiver } from './support/webhook-receiver.ts';
import { createWebhook, emit } from './support/webhook-outbox.ts';

/** The attempts' deadline here: short, so the tests wait for it a few times only. */
const deadlineMs = 4_000;
const options = { allowPrivateTargets: true, timeoutMs: deadlineMs } satisfies DispatcherOptions;
const event = 'shipment.shipped.3';

let sb: TestSandbox & { databaseUrl?: string };
let receiver: Receiver;
/** The clients whose webhooks a test leaves behind; deleted after it, so no hanging delivery reaches the next test. */
const used: TestClient[] = [];

beforeAll(async () => {
  sb = await startSandbox();
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const client of used.splice(0)) await sb.database.db.delete(schema.webhooks).where(eq(schema.webhooks.clientId, client.id));
});
afterAll(async () => {
  await receiver.close();
  await sb.close();
});

async function newClient() {
  const client = await sb.newClient();
  used.push(client);
  return client;
}

/** The dispatcher as the server runs it, with the interval an hour away: the tests wake it as the outbox's NOTIFY would. */
function dispatcher(extra: Partial<DispatcherOptions> = {}) {
  const errors: unknown[] = [];
  const running = startDispatcher(sb.database.db, { ...options, ...extra, intervalMs: 3_600_000, onError: (e) => errors.push(e) });
  return { ...running, errors };
}

/** Fails with `what` if the request has not arrived within 10 s (the old dispatcher never sent it). */
const arrival = (path: string, what: string) =>
  Promise.race([
    receiver.nextRequest(path),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: nothing arrived at ${path} within 10 s`)), 10_000)),
  ]);

/** Resolves once every request at `path` has its connection closed; fails if that takes `withinMs`. */
async function closed(path: string, withinMs: number) {
  const until = Date.now() + withinMs;
  while (receiver.open(path)) {
    if (Date.now() > until) throw new Error(`${path} still open after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once `done()` holds; fails after 10 s. */
async function waitFor(done: () => boolean) {
  const until = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > until) throw new Error(`still not so after 10 s: ${done}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once `count` requests in all have arrived at or under `path`. */
async function arrivals(path: string, count: number, what: string) {
  const under = (r: Received) => r.path === path || r.path.startsWith(`${path}/`);
  while (receiver.requests.filter(under).length < count) await arrival(path, what);
}

async function deliveryLog(client: TestClient, webhookId: number) {
  const answer = await sb.call('GET', `/sandbox/webhooks/${webhookId}/deliveries`, { token: client.token });
  expect(answer.status).toBe(200);
  return answer.body.data.map((d: { attributes: Record<string, any> }) => d.attributes);
}

const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

describe("a client's slow receivers", () => {
  it("delay no delivery of another client: B's event arrives while A's dripping and hanging attempts are under way", async () => {
    const a = await newClient();
    const b = await newClient();
    const slow = { drip: '/slow-a/drip', hang: '/slow-a/hang', stream: '/slow-a/stream' } as const;
    for (const [how, path] of Object.entries(slow)) {
      receiver.answers.set(path, how as keyof typeof slow);
      await createWebhook(receiver, sb.database.db, a.id, event, path);
    }
    const aHooks = await sb.database.db.select().from(schema.webhooks).where(eq(schema.webhooks.clientId, a.id));
    const bHook = await createWebhook(receiver, sb.database.db, b.id, event, '/slow-b/ok');
    const running = dispatcher();
    try {
      const aStarted = Object.values(slow).map((path) => arrival(path, "A's attempt"));
      await emit(sb.database.db, a.id, event, 1, 'SHIPPED');
      running.wake();
      await Promise.all(aStarted);
      // The endless answer is cut once its first KiB are read, long before the deadline.
      await closed(slow.stream, deadlineMs / 2);

      const bArrived = arrival('/slow-b/ok', "B's delivery").then((received) => ({
        received,
        at: Date.now(),
        // Taken as B's request arrives: which of A's attempts are still open.
        aOpen: Object.fromEntries(Object.entries(slow).map(([how, path]) => [how, receiver.open(path)])),
      }));
      const emittedAt = Date.now();
      await emit(sb.database.db, b.id, event, 2, 'SHIPPED');
      running.wake();
      const b1 = await bArrived;
      // The dripping and the silent one wait for their deadline; B's delivery did not.
      expect(b1.aOpen).toEqual({ drip: 1, hang: 1, stream: 0 });
      expect(b1.received.verified).toBe(true);
      // Within a second of its event, as if A had no receivers at all.
      expect(b1.at - emittedAt).toBeLessThan(1000);

      // stop() waits for A's attempts: each ends by its deadline and is booked.
      await running.stop();
      expect(running.errors).toEqual([]);
    } finally {
      await running.stop();
    }
    // The dispatcher closed every one of A's connections (the receiver would have kept them open).
    for (const path of Object.values(slow)) await closed(path, 1000);

    const logOf = async (path: string) => {
      const hook = aHooks.find((w) => w.targetUrl.endsWith(path))!;
      const [delivery] = await deliveryLog(a, hook.id);
      expect(delivery.log).toHaveLength(1);
      return { delivery, attempt: delivery.log[0] };
    };
    // 200 arrived, then a byte every 500 ms: cut at the deadline; the 200 counts.
    const drip = await logOf(slow.drip);
    expect(drip.delivery.status).toBe('DELIVERED');
    expect(drip.attempt).toMatchObject({
      statusCode: 200,
      error: `the answer did not end within ${deadlineMs} ms; the attempt was cut off`,
    });
    expect(drip.attempt.durationMs).toBeGreaterThanOrEqual(deadlineMs - 50);
    expect(drip.attempt.responseBody).toMatch(/^x+$/);
    // No answer at all: failed at the deadline, retried later.
    const hang = await logOf(slow.hang);
    expect(hang.delivery).toMatchObject({ status: 'PENDING', lastStatusCode: null });
    expect(hang.attempt).toMatchObject({
      statusCode: null,
      responseBody: null,
      error: `no answer within ${deadlineMs} ms; the attempt was cut off`,
    });
    // An answer without end: its first webhookResponseMaxBytes are read and logged, the rest never.
    const stream = await logOf(slow.stream);
    expect(stream.delivery.status).toBe('DELIVERED');
    expect(stream.attempt).toMatchObject({ statusCode: 200, error: null, responseBody: 'x'.repeat(limits.webhookResponseMaxBytes) });
    expect(stream.attempt.durationMs).toBeLessThan(deadlineMs);

    const [bDelivery] = await deliveryLog(b, bHook.id);
    expect(bDelivery).toMatchObject({ status: 'DELIVERED', attempts: 1 });
    expect(bDelivery.log[0]).toMatchObject({ statusCode: 200, responseBody: '' });
  });

  it("take at most the client's share of the dispatcher, however many of its deliveries are due", async () => {
    const a = await newClient();
    const b = await newClient();
    // Two webhooks of A whose receivers never answer, with five deliveries each: more than the dispatcher holds.
    for (const path of ['/share-a/one', '/share-a/two']) {
      receiver.answers.set(path, 'hang');
      await createWebhook(receiver, sb.database.db, a.id, event, path);
    }
    await createWebhook(receiver, sb.database.db, b.id, event, '/share-b/ok');
    const running = dispatcher({ concurrency: 8, perClientConcurrency: 2 });
    try {
      for (let entityId = 11; entityId <= 15; entityId++) await emit(sb.database.db, a.id, event, entityId, 'SHIPPED');
      running.wake();
      await arrivals('/share-a', 2, "A's attempts");

      const bArrived = arrival('/share-b/ok', "B's delivery").then(() => ({
        open: receiver.open('/share-a'),
        mostOpen: receiver.mostOpen('/share-a'),
      }));
      await emit(sb.database.db, b.id, event, 16, 'SHIPPED');
      running.wake();
      // B's delivery went out beside A's two hanging attempts; of A's ten deliveries never more than two were sent at once.
      expect(await bArrived).toEqual({ open: 2, mostOpen: 2 });
      await running.stop();
      expect(running.errors).toEqual([]);
    } finally {
      await running.stop();
    }
    expect(receiver.delivered().filter((r) => r.path === '/share-b/ok')).toHaveLength(1);
  });

  it('cost no claim per event while the client holds all it may: its notifications are skipped, the others claim', async () => {
    const a = await newClient();
    const b = await newClient();
    receiver.answers.set('/quiet-a/hang', 'hang');
    await createWebhook(receiver, sb.database.db, a.id, event, '/quiet-a/hang');
    await createWebhook(receiver, sb.database.db, b.id, event, '/quiet-b/ok');
    // The notifications as the database delivers them: each names the client whose deliveries committed.
    const payloads: string[] = [];
    const stopListening = await sb.database.listen(
      deliveriesChannel,
      (payload) => payloads.push(payload),
      () => undefined,
    );
    let claims = 0;
    let ended = 0;
    // One place per client, so A holds all it may (one sending, one waiting) after its first claim.
    const running = dispatcher({ concurrency: 8, perClientConcurrency: 1, onClaim: () => claims++, onAttempt: () => ended++ });
    try {
      await emit(sb.database.db, a.id, event, 31, 'SHIPPED');
      await emit(sb.database.db, a.id, event, 32, 'SHIPPED');
      await waitFor(() => payloads.length === 2);
      expect(payloads).toEqual([String(a.id), String(a.id)]);
      running.notified(String(a.id));
      await arrivals('/quiet-a', 1, "A's attempt");
      const before = { claims, ended };
      // Ten more events of A, each notified: A's places are all held, so none of them runs a claim. (An attempt that
      // ends, at its deadline, claims once: the ten would claim ten times.)
      for (let entityId = 33; entityId <= 42; entityId++) {
        await emit(sb.database.db, a.id, event, entityId, 'SHIPPED');
        running.notified(String(a.id));
      }
      await waitFor(() => payloads.length === 12);
      expect(payloads.slice(2)).toEqual(Array(10).fill(String(a.id)));
      expect(claims - before.claims).toBeLessThanOrEqual(ended - before.ended);
      // B's notification claims, and its delivery goes out beside A's hanging one.
      const bArrived = arrival('/quiet-b/ok', "B's delivery");
      await emit(sb.database.db, b.id, event, 43, 'SHIPPED');
      running.notified(String(b.id));
      await bArrived;
      // A payload naming no client (anyone may notify the channel) wakes it for everyone.
      const beforeOther = claims;
      running.notified('not a client');
      await waitFor(() => claims > beforeOther);
    } finally {
      await stopListening();
      await running.stop();
    }
    expect(running.errors).toEqual([]);
  });

  it('refuses a lease no longer than a wait for a place and an attempt: a delivery still held would be sent again', () => {
    expect(() => dispatcher({ timeoutMs: 10_000, leaseMs: 20_000 })).toThrow(/leaseMs .* must be longer than twice timeoutMs/);
  });
});

describe('a webhook deleted while its delivery is in flight', () => {
  it("costs another client's delivery nothing: booked once, never sent again", async () => {
    const a = await newClient();
    const b = await newClient();
    receiver.answers.set('/deleted-a/hang', 'hang');
    const aHook = await createWebhook(receiver, sb.database.db, a.id, event, '/deleted-a/hang');
    const bHook = await createWebhook(receiver, sb.database.db, b.id, event, '/deleted-b/ok');
    const running = dispatcher();
    let bReceived: Received;
    try {
      const arrived = [arrival('/deleted-a/hang', "A's attempt"), arrival('/deleted-b/ok', "B's delivery")];
      // Both due when the dispatcher wakes: claimed together.
      await emit(sb.database.db, a.id, event, 21, 'SHIPPED');
      await emit(sb.database.db, b.id, event, 22, 'SHIPPED');
      running.wake();
      [, bReceived] = await Promise.all(arrived);
      expect((await sb.call('DELETE', `/v3/webhooks/${aHook.id}`, { token: a.token })).status).toBe(204);
      // A's attempt ends at its deadline, after its webhook and delivery are gone.
      await running.stop();
      expect(running.errors).toEqual([]);
    } finally {
      await running.stop();
    }
    const [bDelivery] = await deliveryLog(b, bHook.id);
    expect(bDelivery).toMatchObject({ status: 'DELIVERED', attempts: 1, eventId: bReceived.id });
    // Once the lease has run out nothing is due: B's delivery is not sent again.
    expect(await dispatchDue(sb.database.db, options, later(60))).toEqual({ attempted: 0, delivered: 0 });
    expect(receiver.requests.filter((r) => r.path === '/deleted-b/ok').map((r) => r.id)).toEqual([bReceived.id]);
    expect((await sb.call('GET', `/v3/webhooks/${aHook.id}`, { token: a.token })).status).toBe(404);
  });
});

describe('several dispatchers on one database', () => {
  // The claim locks inside its per-webhook scan (FOR UPDATE SKIP LOCKED in a lateral subquery): what one process holds
  // the other skips.
  it('send each delivery once, each process claiming what the other has not', async () => {
    const clients = [await newClient(), await newClient(), await newClient()];
    for (const [i, client] of clients.entries()) {
      await createWebhook(receiver, sb.database.db, client.id, event, `/twice-${i}/one`);
      await createWebhook(receiver, sb.database.db, client.id, event, `/twice-${i}/two`);
      for (let entityId = 1; entityId <= 10; entityId++) await emit(sb.database.db, client.id, event, 100 * i + entityId, 'SHIPPED');
    }
    // On PostgreSQL the second dispatcher has its own pool, as a second process has.
    const other = dbKind() === 'postgres' ? await openDatabase({ databaseUrl: sb.databaseUrl!, poolSize: 2 }) : undefined;
    try {
      const small = { ...options, concurrency: 8, perClientConcurrency: 2 };
      const reports = await Promise.all([dispatchDue(sb.database.db, small), dispatchDue((other ?? sb.database).db, small)]);
      expect(reports.reduce((sum, r) => sum + r.delivered, 0)).toBe(60);
    } finally {
      await other?.close();
    }
    const arrived = receiver.requests.filter((r) => r.path.startsWith('/twice-'));
    expect(arrived).toHaveLength(60);
    expect(new Set(arrived.map((r) => `${r.path} ${r.id}`)).size).toBe(60);
  });
});
