// v3 return items (read-only).
import type { FastifyInstance } from 'fastify';
import { route } from '../http/routes.ts';
import { pageOf, paginationLinks } from '../http/query.ts';
import { listReturnItems } from '../domain/returns/service.ts';
import { returnItemResource } from './resources.ts';
import type { AppContext } from '../app.ts';

export function returnRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'listReturnItems', async (request) => {
    const base = baseOf(request);
    const page = pageOf(request.query);
    const rows = await listReturnItems(db, request.client.id, {
      processedOnLt: request.query['filter[processedOn][lt]'],
      processedOnGt: request.query['filter[processedOn][gt]'],
    }, page);
    return { data: rows.map((r) => returnItemResource(r, base)), links: paginationLinks(request, base, page, rows) };
  });
}
