// v3 shipments (read-only).
import type { FastifyInstance } from 'fastify';
import { shipmentStatuses } from '@shopapi/contract';
import { route } from '../http/routes.ts';
import { apiError } from '../http/errors.ts';
import { enumListFilter, includesOf, integerListFilter, listFilter, pageOf, paginationLinks } from '../http/query.ts';
import { shipmentById, shipmentPage } from '../domain/shipments/service.ts';
import { documentBody, shipmentDocuments, shipmentPageText } from './json-documents.ts';
import type { AppContext } from '../app.ts';

const includable = ['shipmentItems'];

export function shipmentRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'listShipments', async (request) => {
    const base = baseOf(request);
    const include = includesOf(request.query, includable);
    const page = pageOf(request.query);
    const q = request.query;
    const withItems = include.has('shipmentItems');
    const { data, included, ids } = await shipmentPageText(db, shipmentPage(db, request.client, {
      shippedOnLt: q['filter[shippedOn][lt]'],
      shippedOnGt: q['filter[shippedOn][gt]'],
      statuses: enumListFilter(q, 'filter[status][in]', shipmentStatuses),
      orderTypes: integerListFilter(q, 'filter[orderType][in]'),
      references: listFilter(q, 'filter[reference][in]'),
      orderId: q.orderId,
      externalOrderNumber: q.externalOrderNumber,
    }, page), withItems, base);
    return documentBody({ data, ...(withItems ? { included } : {}), links: JSON.stringify(paginationLinks(request, base, page, ids)) });
  });

  route(app, 'getShipment', async (request) => {
    const withItems = includesOf(request.query, includable).has('shipmentItems');
    const { data: [shipment], included } = await shipmentDocuments(db, shipmentById(db, request.client, request.params.id), withItems, baseOf(request));
    if (!shipment) throw apiError('404', `Shipment ${request.params.id} not found.`);
    return { data: shipment, ...(withItems ? { included } : {}) };
  });

}
