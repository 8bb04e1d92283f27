// Products and their parts (bundles, composites).
import { boolean, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import type { Metadata } from './orders.ts';

export const products = pgTable(
  'products',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    sku: text().notNull(),
    name: text().notNull(),
    description: text(),
    type: text().notNull().default('DEFAULT'),
    status: text().notNull().default('AVAILABLE'),
    barcode: text(),
    hasBarcode: boolean().notNull().default(false),
    stockLevelType: text().notNull().default('AVAILABLE'),
    hasLotNumber: boolean().notNull().default(false),
    hasSerialNumber: boolean().notNull().default(false),
    hasExpirationDate: boolean().notNull().default(false),
    /** SCAN_AT_INBOUND for perishable products: the date is read from each unit when it arrives. */
    expirationDate: text(),
    expirationDateMargin: integer(),
    expirationDateWarning: integer(),
    countryOfOrigin: text(),
    hsCodes: jsonb().$type<{ country: string; hsCode: string }[]>().notNull().default([]),
    purchasePrice: jsonb().$type<{ currency: string; amount: number }[]>().notNull().default([]),
    metadata: jsonb().$type<Metadata>().notNull().default({}),
    /** v2-only product fields (priceA..D, supplierCode, stockMinimum, ...), kept as sent. */
    legacy: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    weight: integer(),
    length: integer(),
    width: integer(),
    height: integer(),
    imageContentType: text(),
    costPrice: numeric({ precision: 14, scale: 2, mode: 'number' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('products_client_sku_key').on(t.clientId, t.sku),
    uniqueIndex('products_client_barcode_key').on(t.clientId, t.barcode),
    index('products_client_id_idx').on(t.clientId, t.id),
  ],
);

export const productParts = pgTable(
  'product_parts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    productId: integer()
      .notNull()
      .references(() => products.id),
    partId: integer()
      .notNull()
      .references(() => products.id),
    quantity: integer().notNull(),
  },
  (t) => [index('product_parts_product_idx').on(t.productId)],
);
