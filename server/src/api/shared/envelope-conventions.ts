// The conventions of a v2-style call, shared by the plugins that answer that way: api/v2 and /status, /settings (api/auth).
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { errorHandlerOf, renderEnvelope } from './errors.ts';
import { lenientBodyPlugin, lenientBodyRefusal } from './lenient-body.ts';

/**
 * Registered by a plugin whose routes answer as v2 calls always did: answers in application/json, errors in the NOK
 * envelope, bodies and query strings read leniently.
 */
export const envelopeConventions = fp(
  async (app: FastifyInstance) => {
    app.decorate('api', { name: 'v2', mediaType: 'application/json' });
    const envelope = errorHandlerOf(renderEnvelope);
    app.setErrorHandler(
      (error: FastifyError, request, reply) => lenientBodyRefusal(error, request, reply) ?? envelope(error, request, reply),
    );
    await app.register(lenientBodyPlugin);
  },
  { name: 'shopapi-envelope-conventions', fastify: '5.x' },
);
