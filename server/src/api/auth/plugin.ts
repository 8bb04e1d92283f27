// POST /token, /status and /settings: the calls v3 and v2 share, each part an encapsulated plugin with its own format.
import type { FastifyInstance } from 'fastify';
import { errorHandlerOf, renderTokenError } from '../shared/errors.ts';
import type { AppContext } from '../shared/context.ts';
import { apiPlugin } from '../shared/api-plugin.ts';
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

export const authApiPlugin = apiPlugin('shopapi-auth-api', ['shopapi-form-body', 'shopapi-jsonapi'], authApi);
