// Announced goods (inbound packing slips; v2 calls them purchase orders) and what the warehouse received (inbounds).
import { date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { products } from './products.ts';
import type { Metadata } from './orders.ts';

export const inboundPackingSlips = pgTable(
  'inbound_packing_slips',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    reference: text().notNull(),
    /** The warehouse the goods are expected in (v2: warehouseId). */
    expectedIn: text().notNull(),
    expectedOn: date({ mode: 'string' }),
    status: text().notNull().default('EXPECTED'),
    /** v3 comments; v2 comment (and the purchaseOrderRemark of stock mutations). */
    comments: text(),
    metadata: jsonb().$type<Metadata>().notNull().default({}),
    receivedOn: timestamp({ withTimezone: true }),
    completedOn: timestamp({ withTimezone: true }),
    createdOn: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('inbound_packing_slips_client_reference_key').on(t.clientId, t.reference),
    index('inbound_packing_slips_client_id_idx').on(t.clientId, t.id),
  ],
);

export const inboundPackingSlipItems = pgTable(
  'inbound_packing_slip_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    inboundPackingSlipId: integer()
      .notNull()
      .references(() => inboundPackingSlips.id),
    productId: integer()
      .notNull()
      .references(() => products.id),
    sku: text().notNull(),
    /** Expected quantity. */
    quantity: integer().notNull(),
    received: integer().notNull().default(0),
    /** v2 purchase order items may carry their own expected date. */
    expectedDate: date({ mode: 'string' }),
  },
  (t) => [index('inbound_packing_slip_items_slip_idx').on(t.inboundPackingSlipId, t.id)],
);

export const inbounds = pgTable(
  'inbounds',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    inboundPackingSlipId: integer().references(() => inboundPackingSlips.id),
    reference: text().notNull(),
    status: text().notNull().default('PROCESSING'),
    receivedIn: text().notNull(),
    createdOn: timestamp({ withTimezone: true }).notNull(),
    checkingOn: timestamp({ withTimezone: true }),
    checkedOn: timestamp({ withTimezone: true }),
    /** A CHECKED inbound completes by itself at this moment of the client's clock. */
    completesOn: timestamp({ withTimezone: true }),
    completedOn: timestamp({ withTimezone: true }),
  },
  (t) => [index('inbounds_client_id_idx').on(t.clientId, t.id)],
);

export const inboundItems = pgTable(
  'inbound_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    inboundId: integer()
      .notNull()
      .references(() => inbounds.id),
    /** Null for goods that arrived without being on the packing slip. */
    inboundPackingSlipItemId: integer().references(() => inboundPackingSlipItems.id),
    productId: integer()
      .notNull()
      .references(() => products.id),
    sku: text().notNull(),
    quantity: integer().notNull(),
    lotNumber: text(),
    expirationDate: date({ mode: 'string' }),
  },
  (t) => [index('inbound_items_inbound_idx').on(t.inboundId, t.id)],
);
