// The v2 answer shapes and route registration: the v2-body plugin validates v2 bodies, so routes skip Fastify's body check.
import type { FastifyInstance } from 'fastify';
import { route, type Handler } from '../shared/routes.ts';
import { DomainError } from '../../platform/errors.ts';

export const ok = <T>(message: string, result: T) => ({ messageCode: 'OK' as const, message, result });
/** A v2 search that finds nothing: HTTP 200, since v2 clients read messageCode to tell a new record from an existing one. */
export const notFound = (message: string) => ({ messageCode: 'NOK' as const, message, result: null });

/**
 * Registers a v2 operation. The domain answers v3 catalogue codes (404-1, 409-1, 422...); a v2 integration gets
 * the same problems as a NOK envelope with HTTP 400, except a missing resource: with keepNotFound it stays the v2 404
 * body, with notFound (the searches by key) it is the 200 NOK envelope with that message.
 */
export function v2Route<Body = Record<string, unknown>>(
  app: FastifyInstance,
  operationId: string,
  handler: Handler<Body>,
  opts: { keepNotFound?: boolean; notFound?: string } = {},
) {
  route<Body>(
    app,
    operationId,
    async (request, reply) => {
      try {
        return await handler(request, reply);
      } catch (error) {
        if (opts.notFound && error instanceof DomainError && error.status === 404) return notFound(opts.notFound);
        if (!(error instanceof DomainError) || error.status === 401 || (opts.keepNotFound && error.status === 404)) throw error;
        throw new DomainError(
          error.items.map((item) => ({ ...item, code: '400' })),
          { result: error.result },
        );
      }
    },
    { bodySchema: false },
  );
}
