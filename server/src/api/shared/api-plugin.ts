// How an API plugin (v3, v2, sandbox, auth) is made: encapsulated, named, and declaring the root plugins its routes rely
// on, so Fastify checks at boot that app.ts registered them first.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';

/** What every API's routes rely on: the request log, bearer auth, the rate limit and the input guard. */
const everyApiNeeds = ['shopapi-request-log', 'shopapi-bearer-auth', 'shopapi-rate-limit', 'shopapi-input-guard'];

/** An API plugin named `name` that needs, besides what every API needs, the plugins in `needs`. */
export function apiPlugin(name: string, needs: string[], routes: (app: FastifyInstance, context: AppContext) => Promise<void>) {
  return fp(routes, { name, fastify: '5.x', encapsulate: true, dependencies: [...everyApiNeeds, ...needs] });
}
