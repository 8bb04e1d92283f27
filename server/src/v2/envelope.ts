// The v2 answer shapes and route registration: the v2-body plugin validates v2 bodies, so routes skip Fastify's body check.
import type { FastifyInstance } from 'fastify';
import { route, type Handler } from '../http/routes.ts';
import { ApiError } from '../http/errors.ts';

export const ok = <T>(message: string, result: T) => ({ messageCode: 'OK' as const, message, result });

/**
 * Registers a v2 operation. The domain answers v3 catalogue codes (404-1, 409-1, 422...); a v2 integration gets
 * the same problems as a NOK envelope with HTTP 400, except a missing path resource, which stays the v2 404 body.
 */
export function v2Route<Body = Record<string, unknown>>(app: FastifyInstance, operationId: string, handler: Handler<Body>, opts: { keepNotFound?: boolean } = {}) {
  route<Body>(app, operationId, async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 401 || (opts.keepNotFound && error.status === 404)) throw error;
      throw new ApiError(error.items.map((item) => ({ ...item, code: '400' })), { v2Result: error.v2Result });
    }
  }, { bodySchema: false });
}
