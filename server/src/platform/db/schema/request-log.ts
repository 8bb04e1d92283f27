// The request log: what the sandbox received from each client and what it answered, for the client to read back.
import { bigint, boolean, doublePrecision, index, integer, json, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { bytea } from './orders.ts';
import type { RequestWarning } from '../../request-warnings.ts';

/**
 * One API call of one client: v3, v2 and sandbox controls. Bodies are cut at the configured size and have passwords,
 * tokens and secrets replaced; the entry is written after the answer, in batches, so it never slows the call down.
 */
export const requestLog = pgTable(
  'request_log',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    /** Sent as the Request-Id header of the answer. */
    requestId: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull(),
    /** v3, v2, sandbox or token. */
    api: text().notNull(),
    operationId: text(),
    method: text().notNull(),
    /** Path and query as received (cut at 2,000 characters). */
    url: text().notNull(),
    status: integer().notNull(),
    durationMs: doublePrecision().notNull(),
    requestContentType: text(),
    /** A short body as text; a longer one is in requestBodyBrotli instead (modules/request-log/writer.ts). */
    requestBody: text(),
    /** A body longer than 8 KiB, its UTF-8 compressed with Brotli: a tenth to a thirtieth of its size in the database. */
    requestBodyBrotli: bytea(),
    /** The body's whole size in bytes, also when requestBody was cut or left out (binary). */
    requestBytes: integer().notNull().default(0),
    requestTruncated: boolean().notNull().default(false),
    responseContentType: text(),
    responseBody: text(),
    responseBodyBrotli: bytea(),
    responseBytes: integer().notNull().default(0),
    responseTruncated: boolean().notNull().default(false),
    warnings: json().$type<RequestWarning[]>().notNull().default([]),
  },
  (t) => [
    index('request_log_client_idx').on(t.clientId, t.id),
    index('request_log_client_request_id_idx').on(t.clientId, t.requestId),
    index('request_log_received_at_idx').on(t.receivedAt),
  ],
);
