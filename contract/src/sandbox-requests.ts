// The request log: each client reads back what the sandbox received from it, what it answered, and what it did beyond
// what was asked (warnings).
import { Type } from '@sinclair/typebox';
import { defineOperation } from './operation.ts';
import { MAX_ID, PaginationLinks, SelfLinks } from './jsonapi.ts';

const tags = ['Sandbox'];

export const requestIdPattern = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

export const RequestWarning = Type.Object({
  kind: Type.Union(
    ['ignored', 'alias', 'coerced', 'default', 'scenario'].map((k) => Type.Literal(k)),
    {
      description:
        'ignored: a key or parameter the server does not read; alias: a deprecated name it read as the documented one; coerced: a value it converted (a number sent as text, a vat fraction, a house number taken from the street); default: a value it filled in because the request left it out; scenario: the test scenario an order or packing slip follows (a `sandbox-scenario:` marker, known or not), or why an order waits (its goods are not in stock).',
    },
  ),
  detail: Type.String(),
  source: Type.Optional(Type.String({ description: 'Where in the request: a JSON pointer into the body as sent, or a query parameter.' })),
});

const Message = (what: string) =>
  Type.Object({
    contentType: Type.Union([Type.String(), Type.Null()]),
    bytes: Type.Integer({ minimum: 0, description: `Size of the ${what} body in bytes.` }),
    truncated: Type.Boolean({
      description: `The ${what} body was longer than the log keeps (REQUEST_LOG_BODY_MAX_BYTES, 64 KiB by default); body holds its start.`,
    }),
    body: Type.Union([Type.String(), Type.Null()], {
      description: `The ${what} body as text, with passwords, tokens and webhook secrets replaced by [redacted]; null when there was none or it is binary (files, multipart uploads).`,
    }),
  });

/**
 * A GET or HEAD sent with `Sandbox-Log: skip` stays out of the request log, so a screen that refreshes in the
 * background (the sandbox console) does not push the integrator's own calls out of it. Writes are always logged.
 */
export const sandboxLogHeader = { name: 'Sandbox-Log', skip: 'skip' } as const;

/** A page of entries carries their bodies too (one representation per resource), so pages are short. */
export const sandboxRequestsPageSizeMax = 20;

export const SandboxRequest = Type.Object(
  {
    type: Type.Literal('sandboxRequest'),
    id: Type.String({ pattern: requestIdPattern, description: 'The Request-Id header of the answer.' }),
    attributes: Type.Object({
      receivedAt: Type.String({ format: 'date-time', description: 'When the request arrived (real time, not your sandbox clock).' }),
      api: Type.Union(['v3', 'v2', 'sandbox', 'token'].map((k) => Type.Literal(k))),
      operationId: Type.Union([Type.String(), Type.Null()], { description: 'The operation of the reference that answered.' }),
      method: Type.String(),
      url: Type.String({ description: 'Path and query as received.' }),
      status: Type.Integer(),
      durationMs: Type.Number({ description: "From the request's arrival to the answer being sent." }),
      warnings: Type.Array(RequestWarning),
      request: Message('request'),
      response: Message('response'),
    }),
    links: SelfLinks,
  },
  { title: 'sandboxRequest' },
);

const statusFilter = '^([1-5][0-9][0-9]|[1-5]xx)(,([1-5][0-9][0-9]|[1-5]xx))*$';

export const sandboxRequestOperations = [
  defineOperation({
    operationId: 'listSandboxRequests',
    documents: ['v3'],
    method: 'GET',
    path: '/sandbox/requests',
    tags,
    auth: true,
    success: 200,
    summary: 'List your requests (sandbox)',
    description:
      'Your request log, newest first: every v3, v2 and sandbox call made with your token (and each token you were issued), with its status, duration, warnings and bodies. Calls to the request log itself are not logged. Entries are kept per client up to a count and an age (REQUEST_LOG_MAX_PER_CLIENT, 1,000 by default; REQUEST_LOG_MAX_AGE_HOURS, 7 days). An entry appears as soon as its answer is sent. A GET or HEAD request with the header `Sandbox-Log: skip` is left out (a screen that refreshes in the background, like the sandbox console, sends it so that its polling does not push your own calls out of the log); on other methods the header is ignored and the call is logged. Follow `links.next` for older entries.',
    query: Type.Object({
      'page[size]': Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_ID,
          default: sandboxRequestsPageSizeMax,
          description: `Entries per page, 1 to ${sandboxRequestsPageSizeMax} (each carries its bodies); larger values are capped.`,
        }),
      ),
      'page[cursor]': Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'Position from a `next` link: the page continues with older entries.',
        }),
      ),
      'filter[status]': Type.Optional(
        Type.String({
          pattern: statusFilter,
          maxLength: 200,
          description: 'Comma-separated statuses or classes: 404, 4xx, 200,201.',
          examples: ['4xx'],
        }),
      ),
      'filter[method]': Type.Optional(
        Type.String({
          pattern: '^[A-Za-z]+(,[A-Za-z]+)*$',
          maxLength: 100,
          description: 'Comma-separated methods: GET, POST, PUT, PATCH, DELETE.',
          examples: ['POST'],
        }),
      ),
      'filter[path]': Type.Optional(
        Type.String({
          pattern: '^/',
          maxLength: 2000,
          description: 'Entries whose path starts with this, e.g. /v3/orders or /order/.',
          examples: ['/v3/orders'],
        }),
      ),
      'filter[requestId]': Type.Optional(
        Type.String({ pattern: requestIdPattern, maxLength: 36, description: 'The entry with this Request-Id.' }),
      ),
    }),
    responses: {
      200: {
        description: 'A page of your requests, newest first.',
        schema: Type.Object({ data: Type.Array(SandboxRequest), links: PaginationLinks }),
      },
    },
    errors: ['400', '401', '406'],
  }),
  defineOperation({
    operationId: 'getSandboxRequest',
    documents: ['v3'],
    method: 'GET',
    path: '/sandbox/requests/{id}',
    tags,
    auth: true,
    success: 200,
    summary: 'Read one request (sandbox)',
    description:
      "One entry of your request log by its Request-Id (the header of every answer, and `meta.requestId` of JSON:API error bodies). Another client's request id answers 404.",
    params: Type.Object({ id: Type.String({ pattern: requestIdPattern, maxLength: 36, description: 'The Request-Id.' }) }),
    responses: { 200: { description: 'The entry with its bodies.', schema: Type.Object({ data: SandboxRequest }) } },
    errors: ['401', '404', '406'],
  }),
];
