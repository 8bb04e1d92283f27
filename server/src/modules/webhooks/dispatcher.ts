// Sends due webhook deliveries, signed the Standard Webhooks way, with retries and automatic deactivation.
// At least once: a delivery is claimed with a lease (attempts + 1, next try after the lease) before it is sent, so a
// process that dies mid-delivery leaves it due again for any process; the same event id travels on every attempt.
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { schema, type Db } from '../../platform/db/index.ts';
import { guardedLookup, refusedHost } from '../../platform/outbound-guard.ts';
import { deliveryBody } from './outbox.ts';

const { events, webhooks, webhookDeliveries, webhookDeliveryAttempts } = schema;

/**
 * Waits between attempts, in seconds (the Standard Webhooks reference schedule): 8 attempts over about 27 hours.
 * When the last one fails the delivery is given up and the webhook deactivated.
 */
export const retryDelaysSeconds = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
export const maxAttempts = retryDelaysSeconds.length + 1;

export interface DispatcherOptions {
  allowPrivateTargets: boolean;
  /** A target that has not answered by then counts as failed. */
  timeoutMs?: number;
  /** How long a claimed delivery stays invisible to other dispatchers; longer than any send can take. */
  leaseMs?: number;
  batchSize?: number;
  /** Told the outcome of every attempt (metrics). */
  onAttempt?(delivered: boolean): void;
  /** Asked before claiming the next batch; false ends the round with the batch in hand (shutdown). */
  keepGoing?(): boolean;
}

export interface DispatchReport {
  attempted: number;
  delivered: number;
}

interface Claimed {
  id: number;
  clientId: number;
  attempts: number;
  webhookId: number;
  targetUrl: string;
  secret: string;
  eventId: string;
  body: string;
}

/** Claims due deliveries of active webhooks, oldest first; several processes can claim together (SKIP LOCKED). */
async function claim(db: Db, now: Date, opts: Required<DispatcherOptions>): Promise<Claimed[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(
        and(
          isNull(webhookDeliveries.deliveredAt),
          isNull(webhookDeliveries.failedAt),
          lte(webhookDeliveries.nextAttemptAt, now),
          eq(webhooks.isActive, true),
        ),
      )
      .orderBy(asc(webhookDeliveries.id))
      .limit(opts.batchSize)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    if (!due.length) return [];
    const ids = due.map((d) => d.id);
    await tx
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: now, nextAttemptAt: new Date(now.getTime() + opts.leaseMs) })
      .where(inArray(webhookDeliveries.id, ids));
    const rows = await tx
      .select({
        id: webhookDeliveries.id,
        clientId: webhookDeliveries.clientId,
        attempts: webhookDeliveries.attempts,
        webhookId: webhooks.id,
        targetUrl: webhooks.targetUrl,
        secret: webhooks.secret,
        eventId: events.id,
        type: events.type,
        occurredOn: events.occurredOn,
        payload: events.payload,
      })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(inArray(webhookDeliveries.id, ids))
      .orderBy(asc(webhookDeliveries.id));
    return rows.map(({ type, occurredOn, payload, ...r }) => ({ ...r, body: deliveryBody({ type, occurredOn, payload }) }));
  });
}

interface SendResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** One POST; any answer other than 200 (or none within the timeout) is a failure. Redirects are not followed. */
function send(url: URL, body: string, headers: Record<string, string>, opts: Required<DispatcherOptions>): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    // Node connects to an IP literal without a lookup, so the host as written is checked here and names at lookup.
    const refused = opts.allowPrivateTargets ? undefined : refusedHost(url.hostname);
    if (refused) return resolve({ statusCode: null, durationMs: 0, error: refused });
    const options: RequestOptions = {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'shopapi-sandbox-webhooks/1',
      },
      lookup: opts.allowPrivateTargets ? undefined : guardedLookup,
      timeout: opts.timeoutMs,
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (response) => {
      // The answer's body is not needed; reading it frees the socket.
      response.resume();
      response.on('end', () => resolve({ statusCode: response.statusCode ?? null, durationMs: elapsed(), error: null }));
      response.on('error', (error) => resolve({ statusCode: response.statusCode ?? null, durationMs: elapsed(), error: error.message }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    request.on('error', (error) => resolve({ statusCode: null, durationMs: elapsed(), error: error.message }));
    request.end(body);
  });
}

async function deliver(db: Db, d: Claimed, now: Date, opts: Required<DispatcherOptions>): Promise<boolean> {
  // The signature's timestamp is real time: receivers reject timestamps far from their own clock.
  const sentAt = new Date();
  const signature = new Webhook(d.secret).sign(d.eventId, sentAt, d.body);
  const result = await send(
    new URL(d.targetUrl),
    d.body,
    {
      'webhook-id': d.eventId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    },
    opts,
  );
  const delivered = result.statusCode === 200;
  opts.onAttempt(delivered);
  const givenUp = !delivered && d.attempts >= maxAttempts;
  await db.transaction(async (tx) => {
    await tx
      .insert(webhookDeliveryAttempts)
      .values({ deliveryId: d.id, attemptedAt: now, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error });
    await tx
      .update(webhookDeliveries)
      .set({
        lastStatusCode: result.statusCode,
        lastDurationMs: result.durationMs,
        lastError: delivered ? null : (result.error ?? `answered ${result.statusCode}; only 200 counts as delivered`),
        ...(delivered ? { deliveredAt: now } : {}),
        ...(givenUp ? { failedAt: now } : {}),
        ...(!delivered && !givenUp ? { nextAttemptAt: new Date(now.getTime() + retryDelaysSeconds[d.attempts - 1] * 1000) } : {}),
      })
      .where(eq(webhookDeliveries.id, d.id));
    if (delivered) {
      await tx.update(webhooks).set({ consecutiveFailures: 0 }).where(eq(webhooks.id, d.webhookId));
    } else {
      await tx
        .update(webhooks)
        .set({
          consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
          // A target that failed every attempt for about a day is switched off; PUT isActive true switches it on again.
          ...(givenUp ? { isActive: false, deactivatedAt: now, updatedAt: now } : {}),
        })
        .where(eq(webhooks.id, d.webhookId));
    }
  });
  return delivered;
}

const withDefaults = (opts: DispatcherOptions): Required<DispatcherOptions> => ({
  timeoutMs: 10_000,
  leaseMs: 20_000,
  batchSize: 50,
  onAttempt: () => undefined,
  keepGoing: () => true,
  ...opts,
});

/**
 * Sends every delivery due at `now` (real time; tests pass a later moment instead of waiting). Each client's
 * deliveries go one after another in event order, so a receiver sees an entity's events in order; clients in parallel.
 */
export async function dispatchDue(db: Db, opts: DispatcherOptions, now = new Date()): Promise<DispatchReport> {
  const options = withDefaults(opts);
  const report: DispatchReport = { attempted: 0, delivered: 0 };
  for (;;) {
    const claimed = await claim(db, now, options);
    if (!claimed.length) return report;
    const byClient = new Map<number, Claimed[]>();
    for (const d of claimed) byClient.set(d.clientId, [...(byClient.get(d.clientId) ?? []), d]);
    await Promise.all(
      [...byClient.values()].map(async (list) => {
        for (const d of list) {
          report.attempted++;
          if (await deliver(db, d, now, options)) report.delivered++;
        }
      }),
    );
    if (claimed.length < options.batchSize || !options.keepGoing()) return report;
  }
}

export interface Dispatcher {
  stop(): Promise<void>;
}

/**
 * Runs dispatchDue every intervalMs inside the server process. stop() lets the batch in hand finish (its deliveries
 * are claimed; cutting them off would only make them wait out their lease) and claims no further batch.
 */
export function startDispatcher(db: Db, opts: DispatcherOptions & { intervalMs: number; onError(error: unknown): void }): Dispatcher {
  let round: Promise<void> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    // A round still sending (a slow target) is not overlapped; the next tick looks again.
    if (round || stopped) return;
    round = dispatchDue(db, { ...opts, keepGoing: () => !stopped })
      .then(() => undefined, opts.onError)
      .finally(() => {
        round = undefined;
      });
  }, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}
