// Orders and what belongs to them: items, addresses, pick-up point, attachments.
import { boolean, customType, date, index, integer, jsonb, numeric, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients, orderTypes, shippingMethods } from './clients.ts';

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

export type Metadata = Record<string, string | null>;

export const orders = pgTable(
  'orders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    externalOrderNumber: text().notNull(),
    locale: text().notNull(),
    reference: text(),
    orderedOn: timestamp({ withTimezone: true }),
    consumerReference: text(),
    promotionCode: text(),
    email: text().notNull(),
    phoneNumber: text(),
    vatNumber: text(),
    fulfillFrom: text(),
    preferredShippingDate: date({ mode: 'string' }),
    allowPartialDelivery: boolean().notNull().default(false),
    onHold: boolean().notNull().default(false),
    metadata: jsonb().$type<Metadata>().notNull().default({}),
    channelIdentifier: text(),
    currency: text().notNull().default('EUR'),
    // References, so a settings change can never leave an order pointing at a removed entry (PUT /sandbox/settings).
    orderTypeId: integer()
      .notNull()
      .references(() => orderTypes.id),
    preferredShippingMethodId: integer()
      .notNull()
      .references(() => shippingMethods.id),
    deliveryAddressId: integer().notNull(),
    billingAddressId: integer().notNull(),
    /** v2: an order whose address lacks a required house number is Not Valid and not shipped until fixed. */
    isValid: boolean().notNull().default(true),
    /** Set when every item is fully shipped: the order refuses changes (422). */
    fulfilledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * Sandbox: the test scenario PUT /sandbox/orders/{id}/scenario set (contract/src/scenarios.ts), null for the ordinary
     * road. A marker in the free fields needs no column: it is read from metadata where the road is needed.
     */
    scenario: text(),
    /** 'control' once PUT /sandbox/orders/{id}/scenario chose the road (then `scenario`, even null, wins over a marker). */
    scenarioSetBy: text(),
  },
  (t) => [
    uniqueIndex('orders_client_external_key').on(t.clientId, t.externalOrderNumber),
    index('orders_client_id_idx').on(t.clientId, t.id),
  ],
);

export const addresses = pgTable(
  'addresses',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    orderId: integer(),
    firstName: text(),
    lastName: text(),
    prefix: text(),
    company: text(),
    street1: text().notNull(),
    street2: text(),
    houseNumber: text(),
    houseNumberExtension: text(),
    postcode: text(),
    city: text().notNull(),
    region: text(),
    countryCode: text().notNull(),
    translatedName: text(),
  },
  (t) => [index('addresses_order_idx').on(t.orderId)],
);

export const pickUpPoints = pgTable(
  'pick_up_points',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    identifier: text().notNull(),
    registrationNumber: text(),
    name: text(),
    street1: text(),
    street2: text(),
    postcode: text(),
    houseNumber: text(),
    houseNumberExtension: text(),
    city: text(),
    region: text(),
    countryCode: text().notNull(),
  },
  (t) => [uniqueIndex('pick_up_points_order_key').on(t.orderId)],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    productId: integer().notNull(),
    sku: text().notNull(),
    quantity: integer().notNull(),
    orderedQuantity: integer().notNull(),
    channelIdentifier: text(),
    fulfillFrom: text(),
    price: numeric({ precision: 14, scale: 2, mode: 'number' }),
    vat: numeric({ precision: 6, scale: 3, mode: 'number' }).notNull().default(0),
    name: text().notNull(),
    metadata: jsonb().$type<Metadata>().notNull().default({}),
  },
  (t) => [index('order_items_order_idx').on(t.orderId, t.id)],
);

export const orderAttachments = pgTable(
  'order_attachments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    filename: text().notNull(),
    contentType: text().notNull(),
    printStrategy: text().notNull(),
    pageFormat: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_attachments_order_idx').on(t.orderId)],
);

// Derived rows: each order's and order item's v3 resource object as JSON text, as the representation's SQL writes it,
// with the start of its links' base left as a marker. Written and deleted only by triggers that
// representation/stored.ts installs, in the transaction of every write to the rows they are made of; the order
// list pages are a string_agg of them (bench/RESULTS.md, findings). No foreign keys: the triggers delete a row with its
// source, and a key check would cost each create another lookup of its order.
export const orderJson = pgTable('order_json', {
  orderId: integer().primaryKey(),
  json: text().notNull(),
});

export const orderItemJson = pgTable(
  'order_item_json',
  {
    orderItemId: integer().primaryKey(),
    orderId: integer().notNull(),
    json: text().notNull(),
  },
  (t) => [index('order_item_json_order_idx').on(t.orderId, t.orderItemId)],
);
