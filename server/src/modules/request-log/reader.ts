// Reading a client's request log: newest first, by cursor, with filters; one entry by its request id.
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { and, desc, eq, inArray, like, lt, or, gte, type SQL } from 'drizzle-orm';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';

const { requestLog } = schema;

type StoredRow = typeof requestLog.$inferSelect;
/** An entry with its bodies as text, however they were stored (long ones compressed: writer.ts). */
export type RequestLogRow = Omit<StoredRow, 'requestBodyBrotli' | 'responseBodyBrotli'>;

const decompress = promisify(brotliDecompress);
const bodyOf = async (text: string | null, brotli: Buffer | null) => (brotli ? (await decompress(brotli)).toString('utf8') : text);

async function readable({ requestBodyBrotli, responseBodyBrotli, ...row }: StoredRow): Promise<RequestLogRow> {
  const [requestBody, responseBody] = await Promise.all([
    bodyOf(row.requestBody, requestBodyBrotli),
    bodyOf(row.responseBody, responseBodyBrotli),
  ]);
  return { ...row, requestBody, responseBody };
}

export interface RequestLogFilter {
  /** Exact statuses (404) and classes (4 for 4xx). */
  statuses?: number[];
  statusClasses?: number[];
  methods?: string[];
  /** Paths that start with this (the query is not part of it). */
  pathPrefix?: string;
  requestId?: string;
}

/** LIKE pattern for a literal prefix: %, _ and \ in it match only themselves. */
const prefixPattern = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listRequests(
  db: Db,
  clientId: number,
  page: { before?: number; size: number },
  filter: RequestLogFilter,
): Promise<RequestLogRow[]> {
  const conditions: (SQL | undefined)[] = [ownedBy(requestLog, clientId)];
  if (page.before) conditions.push(lt(requestLog.id, page.before));
  if (filter.statuses?.length || filter.statusClasses?.length) {
    conditions.push(
      or(
        ...(filter.statuses?.length ? [inArray(requestLog.status, filter.statuses)] : []),
        ...(filter.statusClasses ?? []).map((c) => and(gte(requestLog.status, c * 100), lt(requestLog.status, c * 100 + 100))),
      ),
    );
  }
  if (filter.methods?.length) conditions.push(inArray(requestLog.method, filter.methods));
  if (filter.pathPrefix) conditions.push(like(requestLog.url, prefixPattern(filter.pathPrefix)));
  if (filter.requestId) conditions.push(eq(requestLog.requestId, filter.requestId));
  const rows = await db
    .select()
    .from(requestLog)
    .where(and(...conditions))
    .orderBy(desc(requestLog.id))
    .limit(page.size);
  return Promise.all(rows.map(readable));
}

export async function findRequest(db: Db, clientId: number, requestId: string): Promise<RequestLogRow | undefined> {
  const [row] = await db
    .select()
    .from(requestLog)
    .where(and(ownedBy(requestLog, clientId), eq(requestLog.requestId, requestId)))
    .limit(1);
  return row && readable(row);
}
