// The deliveries' side of the database for the dispatcher: claiming due deliveries fairly between clients, and booking
// the outcomes of attempts.
import { sql } from 'drizzle-orm';
import { queryRows, schema, type Db } from '../../platform/db/index.ts';
import { deliveryBody, type SignatureHeaders } from './outbox.ts';
import type { SendResult } from './delivery-attempt.ts';

const { webhookDeliveryAttempts } = schema;

/**
 * Waits between attempts, in seconds (the Standard Webhooks reference schedule): 8 attempts over about 27 hours.
 * When the last one fails the delivery is given up and the webhook deactivated.
 */
export const retryDelaysSeconds = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
export const maxAttempts = retryDelaysSeconds.length + 1;

/** The events of one entity to one webhook: they go one after another, in the order they happened. */
export interface Lane {
  webhookId: number;
  entity: string;
  entityId: number;
}

export const laneKey = (lane: Lane) => `${lane.webhookId}:${lane.entity}:${lane.entityId}`;

export interface Claimed extends Lane {
  id: number;
  clientId: number;
  attempts: number;
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

export interface ClaimRequest {
  now: Date;
  /** Until then a claimed delivery is not due for anyone (attempts + 1 is booked with it): at least once across crashes. */
  leaseMs: number;
  /** Deliveries to claim at most: the dispatcher's free room. */
  free: number;
  /** Deliveries of one client the dispatcher holds at once, at most. */
  perClient: number;
  /** What the dispatcher holds now: the clients' counts, and the lanes whose next event must wait. */
  heldByClient: ReadonlyMap<number, number>;
  busyLanes: Lane[];
}

/**
 * Claims due deliveries of active webhooks in one statement, fairly: each client gets at most its free share
 * (perClient less what the dispatcher holds of it), and the free room goes round-robin, every client's first delivery
 * before anyone's second, the longest waiting first. Of a lane only its first due event is taken, and none of a lane
 * held here. Several processes can claim together (SKIP LOCKED); the lease is taken in the same statement.
 *
 * The cost does not grow with backlogs: the webhooks with open deliveries are found by a skip scan of
 * webhook_deliveries_open_idx (one probe per webhook), and each active one yields at most perClient due deliveries from
 * the same index, so a client's thousands of due, retrying or paused deliveries are never read in full.
 */
export async function claim(db: Db, request: ClaimRequest): Promise<Claimed[]> {
  const { now, perClient } = request;
  const leaseEnd = new Date(now.getTime() + request.leaseMs);
  const held = [...request.heldByClient];
  const rows = await queryRows<ClaimedRow>(
    db,
    sql`with recursive open_webhooks(webhook_id) as (
      (select webhook_id from webhook_deliveries where delivered_at is null and failed_at is null order by webhook_id limit 1)
      union all
      select (
        select d.webhook_id from webhook_deliveries d
        where d.delivered_at is null and d.failed_at is null and d.webhook_id > o.webhook_id
        order by d.webhook_id limit 1
      ) from open_webhooks o where o.webhook_id is not null
    ), held(client_id, deliveries) as (
      select * from unnest(${sql.param(held.map(([clientId]) => clientId))}::int[], ${sql.param(held.map(([, count]) => count))}::int[])
    ), busy(webhook_id, entity, entity_id) as (
      select * from unnest(
        ${sql.param(request.busyLanes.map((l) => l.webhookId))}::int[],
        ${sql.param(request.busyLanes.map((l) => l.entity))}::text[],
        ${sql.param(request.busyLanes.map((l) => l.entityId))}::int[]
      )
    ), candidates as (
      select c.* from open_webhooks o
      join webhooks w on w.id = o.webhook_id and w.is_active
      left join held s on s.client_id = w.client_id
      cross join lateral (
        select d.id, d.client_id, d.webhook_id, e.entity, e.entity_id, d.next_attempt_at
        from webhook_deliveries d join events e on e.id = d.event_id
        where d.webhook_id = w.id and d.delivered_at is null and d.failed_at is null
          and d.next_attempt_at <= ${now}::timestamptz
          and not exists (select 1 from busy b where b.webhook_id = d.webhook_id and b.entity = e.entity and b.entity_id = e.entity_id)
        order by d.next_attempt_at, d.id
        limit least(${perClient} - coalesce(s.deliveries, 0), ${request.free})
        for update of d skip locked
      ) c
      where coalesce(s.deliveries, 0) < ${perClient}
    ), lane_heads as (
      select h.*, row_number() over (partition by h.client_id order by h.next_attempt_at, h.id) as turn
      from (
        select c.*, row_number() over (partition by c.webhook_id, c.entity, c.entity_id order by c.next_attempt_at, c.id) as in_lane
        from candidates c
      ) h
      where h.in_lane = 1
    ), chosen as (
      select h.id from lane_heads h left join held s on s.client_id = h.client_id
      where h.turn <= ${perClient} - coalesce(s.deliveries, 0)
      order by h.turn, h.next_attempt_at, h.id
      limit ${request.free}
    ), claimed as (
      update webhook_deliveries d set attempts = d.attempts + 1, last_attempt_at = ${now}::timestamptz, next_attempt_at = ${leaseEnd}::timestamptz
      from chosen where d.id = chosen.id
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

export interface Outcome {
  delivery: Claimed;
  /** When the attempt started; the retry delay counts from it. */
  attemptedAt: Date;
  /** As sent, for the delivery log. */
  headers: SignatureHeaders;
  result: SendResult;
  delivered: boolean;
  givenUp: boolean;
}

/**
 * Books the outcomes of attempts in one transaction: the attempt log, each delivery's state and next try, and each
 * webhook's run of failures (reset by a success, deactivated when a delivery is given up).
 *
 * A webhook deleted while its delivery was in flight took the delivery with it (on delete cascade): its outcome is
 * dropped and the others are booked. The webhooks are locked first, in id order, so a delete either finished before
 * (its outcomes are left out) or waits for this booking; deliveries are only touched after their webhook's lock, the
 * order the delete's cascade takes too, so the two never deadlock.
 */
export async function book(db: Db, outcomes: Outcome[]): Promise<void> {
  if (!outcomes.length) return;
  await db.transaction(async (tx) => {
    const webhookIds = [...new Set(outcomes.map((o) => o.delivery.webhookId))].sort((a, b) => a - b);
    const present = await queryRows<{ id: number }>(
      tx,
      sql`select id from webhooks where id = any(${sql.param(webhookIds)}::int[]) order by id for no key update`,
    );
    const kept = new Set(present.map((w) => w.id));
    const booked = outcomes.filter((o) => kept.has(o.delivery.webhookId));
    if (!booked.length) return;
    const byWebhook = new Map<number, { reset: boolean; failures: number; givenUp: boolean; at: Date }>();
    for (const o of booked) {
      const run = byWebhook.get(o.delivery.webhookId) ?? { reset: false, failures: 0, givenUp: false, at: o.attemptedAt };
      if (o.delivered) Object.assign(run, { reset: true, failures: 0 });
      else run.failures++;
      run.givenUp ||= o.givenUp;
      byWebhook.set(o.delivery.webhookId, run);
    }
    const deliveryRows = booked.map(({ delivery: d, attemptedAt, result, delivered, givenUp }) => {
      const next = delivered || givenUp ? null : new Date(attemptedAt.getTime() + retryDelaysSeconds[d.attempts - 1] * 1000);
      const done = delivered || givenUp ? attemptedAt : null;
      const error = delivered ? null : (result.error ?? `answered ${result.statusCode}; only 200 counts as delivered`);
      return sql`(${d.id}::int, ${result.statusCode}::int, ${result.durationMs}::int, ${error}::text, ${delivered}::boolean, ${givenUp}::boolean, ${next}::timestamptz, ${done}::timestamptz)`;
    });
    const webhookRows = [...byWebhook].map(
      ([id, run]) => sql`(${id}::int, ${run.reset}::boolean, ${run.failures}::int, ${run.givenUp}::boolean, ${run.at}::timestamptz)`,
    );
    await tx.insert(webhookDeliveryAttempts).values(
      booked.map(({ delivery, attemptedAt, headers, result }) => ({
        deliveryId: delivery.id,
        attemptedAt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        headers,
        responseBody: result.responseBody,
      })),
    );
    await tx.execute(sql`update webhook_deliveries d set
        last_status_code = v.status_code, last_duration_ms = v.duration_ms, last_error = v.error,
        delivered_at = case when v.delivered then v.done_at else d.delivered_at end,
        failed_at = case when v.given_up then v.done_at else d.failed_at end,
        next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at)
      from (values ${sql.join(deliveryRows, sql`, `)}) as v(id, status_code, duration_ms, error, delivered, given_up, next_attempt_at, done_at)
      where d.id = v.id`);
    // A target that failed every attempt for about a day is switched off; PUT isActive true switches it on again.
    await tx.execute(sql`update webhooks w set
        consecutive_failures = case when v.reset then v.failures else w.consecutive_failures + v.failures end,
        is_active = w.is_active and not v.given_up,
        deactivated_at = case when v.given_up then v.at else w.deactivated_at end,
        updated_at = case when v.given_up then v.at else w.updated_at end
      from (values ${sql.join(webhookRows, sql`, `)}) as v(id, reset, failures, given_up, at)
      where w.id = v.id`);
  });
}
