// The v3 JSON:API as one encapsulated plugin: its negotiation and error format apply to its routes only.
import type { FastifyInstance } from 'fastify';
import { useJsonApi } from '../shared/jsonapi.ts';
import type { AppContext } from '../shared/context.ts';
import { apiPlugin } from '../shared/api-plugin.ts';
import { orderRoutes } from './orders.ts';
import { shipmentRoutes } from './shipments.ts';
import { productRoutes } from './products.ts';
import { webhookRoutes } from './webhooks.ts';
import { referenceCollectionRoutes } from './reference-collections.ts';
import { attachmentRoutes } from './attachments.ts';
import { webhookDeliveryRoutes } from './webhook-deliveries.ts';
import { stockRoutes } from './stock.ts';
import { inboundRoutes } from './inbound.ts';
import { returnRoutes } from './returns.ts';

async function v3(app: FastifyInstance, context: AppContext) {
  useJsonApi(app, 'v3');
  orderRoutes(app, context);
  shipmentRoutes(app, context);
  productRoutes(app, context);
  webhookRoutes(app, context);
  referenceCollectionRoutes(app, context);
  attachmentRoutes(app, context);
  webhookDeliveryRoutes(app, context);
  stockRoutes(app, context);
  inboundRoutes(app, context);
  returnRoutes(app, context);
}

export const v3Plugin = apiPlugin('shopapi-v3', ['shopapi-jsonapi', '@fastify/multipart'], v3);
