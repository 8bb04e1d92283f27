// JSON:API conventions of v3 and /sandbox: media type negotiation (415, 406) and the errors list; and the fallback for
// requests no API plugin owns (unknown paths), which answer in the format their path suggests.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCatalogue, JSON_API_MEDIA_TYPE, operationById } from '@shopapi/contract';
import { errorHandlerOf, fallbackErrorHandlerOf, renderEnvelope, sendProblems, type ErrorRenderer } from './errors.ts';
import { DomainError, type Problem } from '../../platform/errors.ts';
import { errorSource } from '../shared/problem-pointers.ts';

/** Which API a route belongs to: its plugin says so (the request log records it). */
export type ApiName = 'v3' | 'sandbox' | 'v2' | 'token';

/** What an API plugin tells the routes declared in it. */
export interface ApiConventions {
  name: ApiName;
  /** The content type of its answers. */
  mediaType: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    api?: ApiName;
    auth?: boolean;
    operationId?: string;
    rateLimit?: string;
  }
  interface FastifyInstance {
    /** Set by each API plugin for its own routes. */
    api: ApiConventions;
  }
}

function mediaTypeParams(header: string): { type: string; hasParams: boolean } {
  const [type, ...params] = header.split(';');
  return { type: type.trim().toLowerCase(), hasParams: params.some((p) => p.trim() !== '') };
}

/** Accept is usable when it allows plain JSON:API, JSON, or anything. */
function acceptable(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(',').some((range) => {
    const { type, hasParams } = mediaTypeParams(range.replace(/;\s*q=[0-9.]+/i, ''));
    if (type === JSON_API_MEDIA_TYPE) return !hasParams;
    return type === 'application/json' || type === 'application/*' || type === '*/*';
  });
}

const bodyTypes: ReadonlySet<string> = new Set([JSON_API_MEDIA_TYPE, 'application/json']);

/** The body content types the route's operation declares (multipart, images; `image/*` covers every image type); empty for JSON:API documents. */
function declaredBodyTypes(request: FastifyRequest): string[] {
  const operationId = request.routeOptions.config?.operationId;
  return operationId ? (operationById(operationId).bodyContentTypes ?? []) : [];
}

const matchesType = (declared: string, type: string) =>
  declared === type || (declared.endsWith('/*') && type.startsWith(declared.slice(0, -1)));

const problem = (code: Problem['code'], detail: string) => new DomainError({ code, detail });

/** Refuses (406, 415) a request whose Accept or Content-Type JSON:API does not allow. */
async function negotiate(request: FastifyRequest) {
  if (!acceptable(request.headers.accept)) throw problem('406', `Accept must allow ${JSON_API_MEDIA_TYPE} without media type parameters.`);
  const contentType = request.headers['content-type'];
  if (!contentType || request.method === 'GET' || request.method === 'DELETE') return;
  const { type, hasParams } = mediaTypeParams(contentType);
  const declared = declaredBodyTypes(request);
  if (declared.length) {
    if (declared.some((d) => matchesType(d, type))) return;
    throw problem('415', `Content-Type must be ${declared.join(' or ')}.`);
  }
  if (!bodyTypes.has(type) || (type === JSON_API_MEDIA_TYPE && hasParams))
    throw problem('415', `Content-Type must be ${JSON_API_MEDIA_TYPE} without media type parameters.`);
}

export const renderV3: ErrorRenderer = (reply, status, items) => {
  const errors = items.map((i) => ({
    code: i.code,
    title: errorCatalogue[i.code].title,
    detail: i.detail,
    status: String(errorCatalogue[i.code].status),
    ...errorSource(i),
    ...(i.related ? { links: { related: i.related } } : {}),
  }));
  return reply
    .code(status)
    .type(JSON_API_MEDIA_TYPE)
    .serializer(JSON.stringify)
    .send({ errors, meta: { requestId: reply.request.id } });
};

/** Makes the plugin `app` a JSON:API one (v3, /sandbox): its routes negotiate and answer errors as JSON:API errors. */
export function useJsonApi(app: FastifyInstance, name: 'v3' | 'sandbox') {
  app.decorate('api', { name, mediaType: JSON_API_MEDIA_TYPE });
  app.setErrorHandler(errorHandlerOf(renderV3));
  app.addHook('onRequest', negotiate);
}

/**
 * The one place the format is read from the path: for requests that no API plugin owns, so an unknown /v3 or
 * /sandbox path answers as JSON:API and any other as v2 does (the portal's pages have their own 404 page).
 */
const ownedByNoApi = (request: FastifyRequest) => request.routeOptions.config?.api === undefined;
const isJsonApiPath = (url: string) => /^\/(v3|sandbox)\//i.test(url);
const fallbackRenderer = (request: FastifyRequest): ErrorRenderer => (isJsonApiPath(request.url) ? renderV3 : renderEnvelope);

/** An error answer for a request no API plugin owns (the not-found handler, the Host check). */
export const sendFallbackError = (request: FastifyRequest, reply: FastifyReply, status: number, items: Problem[]) =>
  sendProblems(fallbackRenderer(request), reply, status, items);

/**
 * Registered once on the root: the JSON:API body parser (v2 and /token read such bodies as JSON too), the media type
 * without parameters on every JSON:API answer, and the fallback error handling and negotiation for requests no API
 * plugin owns, which Fastify handles in the root context (unknown paths, errors before a route is known).
 */
export const jsonApiPlugin = fp(
  async (app: FastifyInstance) => {
    app.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

    app.addHook('onRequest', async (request) => {
      if (ownedByNoApi(request) && isJsonApiPath(request.url)) await negotiate(request);
    });

    // Fastify appends "; charset=utf-8" to JSON-like types; JSON:API answers carry the media type without parameters.
    app.addHook('onSend', async (_request, reply) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith(JSON_API_MEDIA_TYPE)) reply.header('content-type', JSON_API_MEDIA_TYPE);
    });

    app.setErrorHandler(fallbackErrorHandlerOf(fallbackRenderer));
  },
  { name: 'shopapi-jsonapi', fastify: '5.x' },
);
