// v2 orders: thin handlers over the order service; the v2 fields are mapped in mapping/orders.ts.
import type { FastifyInstance } from 'fastify';
import { v2Messages, metadataExtraFields } from '@shopapi/contract';
import { placeOrder, releaseOrder, requireOrderByExternalNumber, type OrderRow } from '../../modules/orders/service.ts';
import { newOrderFromV2, v2OrderWarnings } from './mapping/orders.ts';
import { ok, v2Route } from './envelope.ts';
import { noteNewOrder } from '../../modules/scenarios/service.ts';
import { asciiHeader } from '../shared/request-log.ts';
import type { AppContext } from '../shared/context.ts';

const searchResult = (order: OrderRow) => ({
  orderNumber: order.id,
  externalOrderNumber: order.externalOrderNumber,
  ...Object.fromEntries(metadataExtraFields.map((k) => [k, order.metadata[k] ?? null])),
});

export function v2OrderRoutes(app: FastifyInstance, { db, services }: AppContext) {
  v2Route(app, 'addOrderV2', async (request, reply) => {
    const { order, problems } = await newOrderFromV2(db, request.client.id, request.body, request.warnings);
    const warnings = v2OrderWarnings(request.warnings);
    const placed = await placeOrder(db, services.orderPlacing, request.client.id, order, problems, warnings);
    const road = noteNewOrder(request.client, placed, warnings);
    if (road) reply.header('sandbox-scenario', asciiHeader(road));
    return ok(v2Messages.orderAdded, placed.order.id);
  });

  v2Route(
    app,
    'releaseOrderV2',
    async (request) => {
      await releaseOrder(db, request.client.id, request.body.externalOrderNumber);
      return ok(v2Messages.requestProcessed, null);
    },
    { keepNotFound: true },
  );

  const search = async (externalOrderNumber: string, clientId: number) =>
    ok(v2Messages.orderFound, searchResult(await requireOrderByExternalNumber(db, clientId, externalOrderNumber)));
  // The two forms differ on a miss, as the client libraries using each expect: GET answers the v2 404 body (mapped to
  // "not found"), POST the 200 NOK envelope (read by messageCode; those clients' HTTP libraries throw on a 4xx).
  v2Route(app, 'searchOrderV2', async (request) => search(request.query.externalOrderNumber, request.client.id), { keepNotFound: true });
  v2Route(app, 'searchOrderByPostV2', async (request) => search(request.body.externalOrderNumber, request.client.id), {
    notFound: v2Messages.orderNotFound,
  });
}
