// v3 return reasons and shipping methods: the client's reference data, read-only.
import type { FastifyInstance } from 'fastify';
import { route } from '../shared/routes.ts';
import { pageOf, paginationLinks } from '../shared/query.ts';
import { findReturnReason, findShippingMethod, listReturnReasons, listShippingMethods } from '../../modules/reference/service.ts';
import { returnReasonResource, shippingMethodResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { domainError } from '../../platform/errors.ts';

export function referenceCollectionRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'listReturnReasons', async (request) => {
    const base = baseOf(request);
    const page = pageOf(request.query, request.warnings);
    const rows = await listReturnReasons(db, request.client.id, page);
    return { data: rows.map((r) => returnReasonResource(r, base)), links: paginationLinks(request, base, page, rows) };
  });

  route(app, 'getReturnReason', async (request) => {
    const reason = await findReturnReason(db, request.client.id, request.params.id);
    if (!reason) throw domainError('404', `Return reason ${request.params.id} not found.`);
    return { data: returnReasonResource(reason, baseOf(request)) };
  });

  route(app, 'listShippingMethods', async (request) => {
    const base = baseOf(request);
    const page = pageOf(request.query, request.warnings);
    const rows = await listShippingMethods(db, request.client.id, page);
    return { data: rows.map((m) => shippingMethodResource(m, base)), links: paginationLinks(request, base, page, rows) };
  });

  route(app, 'getShippingMethod', async (request) => {
    const method = await findShippingMethod(db, request.client.id, request.params.id);
    if (!method) throw domainError('404', `Shipping method ${request.params.id} not found.`);
    return { data: shippingMethodResource(method, baseOf(request)) };
  });
}
