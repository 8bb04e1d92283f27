// Token, status and settings: the calls v3 and v2 share, all answering in the v2 style.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import { tokenErrors, v2Messages, type TokenRequest } from '@shopapi/contract';
import { route } from '../http/routes.ts';
import { ApiError } from '../http/errors.ts';
import { issueToken } from '../domain/clients/tokens.ts';
import { settingsOf } from '../domain/reference/service.ts';
import type { AppContext } from '../app.ts';

export function authRoutes(app: FastifyInstance, { db, config }: AppContext) {
  route<Static<typeof TokenRequest>>(app, 'requestToken', async (request) => {
    const { grant_type: grantType, username, password } = request.body;
    if (grantType && grantType !== 'password') throw new ApiError({ code: '400', detail: tokenErrors.unsupportedGrantType.error_description }, { v2Result: tokenErrors.unsupportedGrantType });
    const token = await issueToken(db, username, password, config.tokenLifetimeSeconds);
    if (!token) throw new ApiError({ code: '400', detail: tokenErrors.invalidGrant.error_description }, { v2Result: tokenErrors.invalidGrant });
    return token;
  });

  const status = async () => ({ messageCode: 'OK', message: v2Messages.status, result: null });
  route(app, 'getStatus', status);
  route(app, 'getStatusV2', status);

  route(app, 'getSettings', async (request) => ({ messageCode: 'OK', message: v2Messages.settings, result: await settingsOf(db, request.client.id) }));
}
