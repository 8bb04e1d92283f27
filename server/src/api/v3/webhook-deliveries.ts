// Sandbox: the delivery log of a webhook, one delivery, and redelivery of an event.
import type { FastifyInstance } from 'fastify';
import { route } from '../shared/routes.ts';
import { pageOf, paginationLinks } from '../shared/query.ts';
import { deliveryStatus, findDelivery, listDeliveries, redeliver, type DeliveryLogEntry } from '../../modules/webhooks/outbox.ts';
import type { AppContext } from '../shared/context.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function webhookDeliveryResource({ delivery: d, event, attempts }: DeliveryLogEntry, base: string) {
  const status = deliveryStatus(d);
  return {
    type: 'webhookDelivery',
    id: d.id,
    attributes: {
      eventId: event.id,
      event: event.type,
      entity: event.entity,
      entityId: event.entityId,
      occurredOn: event.occurredOn.toISOString(),
      status,
      attempts: d.attempts,
      nextAttemptOn: status === 'PENDING' ? d.nextAttemptAt.toISOString() : null,
      lastStatusCode: d.lastStatusCode,
      lastDurationMs: d.lastDurationMs,
      lastError: d.lastError,
      deliveredOn: iso(d.deliveredAt),
      failedOn: iso(d.failedAt),
      createdOn: d.createdAt.toISOString(),
      log: attempts.map((a) => ({
        attemptedOn: a.attemptedAt.toISOString(),
        statusCode: a.statusCode,
        durationMs: a.durationMs,
        error: a.error,
      })),
    },
    relationships: { webhook: { data: { type: 'webhook', id: d.webhookId } } },
    links: { self: `${base}/sandbox/webhooks/${d.webhookId}/deliveries/${d.id}` },
  };
}

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
