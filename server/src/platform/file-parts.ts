// Stores an uploaded file (a product's image, an order attachment's PDF) as rows of file_parts, PART_BYTES each, one
// statement per part.
//
// Why parts: PGlite runs PostgreSQL in this thread, so one statement that writes a 10 MiB value holds the event loop
// while the database writes thousands of TOAST chunks (0.2 to 2.7 s measured). A part takes about 10 ms, and other
// requests (GET /status) run between two parts. The caller runs this in the transaction that writes the owning
// row, so a file is stored whole or not at all.
//
// Why hex: PGlite turns a Uint8Array parameter into hex text in JavaScript, one string per byte (6 s of CPU for
// 10 MiB); Buffer.toString('hex') does it natively and the database decodes it.
import { and, eq, sql } from 'drizzle-orm';
import { type Db, ownedBy, schema, type Tx } from './db/index.ts';
import type { FileOwner } from './db/schema/files.ts';

const { fileParts } = schema;

export const PART_BYTES = 256 * 1024;

export interface FileOf {
  clientId: number;
  owner: FileOwner;
  ownerId: number;
}

/** Replaces the owner's file with `bytes`; call it inside the transaction that writes the owner. */
export async function storeParts(tx: Tx, file: FileOf, bytes: Buffer): Promise<void> {
  await tx
    .delete(fileParts)
    .where(and(ownedBy(fileParts, file.clientId), eq(fileParts.owner, file.owner), eq(fileParts.ownerId, file.ownerId)));
  const parts = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
  for (let part = 0; part < parts; part++) {
    const slice = bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES);
    await tx.insert(fileParts).values({ ...file, part, bytes: sql`decode(${slice.toString('hex')}, 'hex')` });
    // PGlite answers within promise callbacks, without a turn of the event loop: timers and sockets wait until the
    // loop runs, so let it run between two parts.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The owner's file as stored, or undefined when it has none. */
export async function storedFile(db: Db, owner: FileOwner, ownerId: number): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ bytes: sql<Buffer | null>`string_agg(${fileParts.bytes}, ''::bytea order by ${fileParts.part})`.mapWith(fileParts.bytes) })
    .from(fileParts)
    .where(and(eq(fileParts.owner, owner), eq(fileParts.ownerId, ownerId)));
  return row.bytes ?? undefined;
}
