// Token, status and settings: the calls v3 and v2 share, all answering in the v2 style.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { v2Messages, type TokenRequest } from '@shopapi/contract';
import { route } from '../http/routes.ts';
import { apiError } from '../http/errors.ts';
import { issueToken } from '../domain/clients/tokens.ts';
import { settingsOf } from '../domain/reference/service.ts';
import type { AppContext } from '../app.ts';

export function authRoutes(app: FastifyInstance, { db, config }: AppContext) {
  route<Static<typeof TokenRequest>>(app, 'requestToken', async (request) => {
    const { grant_type: grantType, username, password } = request.body;
    if (grantType && grantType !== 'password') throw apiError('400', 'The grant type must be password.');
    const token = await issueToken(db, username, password, config.tokenLifetimeSeconds);
    if (!token) throw apiError('400', 'The user name or password is incorrect.');
    return token;
  });

  const status = async () => ({ messageCode: 'OK', message: v2Messages.status, result: null });
  route(app, 'getStatus', status);
  route(app, 'getStatusV2', status);

  route(app, 'getSettings', async (request) => ({ messageCode: 'OK', message: v2Messages.settings, result: await settingsOf(db, request.client.id) }));
}
