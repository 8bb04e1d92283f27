// Writes request log entries after their answers, in batches, off the request's path: a call never waits for its log
// entry and never fails because of it. Memory is bounded; each client keeps its newest entries, none older than the age.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { brotliCompressSync, constants } from 'node:zlib';
import { and, desc, inArray, lt, lte, sql } from 'drizzle-orm';
import { byteaArray, type Db, ownedBy, queryStatement, schema, textStatement } from '../../platform/db/index.ts';

const { requestLog } = schema;

export type RequestLogEntry = typeof requestLog.$inferInsert;

export interface RequestLogOptions {
  /** Entries each client keeps; 0 turns the log off. */
  maxPerClient: number;
  maxAgeSeconds: number;
  /** Bytes of entries waiting in memory at most; entries beyond are dropped (and counted) until a write catches up. */
  pendingBytesMax?: number;
  /** Wait this long after the first entry of a batch, so one statement writes many. */
  flushDelayMs?: number;
  onError?: (error: unknown) => void;
}

const batchRowsMax = 500;
const batchBytesMax = 8 * 1024 * 1024;
/** Clients whose counts since their last trim are kept at most; beyond, the longest untrimmed are trimmed until it holds. */
const untrimmedClientsMax = 10_000;

/**
 * A batch of entries in one statement of fixed text, rendered once and prepared: the entries travel as one JSON
 * parameter, in order (their ids follow it), and their bodies as two `bytea[]` parameters in binary form, the UTF-8 of
 * each body or its Brotli (`requestCompressed`, `responseCompressed`). drizzle's multi-row insert rendered and bound
 * every column of every entry on each flush; bodies as base64 inside the JSON took a fifth to a third of the insert's
 * time (bench/request-log-insert.ts).
 */
const insertBatch = textStatement(sql`insert into request_log (client_id, request_id, received_at, api, operation_id, method, url,
    status, duration_ms, request_content_type, request_body, request_body_brotli, request_bytes, request_truncated,
    response_content_type, response_body, response_body_brotli, response_bytes, response_truncated, warnings)
  select e."clientId", e."requestId", e."receivedAt", e.api, e."operationId", e.method, e.url, e.status, e."durationMs",
    e."requestContentType", case when not e."requestCompressed" then convert_from(b.request, 'UTF8') end,
    case when e."requestCompressed" then b.request end, coalesce(e."requestBytes", 0), coalesce(e."requestTruncated", false),
    e."responseContentType", case when not e."responseCompressed" then convert_from(b.response, 'UTF8') end,
    case when e."responseCompressed" then b.response end, coalesce(e."responseBytes", 0),
    coalesce(e."responseTruncated", false), coalesce(e.warnings, '[]')
  from rows from (json_to_recordset(${sql.placeholder('entries')}::json) as ("clientId" int, "requestId" text,
    "receivedAt" timestamptz, api text, "operationId" text, method text, url text, status int, "durationMs" float8,
    "requestContentType" text, "requestCompressed" boolean, "requestBytes" int, "requestTruncated" boolean,
    "responseContentType" text, "responseCompressed" boolean, "responseBytes" int, "responseTruncated" boolean,
    warnings json)) with ordinality as e
  join rows from (unnest(${sql.placeholder('requestBodies')}::bytea[], ${sql.placeholder('responseBodies')}::bytea[]))
    with ordinality as b(request, response, n) on b.n = e.ordinality
  order by e.ordinality`);

/**
 * Bodies longer than this are compressed here, with Brotli; shorter ones are stored as text, which the database
 * compresses when the row is long (lz4 on PostgreSQL: migration 0013; pglz on PGlite). A list page's answer is kept up
 * to the configured 64 KiB: stored as text it took the embedded database about a third of the page's own time (PGlite
 * runs in the server's thread), and Brotli at quality 1 makes 64 KiB of JSON:API about 2 KiB. A create's bodies (1 and
 * 4 KiB) cost Brotli about 60 µs together, synchronously; stored as text, PostgreSQL's lz4 compresses the answer to
 * about the same size (1.1 against 0.9 KiB), the insert costing it 10–15 µs more per entry
 * (bench/request-log-insert.ts). Brotli runs with a window fitted to the body; handed to libuv's thread pool, each body
 * cost the process 110–140 µs of CPU in hand-offs between threads. A batch yields to the event loop whenever it has
 * compressed for `compressSliceMs`.
 */
const compressFrom = 8 * 1024;
const compressSliceMs = 2;
function compressed(bytes: Buffer): Buffer {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 1,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_LGWIN]: Math.min(
        constants.BROTLI_MAX_WINDOW_BITS,
        Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(bytes.length))),
      ),
    },
  });
}

/** A body as it travels: its UTF-8, compressed when long; null for none. */
function storedBody(text: string | null | undefined): { bytes: Buffer | null; compressed: boolean } {
  if (text == null) return { bytes: null, compressed: false };
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length > compressFrom ? { bytes: compressed(bytes), compressed: true } : { bytes, compressed: false };
}

/** ES2024's String methods (Node 20 has them; the TypeScript lib here is older). */
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
/**
 * The text PostgreSQL can store: a NUL character (a client may send one in a body) has no place in a text column, nor a
 * lone surrogate in JSON, and either would fail its whole batch, other clients' entries with it. Both are kept as
 * U+FFFD, the replacement character.
 */
const storable = (text: string) => {
  const wellFormed = (text as unknown as WellFormed).isWellFormed() ? text : (text as unknown as WellFormed).toWellFormed();
  return wellFormed.includes('\0') ? wellFormed.replaceAll('\0', '\uFFFD') : wellFormed;
};
const storableOrNull = (text: string | null | undefined) => (text == null ? text : storable(text));

const sizeOf = (entry: RequestLogEntry) =>
  512 + (entry.url.length + (entry.requestBody?.length ?? 0) + (entry.responseBody?.length ?? 0)) * 2;

export class RequestLogWriter {
  private pending: RequestLogEntry[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private ageTimer: NodeJS.Timeout | undefined;
  /** Per client, the entries written since its log was last trimmed to its newest maxPerClient (keepNewest). */
  private untrimmed = new Map<number, number>();
  /** Entries dropped because memory was full or a write failed. */
  dropped = 0;
  private readonly pendingBytesMax: number;
  private readonly flushDelayMs: number;

  constructor(
    private readonly db: Db,
    private readonly opts: RequestLogOptions,
  ) {
    this.pendingBytesMax = opts.pendingBytesMax ?? 64 * 1024 * 1024;
    this.flushDelayMs = opts.flushDelayMs ?? 50;
  }

  get enabled(): boolean {
    return this.opts.maxPerClient > 0;
  }

  /** Queues an entry; returns at once. */
  add(entry: RequestLogEntry): void {
    if (!this.enabled) return;
    const size = sizeOf(entry);
    if (this.pendingBytes + size > this.pendingBytesMax) {
      this.dropped++;
      return;
    }
    this.pending.push({
      ...entry,
      url: storable(entry.url),
      requestBody: storableOrNull(entry.requestBody),
      responseBody: storableOrNull(entry.responseBody),
      requestContentType: storableOrNull(entry.requestContentType),
      responseContentType: storableOrNull(entry.responseContentType),
    });
    this.pendingBytes += size;
    if (!this.timer && !this.writing) this.timer = setTimeout(() => void this.flush(), this.flushDelayMs);
  }

  /** Writes everything queued so far; resolves when it is in the database (or dropped after an error). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing;
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = this.write(batch).finally(() => {
      this.writing = undefined;
      if (this.pending.length && !this.timer) this.timer = setTimeout(() => void this.flush(), this.flushDelayMs);
    });
    await this.writing;
  }

  private async write(batch: RequestLogEntry[]): Promise<void> {
    try {
      for (let start = 0; start < batch.length; ) {
        let end = start;
        let bytes = 0;
        while (end < batch.length && end - start < batchRowsMax && (bytes === 0 || bytes + sizeOf(batch[end]) <= batchBytesMax))
          bytes += sizeOf(batch[end++]);
        await this.insertRows(batch.slice(start, end));
        start = end;
      }
      await this.trim(batch);
    } catch (error) {
      this.dropped += batch.length;
      this.opts.onError?.(error);
    }
  }

  /** Writes entries in one statement (a test's writer stands in a database that fails or stalls). */
  protected async insertRows(entries: RequestLogEntry[]): Promise<void> {
    const rows = [];
    const [requestBodies, responseBodies]: (Buffer | null)[][] = [[], []];
    let sliceStart = performance.now();
    for (const { requestBody, responseBody, ...entry } of entries) {
      if (performance.now() - sliceStart > compressSliceMs) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
      const [request, response] = [storedBody(requestBody), storedBody(responseBody)];
      requestBodies.push(request.bytes);
      responseBodies.push(response.bytes);
      rows.push({ ...entry, requestCompressed: request.compressed, responseCompressed: response.compressed });
    }
    await queryStatement(this.db, insertBatch, {
      entries: JSON.stringify(rows),
      requestBodies: byteaArray(requestBodies),
      responseBodies: byteaArray(responseBodies),
    });
  }

  /**
   * Trims the log of each client of a written batch once a tenth of maxPerClient (at least 1) was written for it since
   * its last trim, so a client keeps between maxPerClient and a tenth more. Finding where a client's newest entries end
   * reads maxPerClient index entries: after every batch, under a create load, that was about 40 µs of PostgreSQL's time
   * per call.
   */
  private async trim(batch: RequestLogEntry[]): Promise<void> {
    const every = Math.max(1, Math.ceil(this.opts.maxPerClient / 10));
    for (const { clientId } of batch) this.untrimmed.set(clientId, (this.untrimmed.get(clientId) ?? 0) + 1);
    for (const [clientId, written] of this.untrimmed) {
      if (written < every && this.untrimmed.size <= untrimmedClientsMax) continue;
      this.untrimmed.delete(clientId);
      await this.keepNewest(clientId);
    }
  }

  /** Deletes a client's entries beyond its newest maxPerClient. */
  private async keepNewest(clientId: number): Promise<void> {
    const [oldestKept] = await this.db
      .select({ id: requestLog.id })
      .from(requestLog)
      .where(ownedBy(requestLog, clientId))
      .orderBy(desc(requestLog.id))
      .offset(this.opts.maxPerClient - 1)
      .limit(1);
    if (oldestKept) await this.db.delete(requestLog).where(and(ownedBy(requestLog, clientId), lt(requestLog.id, oldestKept.id)));
  }

  /** Deletes entries older than the age limit, a bounded number per statement so no statement holds locks long. */
  async deleteExpired(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.opts.maxAgeSeconds * 1000);
    let deleted = 0;
    for (;;) {
      const ids = this.db.select({ id: requestLog.id }).from(requestLog).where(lte(requestLog.receivedAt, before)).limit(5000);
      const rows = await this.db.delete(requestLog).where(inArray(requestLog.id, ids)).returning({ id: requestLog.id });
      deleted += rows.length;
      if (rows.length < 5000) return deleted;
    }
  }

  /** Deletes expired entries now and every intervalMs (unref'd: it never keeps the process alive). */
  startExpiry(intervalMs = 60_000): void {
    if (!this.enabled || this.ageTimer) return;
    const run = () => void this.deleteExpired().catch((error) => this.opts.onError?.(error));
    run();
    this.ageTimer = setInterval(run, intervalMs);
    this.ageTimer.unref();
  }

  /** Stops the timers and writes what is queued. */
  async close(): Promise<void> {
    clearInterval(this.ageTimer);
    this.ageTimer = undefined;
    await this.flush();
  }
}
