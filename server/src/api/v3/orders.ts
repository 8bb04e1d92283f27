// v3 orders and order items: thin handlers over the order service.
import type { FastifyInstance } from 'fastify';
import { orderIncludes } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { includesOf, listFilter, pageOf, paginationLinks } from '../shared/query.ts';
import {
  addressById,
  assertNotFulfilled,
  cancelItems,
  findOrderItem,
  orderById,
  orderItemById,
  orderPage,
  pickUpPointById,
  placeOrder,
  requireOrder,
  updateOrder,
} from '../../modules/orders/service.ts';
import {
  addressDocuments,
  createdOrderBody,
  documentBody,
  orderDocuments,
  orderItemDocuments,
  orderPageText,
  pickUpPointDocuments,
} from '../../representation/index.ts';
import { noteNewOrder } from '../../modules/scenarios/service.ts';
import { asciiHeader } from '../shared/request-log.ts';
import type { AppContext } from '../shared/context.ts';
import { newOrderFromDocument, orderChangesFromDocument } from './order-documents.ts';
import { attributesPointer, locatedWarnings, locating } from '../shared/problem-pointers.ts';
import { domainError } from '../../platform/errors.ts';

export function orderRoutes(app: FastifyInstance, { db, baseOf, services }: AppContext) {
  /** One order as a document, with the includes asked for. */
  async function orderDocument(clientId: number, id: number, include: Set<string>, base: string) {
    const {
      data: [order],
      included,
    } = await orderDocuments(db, orderById(db, clientId, id), include, base);
    if (!order) throw domainError('404-5', `Order ${id} not found.`);
    return { data: order, ...(include.size ? { included } : {}) };
  }

  async function orderItemResource(clientId: number, id: number, base: string) {
    const [item] = await orderItemDocuments(db, orderItemById(db, clientId, id), base);
    if (!item) throw domainError('404', `Order item ${id} not found.`);
    return item;
  }

  // The hottest read: the client comes from the token cache, as the page reads nothing of it but its id.
  route(
    app,
    'listOrders',
    async (request) => {
      const base = baseOf(request);
      const include = includesOf(request.query, orderIncludes);
      const page = pageOf(request.query, request.warnings);
      const { data, included, ids, cut } = await orderPageText(
        db,
        orderPage(
          db,
          request.client.id,
          {
            orderedOnLt: request.query['filter[orderedOn][lt]'],
            orderedOnGt: request.query['filter[orderedOn][gt]'],
            externalOrderNumbers: listFilter(request.query, 'filter[externalOrderNumber][in]'),
            references: listFilter(request.query, 'filter[reference][in]'),
          },
          page,
        ),
        include,
        base,
      );
      return documentBody({
        data,
        ...(include.size ? { included } : {}),
        links: JSON.stringify(paginationLinks(request, base, page, ids, cut)),
      });
    },
    { cachedClient: true },
  );

  // One statement on a known token: the client comes from the token cache (placeOrder reads the client's clock in its
  // statement), and the answer is made from the rows that statement wrote.
  route(
    app,
    'createOrder',
    async (request, reply) => {
      const base = baseOf(request);
      const include = includesOf(request.query, orderIncludes);
      const { order, problems, locate } = newOrderFromDocument(request.body);
      const warnings = locatedWarnings(request.warnings, locate);
      const placed = await locating(locate, placeOrder(db, services.orderPlacing, request.client.id, order, problems, warnings), base);
      const road = noteNewOrder(request.client, placed, warnings);
      if (road) reply.header('sandbox-scenario', asciiHeader(road));
      // A new order answers with everything it was created with.
      return createdOrderBody(placed, include.size ? include : new Set(orderIncludes), base);
    },
    { cachedClient: true },
  );

  route(app, 'getOrder', async (request) =>
    orderDocument(request.client.id, request.params.id, includesOf(request.query, orderIncludes), baseOf(request)),
  );

  route(app, 'updateOrder', async (request) => {
    const base = baseOf(request);
    const include = includesOf(request.query, orderIncludes);
    const order = await requireOrder(db, request.client.id, request.params.id);
    if (Number(request.body.data.id) !== order.id)
      throw domainError('409', `The id in the document (${request.body.data.id}) does not match the id in the path (${order.id}).`, {
        pointer: '/data/id',
      });
    // A fulfilled order is refused before anything in the document is noted as ignored.
    assertNotFulfilled(order);
    const changes = orderChangesFromDocument(request.body, request.warnings);
    await locating(
      attributesPointer,
      updateOrder(db, request.client, order, changes, locatedWarnings(request.warnings, attributesPointer)),
      base,
    );
    return orderDocument(request.client.id, request.params.id, include.size ? include : new Set(orderIncludes), base);
  });

  route(app, 'cancelOrder', async (request) => {
    const base = baseOf(request);
    const include = includesOf(request.query, orderIncludes);
    await requireOrder(db, request.client.id, request.params.id);
    const modifiedItems = await cancelItems(db, request.client.id, request.params.id);
    const document = await orderDocument(request.client.id, request.params.id, include, base);
    return { ...document, meta: { modified: modifiedItems.length > 0, modifiedItems } };
  });

  route(app, 'getOrderItem', async (request) => ({ data: await orderItemResource(request.client.id, request.params.id, baseOf(request)) }));

  route(app, 'cancelOrderItem', async (request) => {
    const item = await findOrderItem(db, request.client.id, request.params.id);
    if (!item) throw domainError('404', `Order item ${request.params.id} not found.`);
    const modified = await cancelItems(db, request.client.id, item.orderId, item.id);
    return { data: await orderItemResource(request.client.id, item.id, baseOf(request)), meta: { modified: modified.length > 0 } };
  });

  route(app, 'getAddress', async (request) => {
    const [address] = await addressDocuments(db, addressById(db, request.client.id, request.params.id), baseOf(request));
    if (!address) throw domainError('404', `Address ${request.params.id} not found.`);
    return { data: address };
  });

  route(app, 'getPickUpPoint', async (request) => {
    const [pickUpPoint] = await pickUpPointDocuments(db, pickUpPointById(db, request.client.id, request.params.id), baseOf(request));
    if (!pickUpPoint) throw domainError('404', `Pick-up point ${request.params.id} not found.`);
    return { data: pickUpPoint };
  });
}
