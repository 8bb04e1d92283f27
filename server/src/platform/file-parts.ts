// Stores an uploaded file (a product's image, an order attachment's PDF) as rows of file_parts, PART_BYTES each, one
// statement per part, and keeps each client's files within its storage quota.
//
// Why parts: PGlite runs PostgreSQL in this thread, so one statement that writes a 10 MiB value holds the event loop
// while the database writes thousands of TOAST chunks (0.2 to 2.7 s measured). A part takes about 10 ms, and other
// requests (GET /status) run between two parts. The caller runs this in the transaction that writes the owning
// row, so a file is stored whole or not at all.
//
// Why hex: PGlite turns a Uint8Array parameter into hex text in JavaScript, one string per byte (6 s of CPU for
// 10 MiB); Buffer.toString('hex') does it natively and the database decodes it.
//
// The quota: storage_usage holds the bytes of each client's parts. Storing a file changes it by the file's size less
// the size of the file it replaces, in the same transaction, by a conditional update: it adds only while the sum stays
// within the quota, and PostgreSQL re-checks the condition on the row as the last committed transaction left it, so two
// uploads (on any number of processes) never pass the last bytes together.
import { and, eq, sql } from 'drizzle-orm';
import { type Db, ownedBy, queryRows, schema, type Tx } from './db/index.ts';
import type { FileOwner } from './db/schema/files.ts';
import { domainError } from './errors.ts';

const { fileParts, storageUsage } = schema;

export const PART_BYTES = 256 * 1024;

export interface FileOf {
  clientId: number;
  owner: FileOwner;
  ownerId: number;
}

/** What one client's files may take together, in bytes; 0: no quota. */
export type QuotaBytes = number;

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function quotaExceeded(quota: QuotaBytes, used: number, fileBytes: number) {
  return domainError(
    '413',
    `Your storage quota is ${mebibytes(quota)} and your files (order attachments and product images) take ${mebibytes(used)}: ` +
      `this file of ${mebibytes(fileBytes)} does not fit. A new product image gives the bytes of the image it replaces back.`,
  );
}

const ownedParts = (file: FileOf) =>
  and(ownedBy(fileParts, file.clientId), eq(fileParts.owner, file.owner), eq(fileParts.ownerId, file.ownerId));

/**
 * Refuses at once a file that cannot fit, before it is read (a PDF in a worker) or stored: the client's usage less the
 * file it would replace (`replacing`), plus this one. storeParts decides, in the storing transaction; this only saves
 * the work of a file that would be refused there.
 */
export async function assertRoomFor(db: Db, clientId: number, fileBytes: number, quota: QuotaBytes, replacing?: FileOf): Promise<void> {
  if (!quota) return;
  const [row] = await queryRows<{ used: string; replaced: string }>(
    db,
    sql`select coalesce((select ${storageUsage.bytes} from ${storageUsage} where ${storageUsage.clientId} = ${clientId}), 0) as used,
      ${replacing ? sql`(select coalesce(sum(octet_length(${fileParts.bytes})), 0) from ${fileParts} where ${ownedParts(replacing)})` : sql`0`} as replaced`,
  );
  const used = Number(row.used);
  if (used - Number(row.replaced) + fileBytes > quota) throw quotaExceeded(quota, used, fileBytes);
}

/**
 * Replaces the owner's file with `bytes`, within the client's quota (a 413 otherwise, and the caller's transaction
 * writes nothing); call it inside the transaction that writes the owner.
 */
export async function storeParts(tx: Tx, file: FileOf, bytes: Buffer, quota: QuotaBytes): Promise<void> {
  const replaced = await tx
    .delete(fileParts)
    .where(ownedParts(file))
    .returning({ bytes: sql<number>`octet_length(${fileParts.bytes})` });
  const parts = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
  for (let part = 0; part < parts; part++) {
    const slice = bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES);
    await tx.insert(fileParts).values({ ...file, part, bytes: sql`decode(${slice.toString('hex')}, 'hex')` });
    // PGlite answers within promise callbacks, without a turn of the event loop: timers and sockets wait until the
    // loop runs, so let it run between two parts.
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Last, so the client's usage row is locked only for the end of the transaction (uploads of one client wait for each
  // other that long); assertRoomFor has refused what obviously does not fit before any part was written.
  const change = bytes.length - replaced.reduce((sum, part) => sum + Number(part.bytes), 0);
  await tx.insert(storageUsage).values({ clientId: file.clientId }).onConflictDoNothing();
  const booked = await tx
    .update(storageUsage)
    .set({ bytes: sql`${storageUsage.bytes} + ${change}` })
    .where(
      and(eq(storageUsage.clientId, file.clientId), quota && change > 0 ? sql`${storageUsage.bytes} + ${change} <= ${quota}` : undefined),
    )
    .returning({ bytes: storageUsage.bytes });
  if (booked.length) return;
  const [usage] = await tx.select({ bytes: storageUsage.bytes }).from(storageUsage).where(eq(storageUsage.clientId, file.clientId));
  throw quotaExceeded(quota, usage.bytes, bytes.length);
}

/** The owner's file as stored, or undefined when it has none. */
export async function storedFile(db: Db, owner: FileOwner, ownerId: number): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ bytes: sql<Buffer | null>`string_agg(${fileParts.bytes}, ''::bytea order by ${fileParts.part})`.mapWith(fileParts.bytes) })
    .from(fileParts)
    .where(and(eq(fileParts.owner, owner), eq(fileParts.ownerId, ownerId)));
  return row.bytes ?? undefined;
}
