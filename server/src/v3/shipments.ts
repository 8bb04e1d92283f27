// v3 shipments (read-only).
import type { FastifyInstance } from 'fastify';
import { shipmentStatuses } from '@shopapi/contract';
import { route } from '../http/routes.ts';
import { apiError } from '../http/errors.ts';
import { enumListFilter, includesOf, integerListFilter, listFilter, pageOf, paginationLinks } from '../http/query.ts';
import { findShipment, itemsOf, listShipments, type ShipmentRow } from '../domain/shipments/service.ts';
import { shipmentItemResource, shipmentResource } from './resources.ts';
import type { AppContext } from '../app.ts';

const includable = ['shipmentItems'];

export function shipmentRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  async function shipmentDocuments(rows: ShipmentRow[], include: Set<string>, base: string) {
    const items = await itemsOf(db, rows.map((s) => s.id));
    return {
      data: rows.map((s) => shipmentResource(s, items.filter((i) => i.shipmentId === s.id).map((i) => i.id), base)),
      included: include.has('shipmentItems') ? items.map((i) => shipmentItemResource(i, base)) : undefined,
    };
  }

  route(app, 'listShipments', async (request) => {
    const base = baseOf(request);
    const include = includesOf(request.query, includable);
    const page = pageOf(request.query);
    const q = request.query;
    const rows = await listShipments(db, request.client, {
      shippedOnLt: q['filter[shippedOn][lt]'],
      shippedOnGt: q['filter[shippedOn][gt]'],
      statuses: enumListFilter(q, 'filter[status][in]', shipmentStatuses),
      orderTypes: integerListFilter(q, 'filter[orderType][in]'),
      references: listFilter(q, 'filter[reference][in]'),
      orderId: q.orderId,
      externalOrderNumber: q.externalOrderNumber,
    }, page);
    const { data, included } = await shipmentDocuments(rows, include, base);
    return { data, ...(included ? { included } : {}), links: paginationLinks(request, base, page, rows) };
  });

  route(app, 'getShipment', async (request) => {
    const shipment = await findShipment(db, request.client, request.params.id);
    if (!shipment) throw apiError('404', `Shipment ${request.params.id} not found.`);
    const { data, included } = await shipmentDocuments([shipment], includesOf(request.query, includable), baseOf(request));
    return { data: data[0], ...(included ? { included } : {}) };
  });

}
