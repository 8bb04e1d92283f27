// Every answer carries a Request-Id; every API call of a known client (v3, v2, sandbox controls, its token requests)
// is kept in the client's request log with what the server did beyond what was asked (warnings, also sent back as
// Sandbox-Warning headers). The entry is queued after the answer is sent: logging never delays or fails a call.
import { Transform, type TransformCallback } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Warnings, type RequestWarning } from '../../platform/request-warnings.ts';
import { RequestLogWriter } from '../../modules/request-log/writer.ts';
import { redact } from '../../modules/request-log/redact.ts';
import { sandboxLogHeader } from '@shopapi/contract';
import type { Db } from '../../platform/db/index.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Notes for the client about this request: Sandbox-Warning headers and the request log. */
    warnings: Warnings;
    /** The start of the request body as received, while the request is being logged. */
    loggedBody: BodyCapture | null;
  }
  interface FastifyReply {
    /** The start of the answer's body as sent, while the request is being logged. */
    loggedAnswer: { text: string | null; bytes: number; truncated: boolean } | null;
  }
  interface FastifyInstance {
    requestLog: RequestLogWriter;
  }
}

/** Header lines an answer carries at most; the request log keeps every warning. */
export const warningHeadersMax = 10;
const headerTextMax = 300;
const urlMax = 2000;

/** A note as a header value: one line of printable ASCII, cut after headerTextMax characters. */
export function asciiHeader(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/g, '?');
  return ascii.length > headerTextMax ? `${ascii.slice(0, headerTextMax - 3)}...` : ascii;
}

/** One warning as a header value: "coerced /orderItems/0/vat: …". */
export const warningHeader = (warning: RequestWarning): string =>
  asciiHeader(`${warning.kind}${warning.source ? ` ${warning.source}` : ''}: ${warning.detail}`);

export function warningHeaders(warnings: Warnings, requestId: string): string[] {
  const lines = warnings.list.slice(0, warningHeadersMax).map(warningHeader);
  const more = warnings.list.length - lines.length + warnings.dropped;
  if (more > 0) lines.push(`more: ${more} further warnings; see GET /sandbox/requests/${requestId}`);
  return lines;
}

/** Passes the body through unchanged, keeping its first bytes and counting all of them. */
class BodyCapture extends Transform {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  bytes = 0;
  /** Fastify compares this with Content-Length, as it would the raw stream's. */
  receivedEncodedLength = 0;

  constructor(private readonly max: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    this.receivedEncodedLength = this.bytes;
    if (this.kept < this.max) {
      const part = chunk.subarray(0, this.max - this.kept);
      this.chunks.push(part);
      this.kept += part.length;
    }
    done(null, chunk);
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  get truncated(): boolean {
    return this.bytes > this.kept;
  }
}

/** Bodies kept as text; files and uploads are described by type and size only. */
const textual = (contentType: string | undefined) => !contentType || /json|x-www-form-urlencoded|^text\//i.test(contentType);

/** The log's own calls are not logged: reading it must not fill it. */
const unlogged: ReadonlySet<string> = new Set(['listSandboxRequests', 'getSandboxRequest']);

const skipHeader = sandboxLogHeader.name.toLowerCase();
/** A read sent with `Sandbox-Log: skip` (the console's background refreshes); a write is logged whatever it asks. */
const skipRequested = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  request.headers[skipHeader]?.toString().trim().toLowerCase() === sandboxLogHeader.skip;

export interface RequestLogPluginOptions {
  db: Db;
  maxPerClient: number;
  maxAgeSeconds: number;
  bodyMaxBytes: number;
}

export const requestLogPlugin = fp(
  async (app: FastifyInstance, opts: RequestLogPluginOptions) => {
    const writer = new RequestLogWriter(opts.db, {
      maxPerClient: opts.maxPerClient,
      maxAgeSeconds: opts.maxAgeSeconds,
      onError: (error) => app.log.warn({ err: error }, 'request log: entries could not be written and were dropped'),
    });
    app.decorate('requestLog', writer);
    app.decorateRequest('warnings', null as unknown as Warnings);
    app.decorateRequest('loggedBody', null);
    app.decorateReply('loggedAnswer', null);
    app.addHook('onReady', async () => writer.startExpiry());
    app.addHook('onClose', async () => writer.close());

    // Calls of the API plugins' routes (their plugin names the API); unknown paths and the portal are not logged.
    const logged = (request: FastifyRequest) => {
      const config = request.routeOptions.config;
      return writer.enabled && config?.api !== undefined && !unlogged.has(config.operationId ?? '') && !skipRequested(request);
    };

    app.addHook('onRequest', async (request, reply) => {
      request.warnings = new Warnings();
      reply.header('request-id', request.id);
      reply.header('x-request-id', request.id);
    });

    app.addHook('preParsing', async (request, _reply, payload) => {
      // Files and uploads are described by their Content-Length, not read here: multipart reads the raw request itself,
      // and a stream in between that nobody reads would stall the upload.
      if (!logged(request) || !textual(request.headers['content-type'])) return payload;
      // No body to keep (a GET, most DELETEs): no stream in between.
      if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) return payload;
      const capture = new BodyCapture(opts.bodyMaxBytes);
      request.loggedBody = capture;
      // A client that breaks off its body fails the parse as it would without the capture; an error of the capture
      // itself (written after the parser gave up) is nobody's concern.
      payload.on('error', (error) => capture.destroy(error));
      capture.on('error', () => {});
      return payload.pipe(capture);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (request.warnings.list.length) reply.header('sandbox-warning', warningHeaders(request.warnings, request.id));
      if (!logged(request)) return payload;
      if (typeof payload === 'string') {
        reply.loggedAnswer = {
          text: payload.length > opts.bodyMaxBytes ? payload.slice(0, opts.bodyMaxBytes) : payload,
          bytes: Buffer.byteLength(payload),
          truncated: payload.length > opts.bodyMaxBytes,
        };
      } else if (Buffer.isBuffer(payload)) {
        const isText = textual(String(reply.getHeader('content-type') ?? ''));
        reply.loggedAnswer = {
          text: isText ? payload.subarray(0, opts.bodyMaxBytes).toString('utf8') : null,
          bytes: payload.length,
          truncated: isText && payload.length > opts.bodyMaxBytes,
        };
      } else if (payload) {
        const length = Number(reply.getHeader('content-length'));
        reply.loggedAnswer = { text: null, bytes: Number.isFinite(length) ? length : 0, truncated: false };
      }
      return payload;
    });

    app.addHook('onResponse', async (request, reply) => {
      // The client: from the token, or the one a token request was issued to.
      if (!request.client || !logged(request)) return;
      const requestType = request.headers['content-type'];
      const responseType = reply.getHeader('content-type');
      const body = request.loggedBody;
      const answer = reply.loggedAnswer;
      const responseContentType = responseType === undefined ? null : String(responseType);
      const requestText = body && body.bytes > 0 && textual(requestType) ? body.text() : null;
      writer.add({
        clientId: request.client.id,
        requestId: request.id,
        receivedAt: new Date(Date.now() - reply.elapsedTime),
        api: request.routeOptions.config.api!,
        operationId: request.routeOptions.config.operationId ?? null,
        method: request.method,
        url: request.url.length > urlMax ? request.url.slice(0, urlMax) : request.url,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
        requestContentType: requestType ?? null,
        requestBody: requestText === null ? null : redact(requestText, requestType),
        requestBytes: body?.bytes ?? (Number(request.headers['content-length']) || 0),
        requestTruncated: requestText !== null && body!.truncated,
        responseContentType,
        responseBody: answer?.text ? redact(answer.text, responseContentType ?? undefined) : null,
        responseBytes: answer?.bytes ?? 0,
        responseTruncated: answer?.truncated ?? false,
        warnings: request.warnings.list,
      });
    });
  },
  { name: 'shopapi-request-log', fastify: '5.x' },
);
