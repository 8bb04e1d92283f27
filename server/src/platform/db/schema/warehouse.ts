// The simulated warehouse's agenda: when each shipment or inbound makes its next move on its client's clock.
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';

export const warehouseTasks = pgTable(
  'warehouse_tasks',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    entity: text().$type<'shipment' | 'inbound'>().notNull(),
    entityId: integer().notNull(),
    /** On the client's simulated clock. */
    dueOn: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('warehouse_tasks_entity_key').on(t.entity, t.entityId),
    index('warehouse_tasks_client_due_idx').on(t.clientId, t.dueOn),
  ],
);
