// Registers a route from its contract operation: path, validation and serialization schemas all come from the contract.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { operationById, JSON_API_MEDIA_TYPE, type Operation } from '@shopapi/contract';
import type { ApiKind } from './jsonapi.ts';

// Validation has run from the contract's schemas before a handler sees the request.
export type Handler<Body> = (
  // biome-ignore lint/suspicious/noExplicitAny: params and query are untyped until routes take the TypeBox type provider (issue 13).
  request: FastifyRequest<{ Params: Record<string, any>; Querystring: Record<string, any>; Body: Body }>,
  reply: FastifyReply,
) => Promise<unknown>;

const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

function apiKind(op: Operation): ApiKind {
  if (op.path === '/token') return 'token';
  return op.path.startsWith('/v3/') || op.path.startsWith('/sandbox/') ? 'v3' : 'v2';
}

/** Body schemas are validated only where the body is parsed into an object the schema describes. */
const validatesBody = (op: Operation) => op.body && !(op.bodyContentTypes ?? []).includes('multipart/form-data');

/** Body is the static type of the operation's body schema, which has been validated when the handler runs. */
export function route<Body = Record<string, unknown>>(
  app: FastifyInstance,
  operationId: string,
  handler: Handler<Body>,
  opts: { bodySchema?: boolean } = {},
) {
  const op = operationById(operationId);
  const kind = apiKind(op);
  const successSchema = op.responses[op.success]?.schema;
  for (const path of [op.path, ...(op.aliases ?? [])]) {
    app.route({
      method: op.method,
      url: toFastifyPath(path),
      config: { api: kind, auth: op.auth, operationId: op.operationId, rateLimit: op.rateLimit },
      schema: {
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { querystring: op.query } : {}),
        ...(validatesBody(op) && opts.bodySchema !== false ? { body: op.body } : {}),
        ...(successSchema ? { response: { [op.success]: successSchema } } : {}),
      },
      handler: async (request, reply) => {
        const body = await handler(request as never, reply);
        if (reply.sent) return reply;
        if (!reply.hasHeader('content-type')) reply.type(kind === 'v3' ? JSON_API_MEDIA_TYPE : 'application/json');
        if (reply.statusCode === 200 && op.success !== 200) reply.code(op.success);
        return body;
      },
    });
  }
}
