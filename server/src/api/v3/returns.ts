// v3 return items (read-only).
import type { FastifyInstance } from 'fastify';
import { route } from '../shared/routes.ts';
import { pageOf, paginationLinks } from '../shared/query.ts';
import { findReturnItem, listReturnItems } from '../../modules/returns/service.ts';
import { returnItemResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { domainError } from '../../platform/errors.ts';

export function returnRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'listReturnItems', async (request) => {
    const base = baseOf(request);
    const page = pageOf(request.query, request.warnings);
    const rows = await listReturnItems(
      db,
      request.client.id,
      {
        processedOnLt: request.query['filter[processedOn][lt]'],
        processedOnGt: request.query['filter[processedOn][gt]'],
      },
      page,
    );
    return { data: rows.map((r) => returnItemResource(r, base)), links: paginationLinks(request, base, page, rows) };
  });

  route(app, 'getReturnItem', async (request) => {
    const item = await findReturnItem(db, request.client.id, request.params.id);
    if (!item) throw domainError('404', `Return item ${request.params.id} not found.`);
    return { data: returnItemResource(item, baseOf(request)) };
  });
}
