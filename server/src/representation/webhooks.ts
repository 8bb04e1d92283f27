// Webhooks: a target URL for the events of one entity.
import type { WebhookRow } from '../modules/webhooks/service.ts';
import { self, type ResourceObject } from './resource.ts';

export function webhookResource(w: WebhookRow, base: string, opts: { withSecret?: boolean } = {}): ResourceObject {
  return {
    type: 'webhook',
    id: w.id,
    // The secret is shown once, in the answer that created it.
    attributes: {
      entity: w.entity,
      event: w.event,
      targetUrl: w.targetUrl,
      isActive: w.isActive,
      ...(opts.withSecret ? { secret: w.secret } : {}),
    },
    links: self(base, 'webhooks', w.id),
  };
}
