// Shipments and their items, as the warehouse produces them.
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { clients, orderTypes, shippingMethods } from './clients.ts';
import { orders, type Metadata } from './orders.ts';

export interface Tracking {
  carrier: string | null;
  number: string | null;
  stage: string | null;
  status: string | null;
  url: string | null;
}
export interface Collo {
  number: number;
  parcelNumber: string;
  trackingUrl: string | null;
}

export const shipments = pgTable(
  'shipments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    orderTypeId: integer()
      .notNull()
      .references(() => orderTypes.id),
    shippingMethodId: integer()
      .notNull()
      .references(() => shippingMethods.id),
    status: text().notNull(),
    readyToPickOn: timestamp({ withTimezone: true }),
    readyToShipOn: timestamp({ withTimezone: true }),
    shippedOn: timestamp({ withTimezone: true }),
    warehouseCode: text().notNull(),
    weight: integer(),
    invoicingWeight: integer(),
    basketPicture: text(),
    returnLabel: text(),
    metadata: jsonb().$type<Metadata>().notNull().default({}),
    tracking: jsonb().$type<Tracking>(),
    trackingUpdatedAt: timestamp({ withTimezone: true }),
    colli: jsonb().$type<Collo[]>().notNull().default([]),
    /** v2: shipments flagged for sync until the client marks them synced. */
    synced: boolean().notNull().default(false),
    labeledSynced: boolean().notNull().default(false),
    /** Sandbox: the step of its order's scenario road the shipment reached (contract/src/scenarios.ts `at`). */
    roadStep: integer().notNull().default(0),
    /** A v2-only track-trace code a scenario set beside the stage (19 returned, 20 at customs, 21 in transit customs only). */
    trackTraceCode: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('shipments_client_id_idx').on(t.clientId, t.id),
    index('shipments_order_idx').on(t.orderId),
    // The client's open shipments in a warehouse: what reserves stock (the free stock an order create checks, a
    // shipment's start). Without it each check read all of the client's shipments, shipped ones too, for every product.
    index('shipments_open_idx').on(t.clientId, t.warehouseCode).where(sql`${t.status} <> 'SHIPPED'`),
  ],
);

export const shipmentItems = pgTable(
  'shipment_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    shipmentId: integer()
      .notNull()
      .references(() => shipments.id),
    orderItemId: integer(),
    productId: integer().notNull(),
    sku: text().notNull(),
    quantity: integer().notNull(),
    lotNumber: text(),
    expirationDate: date({ mode: 'string' }),
    serialNumbers: jsonb().$type<string[]>().notNull().default([]),
  },
  (t) => [index('shipment_items_shipment_idx').on(t.shipmentId, t.id)],
);
