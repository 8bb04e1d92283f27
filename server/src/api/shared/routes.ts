// Registers a route from its contract operation: path, validation and serialization schemas all come from the contract,
// and with the TypeBox type provider the handler's params, query and body have the static types of those schemas.
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { operationById, type Operation, type OperationId, type OperationOf } from '@shopapi/contract';

/** The part of an operation a schema describes, or undefined where the operation has none. */
type Part<O, K extends string> = O extends { [P in K]: infer S } ? S : undefined;

/** The request schemas of an operation, as Fastify's type provider reads them. */
interface SchemasOf<O> {
  params: Part<O, 'params'>;
  querystring: Part<O, 'query'>;
  body: Part<O, 'body'>;
}

/** The contract's body type, unless a route reads its body other than as the schema describes (the product image's bytes). */
declare const fromContract: unique symbol;
export type FromContract = typeof fromContract;
type BodyGeneric<Body> = [Body] extends [FromContract] ? RouteGenericInterface : { Body: Body };

/** The request a handler gets: validated from the contract's schemas before the handler sees it. */
export type RequestOf<Id extends OperationId, Body = FromContract> = FastifyRequest<
  BodyGeneric<Body>,
  RawServerDefault,
  RawRequestDefaultExpression,
  SchemasOf<OperationOf<Id>>,
  TypeBoxTypeProvider
>;

export type Handler<Id extends OperationId, Body = FromContract> = (request: RequestOf<Id, Body>, reply: FastifyReply) => Promise<unknown>;

const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Body schemas are validated only where the body is parsed into an object the schema describes. */
const validatesBody = (op: Operation) => op.body && !(op.bodyContentTypes ?? []).includes('multipart/form-data');

/**
 * Declares the operation's route (and its aliases) in the API plugin `app`, which gives the route its API (app.api).
 * bodySchema: false where the body is validated by hand (each place says why). cachedClient: the handler may take the
 * client from the token cache (bearer-auth.ts says when that is safe).
 */
export function route<Id extends OperationId, Body = FromContract>(
  app: FastifyInstance,
  operationId: Id,
  handler: Handler<Id, Body>,
  opts: { bodySchema?: boolean; cachedClient?: boolean } = {},
) {
  const op = operationById(operationId);
  const { name, mediaType } = app.api;
  const successSchema = op.responses[op.success]?.schema;
  for (const path of [op.path, ...(op.aliases ?? [])]) {
    app.route({
      method: op.method,
      url: toFastifyPath(path),
      config: {
        api: name,
        auth: op.auth,
        operationId: op.operationId,
        rateLimit: op.rateLimit,
        ...(opts.cachedClient ? { cachedClient: true } : {}),
      },
      schema: {
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { querystring: op.query } : {}),
        ...(validatesBody(op) && opts.bodySchema !== false ? { body: op.body } : {}),
        ...(successSchema ? { response: { [op.success]: successSchema } } : {}),
      },
      handler: async (request, reply) => {
        const body = await handler(request as never, reply);
        if (reply.sent) return reply;
        if (!reply.hasHeader('content-type')) reply.type(mediaType);
        if (reply.statusCode === 200 && op.success !== 200) reply.code(op.success);
        return body;
      },
    });
  }
}
