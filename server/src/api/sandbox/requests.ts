// The request log as the client reads it: GET /sandbox/requests (newest first) and GET /sandbox/requests/{id}.
import type { FastifyInstance } from 'fastify';
import { sandboxRequestsPageSizeMax } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { paginationLinks } from '../shared/query.ts';
import { findRequest, listRequests, type RequestLogFilter, type RequestLogRow } from '../../modules/request-log/reader.ts';
import type { AppContext } from '../shared/context.ts';
import { domainError } from '../../platform/errors.ts';

const message = (contentType: string | null, bytes: number, truncated: boolean, body: string | null) => ({
  contentType,
  bytes,
  truncated,
  body,
});

/** The one representation of an entry, in a page and alone. */
function sandboxRequestResource(row: RequestLogRow, base: string) {
  return {
    type: 'sandboxRequest',
    id: row.requestId,
    attributes: {
      receivedAt: row.receivedAt.toISOString(),
      api: row.api,
      operationId: row.operationId,
      method: row.method,
      url: row.url,
      status: row.status,
      durationMs: row.durationMs,
      warnings: row.warnings,
      request: message(row.requestContentType, row.requestBytes, row.requestTruncated, row.requestBody),
      response: message(row.responseContentType, row.responseBytes, row.responseTruncated, row.responseBody),
    },
    links: { self: `${base}/sandbox/requests/${row.requestId}` },
  };
}

function filterOf(query: Record<string, string | undefined>): RequestLogFilter {
  const statuses = query['filter[status]']?.split(',') ?? [];
  return {
    statuses: statuses.filter((s) => !s.endsWith('xx')).map(Number),
    statusClasses: statuses.filter((s) => s.endsWith('xx')).map((s) => Number(s[0])),
    methods: query['filter[method]']?.toUpperCase().split(','),
    pathPrefix: query['filter[path]'],
    requestId: query['filter[requestId]'],
  };
}

export function sandboxRequestRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'listSandboxRequests', async (request) => {
    // Entries of calls answered a moment ago may still be queued: write them first, so a client sees its last call.
    await app.requestLog.flush();
    const base = baseOf(request);
    const size = Math.min(Number(request.query['page[size]'] ?? sandboxRequestsPageSizeMax), sandboxRequestsPageSizeMax);
    const before = Number(request.query['page[cursor]'] ?? 0);
    const rows = await listRequests(db, request.client.id, { before, size }, filterOf(request.query));
    return {
      data: rows.map((row) => sandboxRequestResource(row, base)),
      links: paginationLinks(request, base, { cursor: before, size }, rows),
    };
  });

  route(app, 'getSandboxRequest', async (request) => {
    await app.requestLog.flush();
    const row = await findRequest(db, request.client.id, request.params.id);
    if (!row) throw domainError('404', `No request ${request.params.id} in your request log.`);
    return { data: sandboxRequestResource(row, baseOf(request)) };
  });
}
