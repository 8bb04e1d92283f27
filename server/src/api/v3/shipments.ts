// v3 shipments (read-only).
import type { FastifyInstance } from 'fastify';
import { shipmentStatuses } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { allSpellings, enumListFilter, includesOf, integerListFilter, listFilter, pageOf, paginationLinks } from '../shared/query.ts';
import { shipmentById, shipmentItemById, shipmentPage } from '../../modules/shipments/service.ts';
import { documentBody, shipmentDocuments, shipmentItemDocuments, shipmentPageText } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';
import { domainError } from '../../platform/errors.ts';

const includable = ['shipmentItems'];

export function shipmentRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'listShipments', async (request) => {
    const base = baseOf(request);
    const include = includesOf(request.query, includable);
    const page = pageOf(request.query, request.warnings);
    const q = request.query;
    const withItems = include.has('shipmentItems');
    const { data, included, ids, cut } = await shipmentPageText(
      db,
      shipmentPage(
        db,
        request.client,
        {
          shippedOnLt: q['filter[shippedOn][lt]'],
          shippedOnGt: q['filter[shippedOn][gt]'],
          statuses: enumListFilter(q, 'filter[status][in]', shipmentStatuses),
          orderTypes: integerListFilter(q, 'filter[orderType][in]'),
          references: listFilter(q, 'filter[reference][in]'),
          // The spec's orderId and externalOrderNumber, and the filter[] spellings clients also write.
          orderIds: allSpellings(
            q.orderId === undefined ? undefined : [q.orderId],
            integerListFilter(q, 'filter[orderId]'),
            integerListFilter(q, 'filter[orderId][in]'),
          ),
          externalOrderNumbers: allSpellings(
            q.externalOrderNumber === undefined ? undefined : [q.externalOrderNumber],
            listFilter(q, 'filter[externalOrderNumber]'),
            listFilter(q, 'filter[externalOrderNumber][in]'),
          ),
        },
        page,
      ),
      withItems,
      base,
    );
    return documentBody({
      data,
      ...(withItems ? { included } : {}),
      links: JSON.stringify(paginationLinks(request, base, page, ids, cut)),
    });
  });

  route(app, 'getShipment', async (request) => {
    const withItems = includesOf(request.query, includable).has('shipmentItems');
    const {
      data: [shipment],
      included,
    } = await shipmentDocuments(db, shipmentById(db, request.client, request.params.id), withItems, baseOf(request));
    if (!shipment) throw domainError('404', `Shipment ${request.params.id} not found.`);
    return { data: shipment, ...(withItems ? { included } : {}) };
  });

  route(app, 'getShipmentItem', async (request) => {
    const [item] = await shipmentItemDocuments(db, shipmentItemById(db, request.client, request.params.id), baseOf(request));
    if (!item) throw domainError('404', `Shipment item ${request.params.id} not found.`);
    return { data: item };
  });
}
