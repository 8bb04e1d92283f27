// v3 webhooks: subscriptions that push shipment and inbound events to a target URL.
import { Type } from '@sinclair/typebox';
import { webhookEvents } from '../enums.ts';
import { limits } from '../limits.ts';
import { CollectionDocument, RequestId, Resource, SingleDocument } from '../jsonapi.ts';
import { IdParams, PageQuery, defineOperation } from '../operation.ts';

const entities = Object.keys(webhookEvents) as (keyof typeof webhookEvents)[];
const events = Object.values(webhookEvents).flat();
const pairs = entities.map((entity) => `${entity}: ${webhookEvents[entity].join(', ')}`).join('; ');

const Entity = Type.Union(
  entities.map((e) => Type.Literal(e)),
  { description: 'The kind of resource the events are about.' },
);
const Event = Type.Union(
  events.map((e) => Type.Literal(e)),
  { description: `Must belong to the entity. ${pairs}.` },
);
const TargetUrl = Type.String({
  format: 'uri',
  maxLength: 2000,
  description:
    'http or https URL that receives the events and answers 200. Private and loopback addresses are refused unless the sandbox allows them.',
  examples: ['https://shop.example.com/hooks/warehouse'],
});
const IsActive = Type.Boolean({
  description:
    'Inactive webhooks receive nothing. The sandbox deactivates a webhook whose target keeps failing; set it active again to resume.',
});

export const WebhookAttributes = Type.Object({
  entity: Entity,
  event: Event,
  targetUrl: Type.String(),
  isActive: Type.Boolean(),
  secret: Type.Optional(
    Type.String({
      pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
      description: 'Only in the answer to POST, and never again: the Standard Webhooks signing secret for verifying deliveries. Store it.',
    }),
  ),
});
export const Webhook = Resource('webhook', WebhookAttributes, undefined, 'A subscription to one event of one entity.');

export const WebhookCreateDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('webhook'),
    attributes: Type.Object(
      { entity: Entity, event: Event, targetUrl: TargetUrl, isActive: Type.Optional(Type.Boolean({ default: true })) },
      { additionalProperties: false },
    ),
  }),
});

export const WebhookUpdateDocument = Type.Object({
  data: Type.Object({
    type: Type.Literal('webhook'),
    id: Type.Optional(RequestId),
    attributes: Type.Object(
      {
        targetUrl: Type.Optional(TargetUrl),
        isActive: Type.Optional(IsActive),
        entity: Type.Optional(Type.String({ description: 'Cannot change: must equal the stored entity when sent.' })),
        event: Type.Optional(Type.String({ description: 'Cannot change: must equal the stored event when sent.' })),
      },
      { additionalProperties: false },
    ),
  }),
});

const tags = ['Webhooks'];

export const webhookOperations = [
  defineOperation({
    operationId: 'listWebhooks',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/webhooks',
    tags,
    auth: true,
    success: 200,
    summary: 'List webhooks',
    description: 'Your webhooks, ordered by id ascending, cursor-paged. The signing secret is not shown.',
    query: Type.Object({ ...PageQuery }),
    responses: { 200: { description: 'A page of webhooks.', schema: CollectionDocument(Webhook) } },
    errors: ['400', '401', '406'],
  }),
  defineOperation({
    operationId: 'createWebhook',
    documents: ['v3'],
    method: 'POST',
    path: '/v3/webhooks',
    tags,
    auth: true,
    success: 201,
    summary: 'Register a webhook',
    description: `Subscribes a target URL to one event of one entity (${pairs}). The answer carries the signing secret (\`secret\`, Standard Webhooks format \`whsec_...\`) once; it is never shown again. Deliveries are signed with it (headers webhook-id, webhook-timestamp, webhook-signature). Target URLs that resolve to private, loopback or link-local addresses are refused unless the sandbox is configured to allow them (WEBHOOK_ALLOW_PRIVATE_TARGETS). A client may have at most ${limits.webhooksPerClientMax} webhooks, active or not: one more answers 409 until you delete one.`,
    body: WebhookCreateDocument,
    requestExample: {
      data: {
        type: 'webhook',
        attributes: {
          entity: 'shipment',
          event: 'shipment.shipped.3',
          targetUrl: 'https://shop.example.com/hooks/warehouse',
          isActive: true,
        },
      },
    },
    responses: {
      201: { description: 'The webhook, with its signing secret.', schema: SingleDocument(Webhook) },
      409: {
        description: `You already have ${limits.webhooksPerClientMax} webhooks, the most a client may have; the detail gives the count.`,
      },
    },
    errors: ['400', '401', '406', '409', '415'],
  }),
  defineOperation({
    operationId: 'getWebhook',
    documents: ['v3'],
    method: 'GET',
    path: '/v3/webhooks/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read a webhook',
    description: 'One webhook, without its signing secret.',
    params: IdParams,
    responses: { 200: { description: 'The webhook.', schema: SingleDocument(Webhook) } },
    errors: ['401', '404', '406'],
  }),
  defineOperation({
    operationId: 'updateWebhook',
    documents: ['v3'],
    method: 'PUT',
    path: '/v3/webhooks/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Update a webhook',
    description:
      'Only targetUrl and isActive may change; entity and event, when sent, must equal the stored ones (400 otherwise). Setting isActive true again resets the failure count of a webhook the sandbox deactivated.',
    params: IdParams,
    body: WebhookUpdateDocument,
    requestExample: { data: { type: 'webhook', id: 1, attributes: { targetUrl: 'https://shop.example.com/hooks/v2', isActive: false } } },
    responses: { 200: { description: 'The webhook after the update.', schema: SingleDocument(Webhook) } },
    errors: ['400', '401', '404', '406', '415'],
  }),
  defineOperation({
    operationId: 'deleteWebhook',
    documents: ['v3'],
    method: 'DELETE',
    path: '/v3/webhooks/{id}',
    tags,
    auth: true,
    success: 204,
    summary: 'Delete a webhook',
    description: 'The webhook receives nothing more.',
    params: IdParams,
    responses: { 204: { description: 'Deleted.' } },
    errors: ['401', '404', '406'],
  }),
];
