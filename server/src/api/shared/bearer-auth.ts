// Bearer-token authentication for every route whose operation needs it; sets request.client. A refusal answers in the
// format of the route's API (its plugin's error handler).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../../modules/clients/tokens.ts';
import type { Client } from '../../modules/clients/client.ts';
import type { TokenCache } from '../../modules/clients/token-cache.ts';
import type { Db } from '../../platform/db/index.ts';
import { domainError } from '../../platform/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    client: Client;
  }
  interface FastifyContextConfig {
    /**
     * The route reads nothing of request.client but its identity (its clock offset it reads from the database itself),
     * so the client may come from the token cache: no database round trip for a token checked in the last few seconds.
     */
    cachedClient?: boolean;
  }
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; tokenCache: TokenCache }) => {
    app.decorateRequest('client', null as unknown as Client);
    app.addHook('onRequest', async (request, reply) => {
      if (!request.routeOptions.config?.auth) return;
      const header = request.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      const client = match
        ? await authenticate(opts.db, opts.tokenCache, match[1], { cached: request.routeOptions.config.cachedClient })
        : undefined;
      if (!client) {
        reply.header('www-authenticate', 'Bearer');
        throw domainError('401', 'The token is missing, invalid, expired or revoked. Request a new token at POST /token.');
      }
      request.client = client;
    });
  },
  { name: 'shopapi-bearer-auth', fastify: '5.x' },
);
