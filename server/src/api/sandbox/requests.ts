// The request log as the client reads it: GET /sandbox/requests (newest first) and GET /sandbox/requests/{id}.
import type { FastifyInstance } from 'fastify';
import { sandboxRequestsPageSizeMax } from '@shopapi/contract';
import { route, type RequestOf } from '../shared/routes.ts';
import { paginationLinks } from '../shared/query.ts';
import { findRequest, listRequests, type RequestLogFilter } from '../../modules/request-log/reader.ts';
import { sandboxRequestResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { domainError } from '../../platform/errors.ts';

function filterOf(query: RequestOf<'listSandboxRequests'>['query']): RequestLogFilter {
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
