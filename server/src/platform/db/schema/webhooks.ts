// Webhook subscriptions: which event of which entity is pushed to which URL, signed with the subscription's secret.
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';

export const webhooks = pgTable(
  'webhooks',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    entity: text().notNull(),
    event: text().notNull(),
    targetUrl: text().notNull(),
    isActive: boolean().notNull().default(true),
    /** Standard Webhooks signing secret (whsec_...); shown to the client once, kept to sign deliveries. */
    secret: text().notNull(),
    /** Deliveries that failed in a row; the dispatcher deactivates the webhook after too many. */
    consecutiveFailures: integer().notNull().default(0),
    deactivatedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_client_id_idx').on(t.clientId, t.id), index('webhooks_client_event_idx').on(t.clientId, t.event)],
);
