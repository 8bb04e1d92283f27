// Uploaded files in parts: a product's image and an order attachment's PDF. Stored a part per statement, so no single
// statement holds PGlite's thread for a whole file (platform/file-parts.ts). And what each client's files take.
import { bigint, check, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { clients } from './clients.ts';
import { bytea } from './orders.ts';

/**
 * Whose file the parts are: `owner_id` is a products id or an order_attachments id (so no foreign key). Neither is ever
 * deleted; the owner's writer makes the parts its own in the same transaction.
 */
export const fileOwners = ['productImage', 'orderAttachment'] as const;
export type FileOwner = (typeof fileOwners)[number];
/** Parts of a file_stages row: `owner_id` is its id. */
export const stagedOwner = 'staged';
const partOwners = [...fileOwners, stagedOwner];

/**
 * Parts that are no file's: an upload's, written before its owner (each part in a short transaction of its own), or a
 * replaced file's, waiting to be deleted. Their bytes count in the client's storage usage until they are deleted. A
 * stage is gone within the request that made it; one left by a stopped process is removed at the next start.
 */
export const fileStages = pgTable('file_stages', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  clientId: integer()
    .notNull()
    .references(() => clients.id),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const fileParts = pgTable(
  'file_parts',
  {
    clientId: integer()
      .notNull()
      .references(() => clients.id),
    owner: text().$type<FileOwner | typeof stagedOwner>().notNull(),
    ownerId: integer().notNull(),
    /** 0, 1, 2, ...: the file is the parts' bytes in this order. */
    part: integer().notNull(),
    bytes: bytea().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.owner, t.ownerId, t.part] }),
    check('file_parts_owner_check', sql`${t.owner} in (${sql.raw(partOwners.map((owner) => `'${owner}'`).join(', '))})`),
  ],
);

/**
 * The bytes of each client's stored files (the sum of its file_parts), for the storage quota: changed in the transaction
 * that stores or replaces a file, by one conditional statement (platform/file-parts.ts), so concurrent uploads on any
 * number of processes cannot pass the quota together. A client without files may have no row.
 */
export const storageUsage = pgTable(
  'storage_usage',
  {
    clientId: integer()
      .primaryKey()
      .references(() => clients.id),
    bytes: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [check('storage_usage_bytes_check', sql`${t.bytes} >= 0`)],
);
