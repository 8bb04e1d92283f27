// The legacy v2 API as one encapsulated plugin: lenient parsing and the NOK envelope apply to its routes only.
import type { FastifyInstance } from 'fastify';
import { envelopeConventions } from '../shared/envelope-conventions.ts';
import type { AppContext } from '../shared/context.ts';
import { apiPlugin } from '../shared/api-plugin.ts';
import { v2OrderRoutes } from './orders.ts';
import { v2ShipmentRoutes } from './shipments.ts';
import { v2ReturnRoutes } from './returns.ts';
import { v2ProductRoutes } from './products.ts';
import { v2StockRoutes } from './stock.ts';
import { v2PurchaseOrderRoutes } from './purchase-orders.ts';

async function v2(app: FastifyInstance, context: AppContext) {
  await app.register(envelopeConventions);
  v2OrderRoutes(app, context);
  v2ShipmentRoutes(app, context);
  v2ReturnRoutes(app, context);
  v2ProductRoutes(app, context);
  v2StockRoutes(app, context);
  v2PurchaseOrderRoutes(app, context);
}

export const v2Plugin = apiPlugin('shopapi-v2', ['shopapi-form-body'], v2);
