// API clients (tenants), their tokens, their reference data and their rate-limit counters.
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, bigint } from 'drizzle-orm/pg-core';

export const clients = pgTable(
  'clients',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    username: text().notNull(),
    passwordHash: text().notNull(),
    defaultWarehouse: text().notNull().default('NR'),
    /** The client's simulated clock runs at real time plus this offset. */
    clockOffsetSeconds: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * While the clock advances (POST /sandbox/clock/advance): the offset it started from and the one it moves to. The
     * offset above moves from one to the other as the warehouse catches up; both are null when the clock is ready.
     */
    advanceFromOffsetSeconds: bigint({ mode: 'number' }),
    advanceToOffsetSeconds: bigint({ mode: 'number' }),
    /**
     * Which server process works on this client's warehouse (a random id per process), and until when: a process that
     * dies leaves the lease to run out, and any other process then takes the work over (warehouse/worker.ts).
     */
    warehouseLeaseOwner: text(),
    warehouseLeaseUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('clients_username_key').on(t.username),
    // An advance has both ends or none, and runs forward.
    check(
      'clients_advance_check',
      sql`(${t.advanceFromOffsetSeconds} is null and ${t.advanceToOffsetSeconds} is null) or ${t.advanceToOffsetSeconds} > ${t.advanceFromOffsetSeconds}`,
    ),
  ],
);

export const tokens = pgTable(
  'tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    tokenHash: text().notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('tokens_hash_key').on(t.tokenHash), index('tokens_client_idx').on(t.clientId)],
);

export const orderTypes = pgTable(
  'order_types',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    code: text().notNull(),
    name: text().notNull(),
    allowPartialDelivery: boolean().notNull().default(false),
  },
  (t) => [index('order_types_client_idx').on(t.clientId)],
);

/** kind: main (what orders name), warehouse (a main method's method in one warehouse), return. */
export const shippingMethods = pgTable(
  'shipping_methods',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    kind: text().$type<'main' | 'warehouse' | 'return'>().notNull(),
    code: text().notNull(),
    name: text().notNull(),
    carrier: text().notNull(),
    mainShippingMethodId: integer(),
    warehouse: text(),
    /** Return methods only: the consumer needs no printed label (a QR code at the carrier's point). */
    paperless: boolean().notNull().default(false),
  },
  (t) => [index('shipping_methods_client_idx').on(t.clientId)],
);

export const returnReasons = pgTable(
  'return_reasons',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    code: text().notNull(),
    name: text().notNull(),
  },
  (t) => [index('return_reasons_client_idx').on(t.clientId)],
);

/** The client's languages (GET /settings/get): ids that v2 orders name as languageId; codes are ISO 639-1, upper-case by default. */
export const languages = pgTable(
  'languages',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    code: text().notNull(),
    name: text().notNull(),
  },
  (t) => [index('languages_client_idx').on(t.clientId)],
);

/** The countries of the client's account (GET /settings/get): ISO 3166 alpha-2 codes or a longer sub-territory code. */
export const countries = pgTable(
  'countries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    code: text().notNull(),
    name: text().notNull(),
  },
  (t) => [index('countries_client_idx').on(t.clientId)],
);

/** Fixed-window request counters, shared by every server process on the database. */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    clientId: integer().notNull(),
    bucket: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.bucket, t.windowStart] })],
);

/**
 * POST /token attempts in the current fixed window, per key (a SHA-256 of the scope and its username and/or address:
 * no typed username, which may be a mistyped password, is stored): failures so far, and attempts whose password check
 * is under way. One row per key, shared by every process; a new window restarts it.
 */
export const tokenFailureCounters = pgTable(
  'token_failure_counters',
  {
    key: text().primaryKey(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    failures: integer().notNull().default(0),
    pending: integer().notNull().default(0),
  },
  (t) => [index('token_failure_counters_window_idx').on(t.windowStart)],
);
