// Webhook deliveries (sandbox): one event sent to one webhook, with the log of its attempts.
import { deliveryStatus, type DeliveryLogEntry } from '../modules/webhooks/outbox.ts';
import { iso } from '../platform/time.ts';

export function webhookDeliveryResource({ delivery: d, event, body, attempts }: DeliveryLogEntry, base: string) {
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
      payload: body,
      log: attempts.map((a) => ({
        attemptedOn: a.attemptedAt.toISOString(),
        statusCode: a.statusCode,
        durationMs: a.durationMs,
        error: a.error,
        headers: a.headers,
        responseBody: a.responseBody,
      })),
    },
    relationships: { webhook: { data: { type: 'webhook', id: d.webhookId } } },
    links: { self: `${base}/sandbox/webhooks/${d.webhookId}/deliveries/${d.id}` },
  };
}
