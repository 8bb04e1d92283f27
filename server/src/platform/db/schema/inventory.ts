// Stock on warehouse locations and the mutations that moved it.
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { products } from './products.ts';

/** A place in a warehouse where a client's goods lie; stock rows point to it (include=stockLocation). */
export const stockLocations = pgTable(
  'stock_locations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    warehouseCode: text().notNull(),
    locationType: text().notNull(),
    locationCode: text().notNull(),
  },
  (t) => [uniqueIndex('stock_locations_client_code_key').on(t.clientId, t.warehouseCode, t.locationCode)],
);

/** One row per product, location, lot, expiration date, quality and status: what lies where. */
export const stock = pgTable(
  'stock',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    productId: integer()
      .notNull()
      .references(() => products.id),
    sku: text().notNull(),
    stockLocationId: integer()
      .notNull()
      .references(() => stockLocations.id),
    // Copied from the location so filters and stock levels need no join.
    warehouseCode: text().notNull(),
    locationType: text().notNull(),
    locationCode: text().notNull(),
    quantity: integer().notNull(),
    quality: text().notNull().default('OK'),
    status: text().notNull().default('OK'),
    expirationDate: date({ mode: 'string' }),
    expirationStatus: text().notNull().default('OK'),
    lotNumber: text(),
    quarantined: boolean().notNull().default(false),
    modifiedOn: timestamp({ withTimezone: true }).notNull(),
    receivedOn: timestamp({ withTimezone: true }).notNull(),
    inboundItemId: integer(),
  },
  (t) => [
    index('stock_client_id_idx').on(t.clientId, t.id),
    index('stock_client_product_idx').on(t.clientId, t.productId),
    // What lies on a shelf is never less than nothing, whatever books it out (an emptied row is deleted, so never 0 either).
    check('stock_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** The stock ledger; quantity is signed. v2 reads it as "stock mutations to sync" (synced). */
export const stockMutations = pgTable(
  'stock_mutations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    productId: integer()
      .notNull()
      .references(() => products.id),
    type: text().notNull(),
    createdOn: timestamp({ withTimezone: true }).notNull(),
    warehouseCode: text().notNull(),
    locationType: text().notNull(),
    locationCode: text().notNull(),
    sku: text().notNull(),
    quantity: integer().notNull(),
    quality: text().notNull().default('OK'),
    status: text().notNull().default('OK'),
    expirationDate: date({ mode: 'string' }),
    lotNumber: text(),
    correctionCode: text(),
    remarks: text(),
    inboundItemId: integer(),
    shipmentItemId: integer(),
    returnItemId: integer(),
    synced: boolean().notNull().default(false),
  },
  (t) => [
    index('stock_mutations_client_id_idx').on(t.clientId, t.id),
    index('stock_mutations_client_product_idx').on(t.clientId, t.productId, t.createdOn),
  ],
);
