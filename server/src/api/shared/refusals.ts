// Refusals whose words name the API's own paths: the modules and the warehouse refuse with the facts (the clock's
// target, the webhook, the order), and the API says where to go next. Every plugin's error handler words them here.
import type { DomainError, Problem } from '../../platform/errors.ts';
import { ClockAdvancingRefusal } from '../../modules/clients/clock.ts';
import { InactiveWebhookRefusal } from '../../modules/webhooks/outbox.ts';
import { ShortageRefusal } from '../../warehouse/sandbox.ts';

const worded = (error: DomainError, detail: string): Problem[] => [{ ...error.items[0], detail }];

/** The problems of a refusal as the API answers them. */
export function inApiWords(error: DomainError): Problem[] {
  if (error instanceof ClockAdvancingRefusal) {
    const to = error.target.toISOString();
    return worded(
      error,
      error.refused === 'advance'
        ? `Your clock is already advancing, to ${to}: wait until GET /sandbox/clock answers status ready, then advance again.`
        : `Your clock is advancing, to ${to}: the warehouse is catching up. Wait until GET /sandbox/clock answers status ready, then try again.`,
    );
  }
  if (error instanceof InactiveWebhookRefusal)
    return worded(
      error,
      `Webhook ${error.webhookId} is inactive; reactivate it with PUT /v3/webhooks/${error.webhookId} and isActive true.`,
    );
  if (error instanceof ShortageRefusal)
    return worded(error, `${error.shortage} Receive goods first, or ship the order with POST /sandbox/orders/${error.orderId}/ship.`);
  return error.items;
}
