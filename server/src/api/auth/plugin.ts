// POST /token, /status and /settings: the calls v3 and v2 share, each part an encapsulated plugin with its own format.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { errorHandlerOf, renderTokenError } from '../shared/errors.ts';
import type { AppContext } from '../shared/context.ts';
import { envelopeConventions } from '../shared/envelope-conventions.ts';
import { statusRoutes, tokenRoutes } from './routes.ts';

async function authApi(app: FastifyInstance, context: AppContext) {
  await app.register(async (token) => {
    token.decorate('api', { name: 'token', mediaType: 'application/json' });
    token.setErrorHandler(errorHandlerOf(renderTokenError));
    tokenRoutes(token, context);
  });
  // Status and settings have always answered as v2 calls do (the envelope, lenient query strings).
  await app.register(async (status) => {
    await status.register(envelopeConventions);
    statusRoutes(status, context);
  });
}

export const authApiPlugin = fp(authApi, {
  name: 'shopapi-auth-api',
  fastify: '5.x',
  encapsulate: true,
  dependencies: [
    'shopapi-request-log',
    'shopapi-bearer-auth',
    'shopapi-rate-limit',
    'shopapi-input-guard',
    'shopapi-form-body',
    'shopapi-jsonapi',
  ],
});
