// Token, status and settings: the calls v3 and v2 share. /token answers errors OAuth-style, the others in the v2 style.
import type { FastifyInstance } from 'fastify';
import { readinessMessages, tokenErrors, v2Messages } from '@shopapi/contract';
import { route } from '../shared/routes.ts';
import { tokenThrottle } from './token-throttle.ts';
import { issueToken } from '../../modules/clients/tokens.ts';
import { settingsOf } from '../../modules/reference/settings.ts';
import { ping } from '../../platform/db/index.ts';
import type { AppContext } from '../shared/context.ts';
import { DomainError } from '../../platform/errors.ts';

/** Below the usual probe timeout (Kubernetes: 1 s default, nginx/HAProxy checks: a few seconds). */
const readinessTimeoutMs = 900;

export function tokenRoutes(app: FastifyInstance, { db, config }: AppContext) {
  const throttle = tokenThrottle(db, {
    windowSeconds: config.tokenThrottleWindowSeconds,
    perUsernameAndAddress: config.tokenFailuresPerUsernameAndAddress,
    perAddress: config.tokenFailuresPerAddress,
    perUsername: config.tokenFailuresPerUsername,
  });
  route(app, 'requestToken', async (request, reply) => {
    const { grant_type: grantType, username, password } = request.body;
    if (grantType && grantType !== 'password')
      throw new DomainError(
        { code: '400', detail: tokenErrors.unsupportedGrantType.error_description },
        { result: tokenErrors.unsupportedGrantType },
      );
    // Checked before the password hash: an attempt over a limit costs no hashing.
    const attempt = await throttle.reserve(username, request.ip);
    if (!attempt.allowed) {
      reply.header('retry-after', attempt.retryAfterSeconds);
      const detail = `Too many failed attempts to sign in; try again in ${attempt.retryAfterSeconds} seconds.`;
      throw new DomainError({ code: '429', detail }, { result: tokenErrors.invalidRequest(detail) });
    }
    // An error in the check ends the attempt as a failure, so its place is not held until the window ends.
    const issued = await issueToken(db, username, password, config.tokenLifetimeSeconds).catch(async (error: unknown) => {
      await attempt.settle(false);
      throw error;
    });
    await attempt.settle(issued !== undefined);
    if (!issued)
      throw new DomainError({ code: '400', detail: tokenErrors.invalidGrant.error_description }, { result: tokenErrors.invalidGrant });
    // The client now known, the call goes into its request log (with the password and the token redacted).
    request.client = issued.client;
    return issued.token;
  });
}

export function statusRoutes(app: FastifyInstance, { db }: AppContext) {
  const status = async () => ({ messageCode: 'OK', message: v2Messages.status, result: null });
  route(app, 'getStatus', status);
  route(app, 'getStatusV2', status);

  route(app, 'getReadiness', async (_request, reply) => {
    // A database that hangs must fail the probe in time, not hold it open until the prober gives up.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), readinessTimeoutMs);
    });
    try {
      await Promise.race([ping(db), timeout]);
      return { messageCode: 'OK', message: readinessMessages.ready, result: null };
    } catch {
      reply.code(503);
      return { messageCode: 'NOK', message: readinessMessages.notReady, result: null };
    } finally {
      clearTimeout(timer);
    }
  });

  route(app, 'getSettings', async (request) => ({
    messageCode: 'OK',
    message: v2Messages.settings,
    result: await settingsOf(db, request.client.id),
  }));
}
