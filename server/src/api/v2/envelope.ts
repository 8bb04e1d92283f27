// The v2 answer shapes and route registration: bodies are validated from the contract's schemas once the v2-body plugin
// has brought them to the contract's names and types.
import type { FastifyInstance } from 'fastify';
import type { OperationId } from '@shopapi/contract';
import { route, type FromContract, type Handler } from '../shared/routes.ts';
import { DomainError } from '../../platform/errors.ts';
import { inV2Words } from './wording.ts';

export const ok = <T>(message: string, result: T) => ({ messageCode: 'OK' as const, message, result });
/** A v2 search that finds nothing: HTTP 200, since v2 clients read messageCode to tell a new record from an existing one. */
export const notFound = (message: string) => ({ messageCode: 'NOK' as const, message, result: null });

/**
 * Registers a v2 operation. The domain answers v3 catalogue codes (404-1, 409-1, 422...); a v2 integration gets
 * the same problems as a NOK envelope with HTTP 400, except a missing resource: with keepNotFound it stays the v2 404
 * body, with notFound (the searches by key) it is the 200 NOK envelope with that message.
 */
export function v2Route<Id extends OperationId, Body = FromContract>(
  app: FastifyInstance,
  operationId: Id,
  handler: Handler<Id, Body>,
  opts: { keepNotFound?: boolean; notFound?: string } = {},
) {
  route<Id, Body>(app, operationId, async (request, reply) => {
    try {
      return await handler(request, reply);
    } catch (thrown) {
      const error = inV2Words(thrown);
      if (opts.notFound && error instanceof DomainError && error.status === 404) return notFound(opts.notFound);
      if (!(error instanceof DomainError) || error.status === 401 || (opts.keepNotFound && error.status === 404)) throw error;
      throw new DomainError(
        error.items.map((item) => ({ ...item, code: '400' })),
        { result: error.result },
      );
    }
  });
}
