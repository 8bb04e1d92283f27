// The legacy v2 API as one encapsulated plugin: lenient parsing and the NOK envelope apply to its routes only.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { errorHandlerOf, renderEnvelope } from '../shared/errors.ts';
import type { AppContext } from '../shared/context.ts';
import { v2BodyPlugin, v2BodyRefusal } from './body.ts';
import { v2OrderRoutes } from './orders.ts';
import { v2ShipmentRoutes } from './shipments.ts';
import { v2ReturnRoutes } from './returns.ts';
import { v2ProductRoutes } from './products.ts';
import { v2StockRoutes } from './stock.ts';
import { v2PurchaseOrderRoutes } from './purchase-orders.ts';

/**
 * The conventions of a v2-style call, for the plugin that registers it (this one, and /status and /settings in
 * api/auth): answers in application/json, errors in the NOK envelope, bodies and query strings read leniently.
 */
export const v2Conventions = fp(async (app: FastifyInstance) => {
  app.decorate('api', { name: 'v2', mediaType: 'application/json' });
  const envelope = errorHandlerOf(renderEnvelope);
  app.setErrorHandler((error: FastifyError, request, reply) => v2BodyRefusal(error, request, reply) ?? envelope(error, request, reply));
  await app.register(v2BodyPlugin);
});

export async function v2Plugin(app: FastifyInstance, context: AppContext) {
  await app.register(v2Conventions);
  v2OrderRoutes(app, context);
  v2ShipmentRoutes(app, context);
  v2ReturnRoutes(app, context);
  v2ProductRoutes(app, context);
  v2StockRoutes(app, context);
  v2PurchaseOrderRoutes(app, context);
}
