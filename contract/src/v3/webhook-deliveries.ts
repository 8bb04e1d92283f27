// Webhook delivery: how events reach a target and how to verify them, and the sandbox's delivery log and redelivery.
import { Type } from '@sinclair/typebox';
import { Nullable } from '../formats.ts';
import { limits } from '../limits.ts';
import { CollectionDocument, MAX_ID, Resource, SingleDocument, ToOne } from '../jsonapi.ts';
import { IdParams, PageQuery, defineOperation } from '../operation.ts';

/** How deliveries work and how to verify them; the webhook operations and the Webhooks tag carry this text. */
export const webhookDeliveryGuide = `
### Deliveries

Each event is POSTed to the webhook's \`targetUrl\` as JSON:

\`\`\`json
{"type": "shipment.shipped.3", "timestamp": "2025-03-01T10:15:00.000Z", "data": { "type": "shipment", "id": 42, "attributes": { "status": "SHIPPED" } } }
\`\`\`

\`data\` is the shipment or inbound resource object as \`GET /v3/shipments/{id}\` or \`GET /v3/inbounds/{id}\` returned it when the
event happened; \`timestamp\` is that moment. Answer **200** to acknowledge. Any other answer, or none within ${limits.webhookAttemptTimeoutSeconds} seconds, is
retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts over about 27 hours). The ${limits.webhookAttemptTimeoutSeconds} seconds cover
the whole attempt, from connecting to the end of your answer: answer promptly and do the work afterwards. Of your answer's body the
first ${limits.webhookResponseMaxBytes / 1024} KiB are read and shown in the delivery log; the rest is not read (the connection is closed). When the last attempt fails too,
the webhook is deactivated (\`isActive\` false); \`PUT\` it with \`isActive\` true to switch it on again. Delivery is *at least
once*: the same event can arrive twice, always with the same \`webhook-id\`, so keep the ids you have handled and skip repeats.
Events of one entity are sent in the order they happened; after a retry an older event can arrive later, so compare
\`timestamp\` before overwriting newer data.

### Verifying a delivery

Deliveries are signed as the [Standard Webhooks](https://www.standardwebhooks.com/) specification says, with the \`secret\`
(\`whsec_...\`) returned once when you create the webhook. Three headers come with every delivery:

- \`webhook-id\`: the event id, the same on every retry and redelivery;
- \`webhook-timestamp\`: seconds since the epoch when this attempt was sent;
- \`webhook-signature\`: \`v1,\` followed by the base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{body}\`, keyed with the
  base64-decoded part of the secret after \`whsec_\`.

Verify the raw body (before any JSON parsing), and reject timestamps more than 5 minutes from your clock.

With the \`standardwebhooks\` package (Node.js; libraries exist for most languages):

\`\`\`js
import express from 'express';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.WEBHOOK_SECRET); // whsec_...
const app = express();
app.post('/webhooks', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = wh.verify(req.body, req.headers); // throws on a bad signature or an old timestamp
  } catch {
    return res.status(400).end();
  }
  // handle event.type and event.data once per req.headers['webhook-id'] ...
  res.status(200).end();
});
app.listen(3000);
\`\`\`

Without a library (Node.js \`crypto\`):

\`\`\`js
import { createHmac, timingSafeEqual } from 'node:crypto';

function verify(secret, headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  // The header may list several signatures separated by spaces (during secret rotation).
  return headers['webhook-signature'].split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
\`\`\`

In the sandbox, \`GET /sandbox/webhooks/{id}/deliveries\` shows every delivery with its attempts, and
\`POST /sandbox/webhooks/{id}/deliveries/{deliveryId}/redeliver\` sends an event again. The embedded sandbox (\`npm start\`
without \`DATABASE_URL\`) delivers to loopback and private addresses, so you can receive on your own machine; with
\`DATABASE_URL\` such targets are refused unless \`WEBHOOK_ALLOW_PRIVATE_TARGETS=true\`.
`.trim();

export const deliveryStatuses = ['PENDING', 'DELIVERED', 'FAILED'] as const;

const nullableDateTime = Nullable(Type.String({ format: 'date-time' }));

export const WebhookDelivery = Resource(
  'webhookDelivery',
  Type.Object({
    eventId: Type.String({ format: 'uuid', description: 'Sent as `webhook-id`; the same on every attempt and redelivery.' }),
    event: Type.String({ description: 'The event name, e.g. shipment.shipped.3.', examples: ['shipment.shipped.3'] }),
    entity: Type.String({ examples: ['shipment'] }),
    entityId: Type.Integer({ description: 'Id of the shipment or inbound.' }),
    occurredOn: Type.String({ format: 'date-time', description: "When the event happened (your clock); the body's `timestamp`." }),
    status: Type.Union(
      deliveryStatuses.map((s) => Type.Literal(s)),
      { description: 'PENDING until a 200 (DELIVERED) or until every retry failed (FAILED).' },
    ),
    attempts: Type.Integer({ minimum: 0 }),
    nextAttemptOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When a PENDING delivery is tried next.',
    }),
    lastStatusCode: Nullable(Type.Integer({ description: 'HTTP status of the last answer; null when none came.' })),
    lastDurationMs: Nullable(Type.Integer()),
    lastError: Nullable(Type.String()),
    deliveredOn: nullableDateTime,
    failedOn: nullableDateTime,
    createdOn: Type.String({ format: 'date-time' }),
    payload: Type.String({
      maxLength: 1_000_000,
      description:
        'The raw JSON body POSTed for this event, byte for byte as sent (the same on every attempt): verify a signature against this text, not against re-serialized JSON.',
    }),
    log: Type.Array(
      Type.Object({
        attemptedOn: Type.String({ format: 'date-time' }),
        statusCode: Nullable(Type.Integer()),
        durationMs: Type.Integer(),
        error: Nullable(Type.String()),
        headers: Nullable(
          Type.Object(
            {
              'webhook-id': Type.String({ format: 'uuid' }),
              'webhook-timestamp': Type.String({ pattern: '^[0-9]+$', description: 'Seconds since the epoch when this attempt was sent.' }),
              'webhook-signature': Type.String({ examples: ['v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4='] }),
            },
            { description: 'The signature headers exactly as sent on this attempt; null for attempts logged before they were kept.' },
          ),
        ),
        responseBody: Nullable(
          Type.String({
            maxLength: limits.webhookResponseMaxBytes,
            description: `The start of the body your target answered, as UTF-8 text: at most its first ${limits.webhookResponseMaxBytes} bytes (the rest is not read). Null when no answer came, and for attempts logged before answers were kept.`,
          }),
        ),
      }),
      { description: 'Every attempt, oldest first.' },
    ),
  }),
  Type.Object({ webhook: ToOne('webhook') }),
  'One event sent to one webhook, with its attempts.',
);

const tags = ['Sandbox'];
const DeliveryParams = Type.Object({
  ...IdParams.properties,
  deliveryId: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Delivery id, from the delivery log.' }),
});

export const webhookDeliveryOperations = [
  defineOperation({
    operationId: 'sandboxListWebhookDeliveries',
    documents: ['v3'],
    method: 'GET',
    path: '/sandbox/webhooks/{id}/deliveries',
    tags,
    auth: true,
    success: 200,
    summary: 'List the deliveries of a webhook (sandbox)',
    description: `Every event sent (or still to be sent) to this webhook, oldest first, cursor-paged, with the body sent and each attempt's signature headers, status code and duration.\n\n${webhookDeliveryGuide}`,
    params: IdParams,
    query: Type.Object({ ...PageQuery }),
    responses: { 200: { description: 'A page of deliveries.', schema: CollectionDocument(WebhookDelivery) } },
    errors: ['400', '401', '404', '406'],
  }),
  defineOperation({
    operationId: 'sandboxGetWebhookDelivery',
    documents: ['v3'],
    method: 'GET',
    path: '/sandbox/webhooks/{id}/deliveries/{deliveryId}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a delivery of a webhook (sandbox)',
    description:
      'One entry of the delivery log: the event and the body sent, its status and every attempt with its signature headers, status code and duration.',
    params: DeliveryParams,
    responses: { 200: { description: 'The delivery.', schema: SingleDocument(WebhookDelivery) } },
    errors: ['401', '404', '406'],
  }),
  defineOperation({
    operationId: 'sandboxRedeliverWebhookDelivery',
    documents: ['v3'],
    method: 'POST',
    path: '/sandbox/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    tags,
    auth: true,
    success: 201,
    summary: 'Send an event again (sandbox)',
    description:
      "Queues the delivery's event again as a new delivery, sent within seconds with the same `webhook-id`, so a receiver that deduplicates handles it once. An inactive webhook answers 409: reactivate it first with PUT and `isActive` true.",
    params: DeliveryParams,
    responses: { 201: { description: 'The new delivery.', schema: SingleDocument(WebhookDelivery) } },
    errors: ['401', '404', '406', '409'],
  }),
];
