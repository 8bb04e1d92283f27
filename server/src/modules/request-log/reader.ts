// Reading a client's request log: newest first, by cursor, with filters; one entry by its request id.
import { and, desc, eq, inArray, like, lt, or, gte, type SQL } from 'drizzle-orm';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';

const { requestLog } = schema;

export type RequestLogRow = typeof requestLog.$inferSelect;

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
  return db
    .select()
    .from(requestLog)
    .where(and(...conditions))
    .orderBy(desc(requestLog.id))
    .limit(page.size);
}

export async function findRequest(db: Db, clientId: number, requestId: string): Promise<RequestLogRow | undefined> {
  const [row] = await db
    .select()
    .from(requestLog)
    .where(and(ownedBy(requestLog, clientId), eq(requestLog.requestId, requestId)))
    .limit(1);
  return row;
}
