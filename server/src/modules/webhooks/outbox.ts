// The outbox: events are written in the transaction of the change that emits them, fanned out to a delivery per
// active webhook of the client for that event; the dispatcher sends them later. Also the delivery log and redelivery.
//
// Why no job library (pg-boss, graphile-worker): the outbox rows must be written in the caller's drizzle transaction,
// which a job library's own connection cannot join; and what the dispatcher needs from one (claiming due rows with
// FOR UPDATE SKIP LOCKED, a retry time per row) is two statements on these tables.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { WebhookEntity } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import type { Page } from '../../platform/page.ts';
import { DomainError, domainError } from '../../platform/errors.ts';

const { events, webhooks, webhookDeliveries, webhookDeliveryAttempts } = schema;

export type EventRow = typeof events.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DeliveryAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
/** The Standard Webhooks headers of one attempt. */
export type SignatureHeaders = NonNullable<DeliveryAttemptRow['headers']>;

export interface NewEvent {
  type: string;
  entity: WebhookEntity;
  entityId: number;
  /** The v3 resource object as GET returns it now. */
  data: Record<string, unknown>;
  /** The client's clock. */
  occurredOn: Date;
}

/** Writes the event and its deliveries. Call it inside the transaction that makes the change the event describes. */
export async function emitEvent(tx: Db, clientId: number, event: NewEvent): Promise<void> {
  const id = randomUUID();
  await tx.insert(events).values({
    id,
    clientId,
    type: event.type,
    entity: event.entity,
    entityId: event.entityId,
    payload: event.data,
    occurredOn: event.occurredOn,
  });
  const subscribed = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(ownedBy(webhooks, clientId), eq(webhooks.entity, event.entity), eq(webhooks.event, event.type), eq(webhooks.isActive, true)))
    .orderBy(asc(webhooks.id));
  if (!subscribed.length) return;
  // Due at once. Retry times are real time, not the client's simulated clock.
  const now = new Date();
  await tx.insert(webhookDeliveries).values(subscribed.map((w) => ({ clientId, eventId: id, webhookId: w.id, nextAttemptAt: now })));
  await notifyDispatchers(tx, clientId);
}

/** The channel the outbox notifies when it commits deliveries that are due now; dispatchers listen on it. */
export const deliveriesChannel = 'webhook_deliveries';

/**
 * Wakes the dispatchers (every process's, on PostgreSQL) when the transaction commits; a rolled-back one wakes none.
 * The payload is the client whose deliveries these are (a dispatcher holding all it may of that client has nothing to
 * claim for it). Notifications with the same payload in one transaction are sent once.
 */
async function notifyDispatchers(tx: Db, clientId: number): Promise<void> {
  await tx.execute(sql`select pg_notify(${deliveriesChannel}, ${String(clientId)})`);
}

/**
 * The client a notification on deliveriesChannel names; undefined for any other payload (anyone connected to the
 * database may notify the channel), which wakes the dispatcher for everyone.
 */
export function notifiedClient(payload: string): number | undefined {
  return /^[1-9][0-9]{0,9}$/.test(payload) ? Number(payload) : undefined;
}

/** The body a delivery POSTs: the same bytes on every attempt. */
export function deliveryBody(event: Pick<EventRow, 'type' | 'occurredOn' | 'payload'>): string {
  return JSON.stringify({ type: event.type, timestamp: event.occurredOn.toISOString(), data: event.payload });
}

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export const deliveryStatus = (d: Pick<DeliveryRow, 'deliveredAt' | 'failedAt'>): DeliveryStatus =>
  d.deliveredAt ? 'DELIVERED' : d.failedAt ? 'FAILED' : 'PENDING';

export interface DeliveryLogEntry {
  delivery: DeliveryRow;
  event: Pick<EventRow, 'id' | 'type' | 'entity' | 'entityId' | 'occurredOn'>;
  /** The body POSTed on every attempt (deliveryBody, as the dispatcher builds it). */
  body: string;
  attempts: DeliveryAttemptRow[];
}

async function requireWebhook(db: Db, clientId: number, webhookId: number) {
  const [webhook] = await db
    .select({ id: webhooks.id, isActive: webhooks.isActive })
    .from(webhooks)
    .where(and(ownedBy(webhooks, clientId), eq(webhooks.id, webhookId)));
  if (!webhook) throw domainError('404', `Webhook ${webhookId} not found.`);
  return webhook;
}

async function logEntries(db: Db, rows: DeliveryRow[]): Promise<DeliveryLogEntry[]> {
  if (!rows.length) return [];
  const [eventRows, attemptRows] = await Promise.all([
    db
      .select({
        id: events.id,
        type: events.type,
        entity: events.entity,
        entityId: events.entityId,
        occurredOn: events.occurredOn,
        payload: events.payload,
      })
      .from(events)
      .where(inArray(events.id, [...new Set(rows.map((r) => r.eventId))])),
    db
      .select()
      .from(webhookDeliveryAttempts)
      .where(
        inArray(
          webhookDeliveryAttempts.deliveryId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(webhookDeliveryAttempts.id)),
  ]);
  const eventById = new Map(eventRows.map((e) => [e.id, e]));
  return rows.map((delivery) => {
    const event = eventById.get(delivery.eventId)!;
    return { delivery, event, body: deliveryBody(event), attempts: attemptRows.filter((a) => a.deliveryId === delivery.id) };
  });
}

/** The delivery log of one of the client's webhooks, oldest first, cursor-paged on the delivery id. */
export async function listDeliveries(db: Db, clientId: number, webhookId: number, page: Page): Promise<DeliveryLogEntry[]> {
  await requireWebhook(db, clientId, webhookId);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(and(ownedBy(webhookDeliveries, clientId), eq(webhookDeliveries.webhookId, webhookId), gt(webhookDeliveries.id, page.cursor)))
    .orderBy(asc(webhookDeliveries.id))
    .limit(page.size);
  return logEntries(db, rows);
}

/** One entry of the delivery log of one of the client's webhooks. */
export async function findDelivery(db: Db, clientId: number, webhookId: number, deliveryId: number): Promise<DeliveryLogEntry> {
  await requireWebhook(db, clientId, webhookId);
  return (await logEntries(db, [await requireDelivery(db, clientId, webhookId, deliveryId)]))[0];
}

async function requireDelivery(db: Db, clientId: number, webhookId: number, deliveryId: number) {
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(ownedBy(webhookDeliveries, clientId), eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.id, deliveryId)));
  if (!delivery) throw domainError('404', `Delivery ${deliveryId} of webhook ${webhookId} not found.`);
  return delivery;
}

/** A redelivery through an inactive webhook: it would only queue until the webhook is active again (the API words how). */
export class InactiveWebhookRefusal extends DomainError {
  constructor(readonly webhookId: number) {
    super({ code: '409', detail: `Webhook ${webhookId} is inactive.` });
  }
}

/**
 * Sends an event of the delivery log again, as a new delivery with the same event id (receivers deduplicate by
 * webhook-id). An inactive webhook answers 409: it would only queue the delivery until a PUT reactivates it.
 */
export async function redeliver(db: Db, clientId: number, webhookId: number, deliveryId: number): Promise<DeliveryLogEntry> {
  const webhook = await requireWebhook(db, clientId, webhookId);
  const original = await requireDelivery(db, clientId, webhookId, deliveryId);
  if (!webhook.isActive) throw new InactiveWebhookRefusal(webhookId);
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(webhookDeliveries)
      .values({ clientId, eventId: original.eventId, webhookId, nextAttemptAt: new Date() })
      .returning();
    await notifyDispatchers(tx, clientId);
    return inserted;
  });
  return (await logEntries(db, [row]))[0];
}
