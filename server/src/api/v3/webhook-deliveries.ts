// Sandbox: the delivery log of a webhook, one delivery, and redelivery of an event.
import type { FastifyInstance } from 'fastify';
import { route } from '../shared/routes.ts';
import { pageOf, paginationLinks } from '../shared/query.ts';
import { findDelivery, listDeliveries, redeliver } from '../../modules/webhooks/outbox.ts';
import { webhookDeliveryResource } from '../../representation/index.ts';
import type { AppContext } from '../shared/context.ts';

export function webhookDeliveryRoutes(app: FastifyInstance, { db, baseOf }: AppContext) {
  route(app, 'sandboxListWebhookDeliveries', async (request) => {
    const base = baseOf(request);
    const page = pageOf(request.query, request.warnings);
    const entries = await listDeliveries(db, request.client.id, request.params.id, page);
    return {
      data: entries.map((e) => webhookDeliveryResource(e, base)),
      links: paginationLinks(
        request,
        base,
        page,
        entries.map((e) => e.delivery),
      ),
    };
  });

  route(app, 'sandboxGetWebhookDelivery', async (request) => {
    const entry = await findDelivery(db, request.client.id, request.params.id, request.params.deliveryId);
    return { data: webhookDeliveryResource(entry, baseOf(request)) };
  });

  route(app, 'sandboxRedeliverWebhookDelivery', async (request) => {
    const entry = await redeliver(db, request.client.id, request.params.id, request.params.deliveryId);
    return { data: webhookDeliveryResource(entry, baseOf(request)) };
  });
}
