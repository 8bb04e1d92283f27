// Sends due webhook deliveries, signed the Standard Webhooks way, with retries and automatic deactivation.
// At least once: a delivery is claimed with a lease (attempts + 1, next try after the lease) before it is sent, so a
// process that dies mid-delivery leaves it due again for any process; the same event id travels on every attempt.
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { sql } from 'drizzle-orm';
import { createHmac } from 'node:crypto';
import { queryRows, schema, type Db } from '../../platform/db/index.ts';
import { guardedLookup, refusedHost } from '../../platform/outbound-guard.ts';
import { deliveryBody, type SignatureHeaders } from './outbox.ts';
export { deliveriesChannel } from './outbox.ts';

const { webhookDeliveryAttempts } = schema;

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
  /** Sends in flight at once (an entity's events still go one after another). */
  concurrency?: number;
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
  entity: string;
  entityId: number;
  attempts: number;
  webhookId: number;
  targetUrl: string;
  secret: string;
  eventId: string;
  body: string;
}

interface ClaimedRow {
  id: number;
  client_id: number;
  attempts: number;
  webhook_id: number;
  target_url: string;
  secret: string;
  event_id: string;
  entity: string;
  entity_id: number;
  type: string;
  occurred_on: Date | string;
  payload: Record<string, unknown>;
}

/**
 * Claims due deliveries of active webhooks, oldest first, in one statement: several processes can claim together
 * (SKIP LOCKED), and the lease (attempts + 1, next try after the lease) is taken in the same statement.
 */
async function claim(db: Db, now: Date, opts: Required<DispatcherOptions>): Promise<Claimed[]> {
  const leaseEnd = new Date(now.getTime() + opts.leaseMs);
  const rows = await queryRows<ClaimedRow>(
    db,
    sql`with due as (
      select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
      where d.delivered_at is null and d.failed_at is null and d.next_attempt_at <= ${now} and w.is_active
      order by d.id limit ${opts.batchSize}
      for update of d skip locked
    ), claimed as (
      update webhook_deliveries d set attempts = d.attempts + 1, last_attempt_at = ${now}, next_attempt_at = ${leaseEnd}
      from due where d.id = due.id
      returning d.id, d.client_id, d.attempts, d.webhook_id, d.event_id
    )
    select c.id, c.client_id, c.attempts, c.webhook_id, w.target_url, w.secret, c.event_id, e.entity, e.entity_id, e.type, e.occurred_on, e.payload
    from claimed c join webhooks w on w.id = c.webhook_id join events e on e.id = c.event_id
    order by c.id`,
  );
  return rows.map((r) => ({
    id: r.id,
    clientId: r.client_id,
    entity: r.entity,
    entityId: r.entity_id,
    attempts: r.attempts,
    webhookId: r.webhook_id,
    targetUrl: r.target_url,
    secret: r.secret,
    eventId: r.event_id,
    body: deliveryBody({ type: r.type, occurredOn: new Date(r.occurred_on), payload: r.payload }),
  }));
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

/**
 * The Standard Webhooks signature (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key), made with
 * node:crypto: the reference library's pure-JavaScript hash took 6 times as long. Tests verify every delivery with
 * that library (standardwebhooks' Webhook.verify), so the two cannot drift apart.
 */
function sign(secret: string, id: string, at: Date, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key)
    .update(`${id}.${Math.floor(at.getTime() / 1000)}.${body}`)
    .digest('base64')}`;
}

interface Outcome {
  delivery: Claimed;
  /** As sent, for the delivery log. */
  headers: SignatureHeaders;
  result: SendResult;
  delivered: boolean;
  givenUp: boolean;
}

async function attempt(d: Claimed, opts: Required<DispatcherOptions>): Promise<Outcome> {
  // The signature's timestamp is real time: receivers reject timestamps far from their own clock.
  const sentAt = new Date();
  const headers: SignatureHeaders = {
    'webhook-id': d.eventId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': sign(d.secret, d.eventId, sentAt, d.body),
  };
  const result = await send(new URL(d.targetUrl), d.body, headers, opts);
  const delivered = result.statusCode === 200;
  opts.onAttempt(delivered);
  return { delivery: d, headers, result, delivered, givenUp: !delivered && d.attempts >= maxAttempts };
}

/**
 * Books the outcomes of a series of attempts in one transaction: the attempt log, each delivery's state and next try,
 * and each webhook's run of failures (reset by a success, deactivated when a delivery is given up).
 */
async function record(db: Db, outcomes: Outcome[], now: Date): Promise<void> {
  if (!outcomes.length) return;
  const byWebhook = new Map<number, { reset: boolean; failures: number; givenUp: boolean }>();
  for (const o of outcomes) {
    const run = byWebhook.get(o.delivery.webhookId) ?? { reset: false, failures: 0, givenUp: false };
    if (o.delivered) Object.assign(run, { reset: true, failures: 0 });
    else run.failures++;
    run.givenUp ||= o.givenUp;
    byWebhook.set(o.delivery.webhookId, run);
  }
  const deliveryRows = outcomes.map(({ delivery: d, result, delivered, givenUp }) => {
    const next = delivered || givenUp ? null : new Date(now.getTime() + retryDelaysSeconds[d.attempts - 1] * 1000);
    const error = delivered ? null : (result.error ?? `answered ${result.statusCode}; only 200 counts as delivered`);
    return sql`(${d.id}::int, ${result.statusCode}::int, ${result.durationMs}::int, ${error}::text, ${delivered}::boolean, ${givenUp}::boolean, ${next}::timestamptz)`;
  });
  const webhookRows = [...byWebhook].map(
    ([id, run]) => sql`(${id}::int, ${run.reset}::boolean, ${run.failures}::int, ${run.givenUp}::boolean)`,
  );
  await db.transaction(async (tx) => {
    await tx.insert(webhookDeliveryAttempts).values(
      outcomes.map(({ delivery, headers, result }) => ({
        deliveryId: delivery.id,
        attemptedAt: now,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        headers,
      })),
    );
    await tx.execute(sql`update webhook_deliveries d set
        last_status_code = v.status_code, last_duration_ms = v.duration_ms, last_error = v.error,
        delivered_at = case when v.delivered then ${now}::timestamptz else d.delivered_at end,
        failed_at = case when v.given_up then ${now}::timestamptz else d.failed_at end,
        next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at)
      from (values ${sql.join(deliveryRows, sql`, `)}) as v(id, status_code, duration_ms, error, delivered, given_up, next_attempt_at)
      where d.id = v.id`);
    // A target that failed every attempt for about a day is switched off; PUT isActive true switches it on again.
    await tx.execute(sql`update webhooks w set
        consecutive_failures = case when v.reset then v.failures else w.consecutive_failures + v.failures end,
        is_active = w.is_active and not v.given_up,
        deactivated_at = case when v.given_up then ${now}::timestamptz else w.deactivated_at end,
        updated_at = case when v.given_up then ${now}::timestamptz else w.updated_at end
      from (values ${sql.join(webhookRows, sql`, `)}) as v(id, reset, failures, given_up)
      where w.id = v.id`);
  });
}

/** The longest a send's outcome waits for the others of its batch before it is booked. */
const bookEveryMs = 250;

const withDefaults = (opts: DispatcherOptions): Required<DispatcherOptions> => ({
  timeoutMs: 10_000,
  leaseMs: 20_000,
  batchSize: 100,
  concurrency: 8,
  onAttempt: () => undefined,
  keepGoing: () => true,
  ...opts,
});

/**
 * Sends every delivery due at `now` (real time; tests pass a later moment instead of waiting). The events of one
 * entity go to a webhook one after another, in the order they happened; other entities' events go alongside, up to
 * `concurrency` sends at once.
 */
export async function dispatchDue(db: Db, opts: DispatcherOptions, now = new Date()): Promise<DispatchReport> {
  const options = withDefaults(opts);
  const report: DispatchReport = { attempted: 0, delivered: 0 };
  for (;;) {
    const claimed = await claim(db, now, options);
    if (!claimed.length) return report;
    // One lane per entity of a webhook: its events go one after another, in order; lanes run side by side.
    const lanes = new Map<string, Claimed[]>();
    for (const d of claimed) {
      const key = `${d.webhookId}:${d.entity}:${d.entityId}`;
      lanes.set(key, [...(lanes.get(key) ?? []), d]);
    }
    const queue = [...lanes.values()];
    // Booked together, but at least every bookEveryMs: the delivery log follows closely even in a long batch.
    let outcomes: Outcome[] = [];
    let bookedAt = performance.now();
    const book = async () => {
      const taken = outcomes;
      outcomes = [];
      bookedAt = performance.now();
      await record(db, taken, now);
    };
    const worker = async () => {
      for (let lane = queue.shift(); lane; lane = queue.shift()) {
        for (const d of lane) {
          const outcome = await attempt(d, options);
          outcomes.push(outcome);
          report.attempted++;
          if (outcome.delivered) report.delivered++;
          if (performance.now() - bookedAt >= bookEveryMs) await book();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, queue.length) }, worker));
    await book();
    if (claimed.length < options.batchSize || !options.keepGoing()) return report;
  }
}

export interface Dispatcher {
  /** Starts a round now (new deliveries were committed), or right after the one under way. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Runs dispatchDue inside the server process: at once when woken (the outbox notifies on commit), and every
 * intervalMs for retries that fell due and for notifications that never came. Rounds do not overlap; a wake-up during
 * a round runs one more right after it. stop() lets the batch in hand finish (its deliveries are claimed; cutting
 * them off would only make them wait out their lease) and claims no further batch.
 */
export function startDispatcher(db: Db, opts: DispatcherOptions & { intervalMs: number; onError(error: unknown): void }): Dispatcher {
  let round: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (round) {
      again = true;
      return;
    }
    again = false;
    round = dispatchDue(db, { ...opts, keepGoing: () => !stopped })
      .then(() => undefined, opts.onError)
      .finally(() => {
        round = undefined;
        if (again) run();
      });
  };
  const timer = setInterval(run, opts.intervalMs);
  timer.unref();
  return {
    wake: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}
