// Returns: the return authorisation (v2 RMA) of a shipment and its items, with what the warehouse found when processing them.
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { clients, returnReasons } from './clients.ts';
import { orders, type Metadata } from './orders.ts';
import { shipments } from './shipments.ts';
import { products } from './products.ts';

export const returns = pgTable(
  'returns',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    shipmentId: integer()
      .notNull()
      .references(() => shipments.id),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    remark: text(),
    externalReference: text(),
    createdOn: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('returns_client_id_idx').on(t.clientId, t.id)],
);

/** One row is both the announced RMA item and, once processed, the return item the warehouse booked. */
export const returnItems = pgTable(
  'return_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    returnId: integer()
      .notNull()
      .references(() => returns.id),
    orderId: integer().notNull(),
    orderItemId: integer(),
    shipmentItemId: integer().notNull(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    sku: text().notNull(),
    quantity: integer().notNull(),
    returnReasonId: integer().references(() => returnReasons.id),
    externalOrderNumber: text().notNull(),
    externalReference: text(),
    metadata: jsonb().$type<Metadata>().notNull().default({}),
    /** Set when the warehouse processes the item: RETURN (restockable), DAMAGED or UNKNOWN. */
    condition: text(),
    processedOn: timestamp({ withTimezone: true }),
    processedIn: text(),
    restockIn: text(),
    restockOn: timestamp({ withTimezone: true }),
    comment: text(),
    redeliver: boolean().notNull().default(false),
  },
  (t) => [index('return_items_client_id_idx').on(t.clientId, t.id), index('return_items_return_idx').on(t.returnId)],
);
