// Stores an uploaded file (a product's image, an order attachment's PDF) as rows of file_parts, PART_BYTES each, one
// statement per part, and keeps each client's files within its storage quota.
//
// Why parts: PGlite runs PostgreSQL in this thread, so one statement that writes a 10 MiB value holds the event loop
// while the database writes thousands of TOAST chunks (0.2 to 2.7 s measured). A part takes about 10 ms, and other
// requests (GET /status) run between two parts.
//
// Why staged (storeFile): PGlite has one connection, so its transaction holds the database from BEGIN to COMMIT and
// every other client's statement waits for it. Written in the owner's transaction, a 4.5 MiB file's 18 parts kept the
// other clients' calls waiting for all of them. So a file of more than one part is written first as a stage (each part
// its own statement, other clients' statements run between them), and the owner's transaction, short, makes the parts
// its own by changing their owner (the bytes are not copied: PostgreSQL keeps an unchanged TOASTed value). The parts
// of a file it replaces become a stage in the same transaction and are deleted part by part after it. A stage that is
// never adopted (the owner's transaction failed) is deleted at once; one left by a stopped process, at the next start.
// So a file is its owner's whole or not at all, and nothing is left behind.
//
// A part goes to the database as a buffer, in binary form (on the embedded database too: db/embedded-statements.ts;
// PGlite's own serializer would make hex text of it in JavaScript, a string per byte, 6 s of CPU for 10 MiB).
//
// The quota: storage_usage holds the bytes of each client's parts, staged ones included. A file is booked before its
// first part is written, by a conditional update: it adds only while the sum, less the file it replaces, stays within
// the quota, and PostgreSQL re-checks the condition on the row as the last committed transaction left it, so two
// uploads (on any number of processes) never pass the last bytes together. Deleting parts gives their bytes back in the
// same statement.
import { and, eq, sql } from 'drizzle-orm';
import {
  type Db,
  ownedBy,
  queryRows,
  queryStatement,
  schema,
  type Tx,
  textStatement,
  withoutWaitingForDisk,
  withoutWaitingForDiskRow,
} from './db/index.ts';
import { type FileOwner, stagedOwner } from './db/schema/files.ts';
import { domainError } from './errors.ts';
import { type Turn, withoutTurns } from './fair-share.ts';

const { fileParts, fileStages, storageUsage } = schema;

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

/** A file's parts or a stage's. */
type PartsOf = Omit<FileOf, 'owner'> & { owner: FileOf['owner'] | typeof stagedOwner };

const ownedParts = (file: PartsOf) =>
  and(ownedBy(fileParts, file.clientId), eq(fileParts.owner, file.owner), eq(fileParts.ownerId, file.ownerId));

/** The bytes of the owner's file as stored (0 without one), as an expression. */
const storedBytes = (file: FileOf) =>
  sql`(select coalesce(sum(octet_length(${fileParts.bytes})), 0) from ${fileParts} where ${ownedParts(file)})`;

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
      ${replacing ? storedBytes(replacing) : sql`0`} as replaced`,
  );
  const used = Number(row.used);
  if (used - Number(row.replaced) + fileBytes > quota) throw quotaExceeded(quota, used, fileBytes);
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Books `change` bytes (for a file of `fileBytes`) on the client's usage, in one conditional statement: a growth only
 * while the usage plus the change, less `freed` (an expression: what the new file will replace), stays within the
 * quota. A 413 otherwise, naming the usage: run it in a transaction that then writes nothing.
 */
async function book(db: Db, clientId: number, change: number, fileBytes: number, quota: QuotaBytes, freed = sql`0`): Promise<void> {
  await db.insert(storageUsage).values({ clientId }).onConflictDoNothing();
  const booked = await db
    .update(storageUsage)
    .set({ bytes: sql`${storageUsage.bytes} + ${change}` })
    .where(
      and(
        eq(storageUsage.clientId, clientId),
        quota && change > 0 ? sql`${storageUsage.bytes} + ${change} - ${freed} <= ${quota}` : undefined,
      ),
    )
    .returning({ bytes: storageUsage.bytes });
  if (booked.length) return;
  const [usage] = await db.select({ bytes: storageUsage.bytes }).from(storageUsage).where(eq(storageUsage.clientId, clientId));
  throw quotaExceeded(quota, usage.bytes, fileBytes);
}

type PartRow = typeof fileParts.$inferInsert;

/**
 * Writes the parts, a statement each (each in a turn of the client), letting the event loop run between two. `write`
 * runs each part's statement: in the caller's transaction, or, for a stage, committed without waiting for the disk
 * (the transaction that makes the stage its owner's commits as usual, and so writes the parts' WAL to disk too).
 */
async function writeParts(owner: PartsOf, bytes: Buffer, write: (part: PartRow) => Promise<unknown>, turn: Turn = withoutTurns) {
  const parts = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
  for (let part = 0; part < parts; part++) {
    const slice = bytes.subarray(part * PART_BYTES, (part + 1) * PART_BYTES);
    await turn(() => write({ ...owner, part, bytes: slice }));
    // PGlite answers within promise callbacks, without a turn of the event loop: timers and sockets wait until the
    // loop runs, so let it run between two parts.
    await nextTurn();
  }
}

/**
 * Replaces the owner's file with `bytes`, within the client's quota (a 413 otherwise, and the caller's transaction
 * writes nothing), inside the transaction that writes the owner: for a small file (v2's encodedImage, at most 100 KB,
 * one part). A larger one goes through storeFile, so no transaction holds the database while its parts are written.
 */
export async function storeParts(tx: Tx, file: FileOf, bytes: Buffer, quota: QuotaBytes): Promise<void> {
  const replaced = await tx
    .delete(fileParts)
    .where(ownedParts(file))
    .returning({ bytes: sql<number>`octet_length(${fileParts.bytes})` });
  await writeParts(file, bytes, (part) => tx.insert(fileParts).values(part));
  // Last, so the client's usage row is locked only for the end of the transaction; assertRoomFor has refused what
  // obviously does not fit before any part was written.
  const change = bytes.length - replaced.reduce((sum, part) => sum + Number(part.bytes), 0);
  await book(tx, file.clientId, change, bytes.length, quota);
}

export interface Upload {
  clientId: number;
  owner: FileOwner;
  /** The owner, when it exists before its transaction (a product): its file is replaced. */
  ownerId?: number;
  bytes: Buffer;
  quota: QuotaBytes;
  /** The client's turns (the API's fair share): each statement of the storing is run in one. */
  turn?: Turn;
}

/**
 * A part of a stage, by a statement of fixed text prepared by name, that commits without waiting for the disk. drizzle's
 * insert ran unnamed, so PostgreSQL planned it for each part with the part's bytes as a constant, copying the 256 KiB
 * into the plan: the prepared statement's plan takes them as a parameter, and the backend spent 2.0 ms on a part
 * instead of 3.5-4.8 ms (a scratch loop of 400 inserts each way). PostgreSQL's CPU for a 4.5 MiB upload went from
 * about 100 to 70 ms (bench/RESULTS.md, findings).
 */
const stagedPartStatement = textStatement(
  sql`insert into ${fileParts} (client_id, owner, owner_id, part, bytes)
    select ${sql.placeholder('clientId')}::int, ${stagedOwner}::text, ${sql.placeholder('ownerId')}::int,
      ${sql.placeholder('part')}::int, ${sql.placeholder('bytes')}::bytea
    from ${withoutWaitingForDiskRow}`,
);

/**
 * Stores `upload.bytes` as the file of the owner that `writeOwner` writes in its transaction (returning the owner's id
 * with its result), replacing the owner's file; within the client's quota (a 413 before anything is written). The
 * parts are written before that transaction, each in a statement of its own, and the transaction makes them the
 * owner's; the replaced file's are deleted after it. If `writeOwner` throws, nothing is left: its error is thrown.
 */
export async function storeFile<T>(db: Db, upload: Upload, writeOwner: (tx: Tx) => Promise<{ ownerId: number; result: T }>): Promise<T> {
  const { clientId, owner, ownerId, bytes, quota, turn = withoutTurns } = upload;
  const stage = await turn(() =>
    db.transaction(async (tx) => {
      const [row] = await tx.insert(fileStages).values({ clientId }).returning({ id: fileStages.id });
      const freed = ownerId === undefined ? undefined : storedBytes({ clientId, owner, ownerId });
      await book(tx, clientId, bytes.length, bytes.length, quota, freed);
      return row.id;
    }),
  );
  let stored: { result: T; replaced?: number };
  try {
    const stagedPart = (part: PartRow) => queryStatement(db, stagedPartStatement, part);
    await writeParts({ clientId, owner: stagedOwner, ownerId: stage }, bytes, stagedPart, turn);
    stored = await turn(() =>
      db.transaction(async (tx) => {
        const written = await writeOwner(tx);
        const file = { clientId, owner, ownerId: written.ownerId };
        const replaced = await stageParts(tx, file);
        await tx
          .update(fileParts)
          .set({ owner, ownerId: written.ownerId })
          .where(ownedParts({ clientId, owner: stagedOwner, ownerId: stage }));
        await tx.delete(fileStages).where(eq(fileStages.id, stage));
        return { result: written.result, replaced };
      }),
    );
  } catch (error) {
    // A stage this fails to drop is dropped at the next start (dropAbandonedStages).
    await dropStage(db, clientId, stage, turn).catch(() => undefined);
    throw error;
  }
  // The upload is stored: a replaced file this fails to delete is deleted at the next start, the answer stands.
  if (stored.replaced !== undefined) await dropStage(db, clientId, stored.replaced, turn).catch(() => undefined);
  return stored.result;
}

/** Makes the owner's file, if it has one, a stage of its own (to be dropped after the transaction); its id. */
async function stageParts(tx: Tx, file: FileOf): Promise<number | undefined> {
  const [any] = await tx.select({ part: fileParts.part }).from(fileParts).where(ownedParts(file)).limit(1);
  if (!any) return undefined;
  const [row] = await tx.insert(fileStages).values({ clientId: file.clientId }).returning({ id: fileStages.id });
  await tx.update(fileParts).set({ owner: stagedOwner, ownerId: row.id }).where(ownedParts(file));
  return row.id;
}

/**
 * Deletes a stage's parts, one per statement (each gives its bytes back in the same statement), then the stage. Other
 * statements run between two parts. A part's statement commits without waiting for the disk: the stage's own delete,
 * last, commits as usual, and a stage a crash left with parts is dropped at the next start.
 */
async function dropStage(db: Db, clientId: number, stage: number, turn: Turn = withoutTurns): Promise<void> {
  const staged = ownedParts({ clientId, owner: stagedOwner, ownerId: stage });
  for (;;) {
    const [gone] = await turn(() =>
      withoutWaitingForDisk(db, (tx) =>
        queryRows<{ bytes: string | null }>(
          tx,
          sql`with gone as (
            delete from ${fileParts} where ${staged}
              and ${fileParts.part} = (select min(${fileParts.part}) from ${fileParts} where ${staged})
            returning octet_length(${fileParts.bytes}) as bytes)
          update ${storageUsage} set bytes = ${storageUsage.bytes} - (select sum(bytes) from gone)
          where ${storageUsage.clientId} = ${clientId} and exists (select from gone)
          returning (select sum(bytes) from gone) as bytes`,
        ),
      ),
    );
    if (!gone) break;
    await nextTurn();
  }
  await db.delete(fileStages).where(eq(fileStages.id, stage));
}

/**
 * Drops the stages made more than `olderThanMs` ago: those of a process that stopped between writing a stage and
 * dropping it. At start: every stage on the embedded database (one process), an hour's on PostgreSQL (other processes'
 * uploads are under way). The number dropped.
 */
export async function dropAbandonedStages(db: Db, olderThanMs: number): Promise<number> {
  const stages = await db
    .select({ id: fileStages.id, clientId: fileStages.clientId })
    .from(fileStages)
    .where(sql`${fileStages.createdAt} <= now() - make_interval(secs => ${olderThanMs / 1000})`);
  for (const stage of stages) await dropStage(db, stage.clientId, stage.id);
  return stages.length;
}

/** The owner's file as stored, or undefined when it has none. */
export async function storedFile(db: Db, owner: FileOwner, ownerId: number): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ bytes: sql<Buffer | null>`string_agg(${fileParts.bytes}, ''::bytea order by ${fileParts.part})`.mapWith(fileParts.bytes) })
    .from(fileParts)
    .where(and(eq(fileParts.owner, owner), eq(fileParts.ownerId, ownerId)));
  return row.bytes ?? undefined;
}
