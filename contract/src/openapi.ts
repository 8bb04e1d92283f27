// Builds the OpenAPI 3.1 documents (v3 and v2) from the operation list.
import type { TObject, TSchema } from '@sinclair/typebox';
import { operations } from './operations.ts';
import { errorStyle, type ApiVersion, type Operation } from './operation.ts';
import {
  errorCatalogue,
  JsonApiErrorDocument,
  V2NokBody,
  V2NotFoundBody,
  V2UnauthorizedBody,
  v2Messages,
  type ErrorCode,
} from './errors.ts';
import { JSON_API_MEDIA_TYPE } from './jsonapi.ts';
import { webhookDeliveryGuide } from './v3/webhook-deliveries.ts';
import { defaultSandboxOrigin, withCodeSamples } from './code-samples.ts';

/** A plain JSON copy: drops TypeBox's symbol markers. */
const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema));

const tagDescriptions: Record<string, string> = {
  Authentication: 'Request a bearer token with your username and password; one token works for v3 and v2.',
  Settings: 'Reference data (order types, shipping methods, countries, languages, return reasons) with the ids orders refer to.',
  Status: 'Is the API up?',
  Orders: 'Send orders, read them back, update and cancel them, attach documents.',
  Shipments: 'What the warehouse shipped, with tracking.',
  Products: 'Products your orders and inbound goods refer to.',
  Stock: 'Stock per location, stock levels per product and warehouse, and the stock mutation ledger.',
  Inbound: 'Announce goods with inbound packing slips and follow their receipt as inbounds.',
  Returns: 'Returned products as the warehouse processed them.',
  Webhooks: `Register a URL for shipment and inbound events.\n\n${webhookDeliveryGuide}`,
  Sandbox: 'Sandbox-only controls that do what the real warehouse would: ship an order, receive goods, advance the clock.',
};

const documentInfo: Record<ApiVersion, { title: string; version: string; description: string }> = {
  v3: {
    title: 'Shop API v3',
    version: '3.0.0',
    description:
      'The current Shop API. It follows the JSON:API convention (media type `application/vnd.api+json`) and replaces the earlier v1 and v2 endpoints. Every call except `POST /token` and `GET /status` needs `Authorization: Bearer <token>`. Collections are cursor-paged: `page[cursor]` is the id of the last entity you saw, `page[size]` is 1 to 100 (default 100).',
  },
  v2: {
    title: 'Shop API v2 (legacy)',
    version: '2.0.0',
    description:
      'The legacy Shop API, superseded by v3. Every answer is an envelope `{messageCode, message, result}` with messageCode OK or NOK. Bodies may be JSON or form-urlencoded; keys in PascalCase, camelCase or lower case are accepted.',
  },
};

function parameters(op: Operation) {
  const list: Record<string, unknown>[] = [];
  const add = (schema: TObject | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const required = new Set(schema.required ?? []);
    for (const [name, prop] of Object.entries(schema.properties)) {
      const { description, ...rest } = plain(prop as TSchema);
      list.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  add(op.params, 'path');
  add(op.query, 'query');
  return list;
}

function errorBody(op: Operation, code: ErrorCode): { schema: Record<string, unknown>; example: unknown } {
  const entry = errorCatalogue[code];
  if (errorStyle(op) === 'jsonapi') {
    return {
      schema: plain(JsonApiErrorDocument),
      example: { errors: [{ code, title: entry.title, detail: entry.title, status: String(entry.status) }] },
    };
  }
  if (entry.status === 401) return { schema: plain(V2UnauthorizedBody), example: { message: v2Messages.unauthorized } };
  if (entry.status === 404)
    return {
      schema: plain(V2NotFoundBody),
      example: { error: '404 Not Found', error_description: 'The requested resource could not be found' },
    };
  return { schema: plain(V2NokBody), example: { messageCode: 'NOK', message: v2Messages.malformed, result: null } };
}

/** Answers every operation of its kind can give, so no operation forgets them. */
function implicitErrors(op: Operation): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (op.auth) codes.push('401');
  if (op.query || op.body) codes.push('400');
  if (errorStyle(op) === 'jsonapi') {
    codes.push('406');
    if (op.body) codes.push('415');
  }
  // A path parameter that does not name a resource is a 404; one that is not even valid URL encoding, a 400.
  if (op.params) codes.push('404', '400');
  if (op.rateLimit) codes.push('429');
  return codes;
}

/** Headers of every answer, and of the answers that name their own (Retry-After). */
const commonHeaders = {
  'Request-Id': {
    description: "This call's id: look it up with GET /sandbox/requests/{id} (the request log), or quote it when you ask for help.",
    schema: { type: 'string', format: 'uuid' },
  },
  'Sandbox-Warning': {
    description:
      'One per warning, when the sandbox ignored, converted or filled in part of the request: `kind source: detail`. The request log has them all.',
    schema: { type: 'string' },
  },
};
const headersOf = (spec?: { headers?: Record<string, string> }) => ({
  ...commonHeaders,
  ...Object.fromEntries(
    Object.entries(spec?.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
  ),
});

function responses(op: Operation) {
  const defaultType = errorStyle(op) === 'jsonapi' ? JSON_API_MEDIA_TYPE : 'application/json';
  const out: Record<string, Record<string, unknown>> = {};
  for (const [status, spec] of Object.entries(op.responses)) {
    out[status] = {
      description: spec.description,
      headers: headersOf(spec),
      ...(spec.schema || spec.example !== undefined
        ? {
            content: {
              [spec.contentType ?? defaultType]: {
                ...(spec.schema ? { schema: plain(spec.schema) } : {}),
                ...(spec.example !== undefined ? { example: spec.example } : {}),
              },
            },
          }
        : {}),
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...implicitErrors(op), ...(op.errors ?? [])])) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of byStatus) {
    if (out[status]?.content) continue;
    const description = out[status]?.description ?? `${codes.map((c) => `${c}: ${errorCatalogue[c].title}`).join('; ')}.`;
    const content = {
      [defaultType]: {
        schema: errorBody(op, codes[0]).schema,
        examples: Object.fromEntries(codes.map((c) => [c, { summary: errorCatalogue[c].title, value: errorBody(op, c).example }])),
      },
    };
    out[status] = { description, headers: headersOf(), content };
  }
  return out;
}

function requestBody(op: Operation) {
  if (!op.body) return undefined;
  const contentType = op.bodyContentTypes?.[0] ?? JSON_API_MEDIA_TYPE;
  return {
    required: true,
    content: { [contentType]: { schema: plain(op.body), ...(op.requestExample !== undefined ? { example: op.requestExample } : {}) } },
  };
}

export function buildOpenApi(version: ApiVersion) {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedTags = new Set<string>();
  for (const op of operations.filter((o) => o.documents.includes(version))) {
    for (const tag of op.tags) usedTags.add(tag);
    const params = parameters(op);
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = {
      operationId: op.operationId,
      tags: op.tags,
      summary: op.summary,
      description: op.description,
      ...(op.deprecated ? { deprecated: true } : {}),
      security: op.auth ? [{ bearerAuth: [] }] : [],
      ...(params.length ? { parameters: params } : {}),
      ...(op.body ? { requestBody: requestBody(op) } : {}),
      responses: responses(op),
    };
  }
  return withCodeSamples({
    openapi: '3.1.0',
    info: documentInfo[version],
    // The sandbox runs wherever its user starts it: the origin is a variable, and the portal sets it to its own.
    servers: [
      {
        url: '{origin}',
        description: 'Your sandbox (npm start)',
        variables: { origin: { default: defaultSandboxOrigin, description: 'Scheme, host and port your sandbox listens on.' } },
      },
    ],
    tags: [...usedTags].map((name) => ({ name, description: tagDescriptions[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The access_token from POST /token.' },
      },
    },
  });
}
