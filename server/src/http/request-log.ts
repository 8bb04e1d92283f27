// Every API call gets a Request-Id and a list of warnings (what the server did beyond what was asked); both come back in
// headers, and each client's calls are kept in its request log.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Warnings } from '../platform/request-warnings.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Notes for the client about this request: Sandbox-Warning headers and the request log. */
    warnings: Warnings;
  }
}

export const requestLogPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('warnings', null as unknown as Warnings);
  app.addHook('onRequest', async (request) => {
    request.warnings = new Warnings();
  });
});
