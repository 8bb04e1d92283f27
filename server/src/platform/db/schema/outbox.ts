// The transactional outbox: events written in the same transaction as the change they describe, and their
// deliveries to each subscribed webhook, so a crash or restart never loses an event (the state is here, not in memory).
import { sql } from 'drizzle-orm';
import { bigint, index, integer, json, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { webhooks } from './webhooks.ts';

export const events = pgTable(
  'events',
  {
    /** Sent as webhook-id: stays the same on every retry and redelivery, so receivers deduplicate by it. */
    id: uuid().primaryKey(),
    /** Emission order, which deliveries follow. */
    sequence: bigint({ mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    /** The spec's event name, e.g. shipment.shipped.3. */
    type: text().notNull(),
    entity: text().notNull(),
    entityId: integer().notNull(),
    /**
     * The v3 resource object as GET returned it when the event happened. json, not jsonb: the text is kept as written, so
     * the payload's keys stay in the contract's order, as in every other answer (jsonb would reorder them).
     */
    payload: json().$type<Record<string, unknown>>().notNull(),
    /** On the client's simulated clock: the payload's timestamp. */
    occurredOn: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_client_entity_idx').on(t.clientId, t.entity, t.entityId)],
);

/** One event to one webhook. Due while delivered_on and failed_on are null and next_attempt_at has passed (real time). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    eventId: uuid()
      .notNull()
      .references(() => events.id),
    webhookId: integer()
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull(),
    lastAttemptAt: timestamp({ withTimezone: true }),
    lastStatusCode: integer(),
    lastDurationMs: integer(),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    /** Set when every retry is spent; the webhook is deactivated at the same time. */
    failedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`delivered_at is null and failed_at is null`),
    index('webhook_deliveries_webhook_idx').on(t.clientId, t.webhookId, t.id),
    // The dispatcher's claim: a skip scan over the webhooks with open deliveries, then each one's due ones in order.
    index('webhook_deliveries_open_idx').on(t.webhookId, t.nextAttemptAt, t.id).where(sql`delivered_at is null and failed_at is null`),
  ],
);

/** Every attempt, for the delivery log. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: integer()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp({ withTimezone: true }).notNull(),
    statusCode: integer(),
    durationMs: integer().notNull(),
    error: text(),
    /** webhook-id, webhook-timestamp and webhook-signature as sent on this attempt; null on attempts logged before they were kept. */
    headers: json().$type<Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>>(),
    /** The start of the receiver's answer body (limits.webhookResponseMaxBytes); null when no answer came. */
    responseBody: text(),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId, t.id)],
);
