// JSON:API conventions for v3: media type negotiation (415, 406), and one renderer for every error, v3 or v2.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCatalogue, JSON_API_MEDIA_TYPE, operationById, tokenErrors, v2Messages, type ErrorCode } from '@shopapi/contract';
import { capProblems, moreProblems } from './errors.ts';
import { validationItems } from './validation.ts';
import { isForeignKeyViolation } from '../../platform/db/index.ts';
import { DomainError, type Problem } from '../../platform/errors.ts';

export type ApiKind = 'v3' | 'v2' | 'token';

declare module 'fastify' {
  interface FastifyContextConfig {
    api?: ApiKind;
    auth?: boolean;
    operationId?: string;
    rateLimit?: string;
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

const bodyTypes = new Set([JSON_API_MEDIA_TYPE, 'application/json']);

/** Operations with a raw body (the product image) declare their own content types; `image/*` covers every image type. */
/** The body content types the route's operation declares (multipart, images); empty for JSON:API documents. */
function declaredBodyTypes(request: FastifyRequest): string[] {
  const operationId = request.routeOptions.config?.operationId;
  return operationId ? (operationById(operationId).bodyContentTypes ?? []) : [];
}

const matchesType = (declared: string, type: string) =>
  declared === type || (declared.endsWith('/*') && type.startsWith(declared.slice(0, -1)));

export function apiKindOf(request: FastifyRequest): ApiKind {
  const configured = request.routeOptions.config?.api;
  if (configured) return configured;
  const path = request.url.toLowerCase();
  return path.startsWith('/v3/') || path.startsWith('/sandbox/') ? 'v3' : 'v2';
}

function renderV3(reply: FastifyReply, status: number, items: Problem[]) {
  const errors = items.map((i) => ({
    code: i.code,
    title: errorCatalogue[i.code].title,
    detail: i.detail,
    status: String(errorCatalogue[i.code].status),
    ...(i.pointer || i.parameter ? { source: i.pointer ? { pointer: i.pointer } : { parameter: i.parameter } } : {}),
    ...(i.related ? { links: { related: i.related } } : {}),
  }));
  return reply
    .code(status)
    .type(JSON_API_MEDIA_TYPE)
    .serializer(JSON.stringify)
    .send({ errors, meta: { requestId: reply.request.id } });
}

function renderV2(reply: FastifyReply, status: number, message: string, result: unknown) {
  if (status === 401) return reply.code(401).type('application/json').serializer(JSON.stringify).send({ message: v2Messages.unauthorized });
  if (status === 404)
    return reply
      .code(404)
      .type('application/json')
      .serializer(JSON.stringify)
      .send({ error: '404 Not Found', error_description: 'The requested resource could not be found' });
  return reply.code(status).type('application/json').serializer(JSON.stringify).send({ messageCode: 'NOK', message, result });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, all: Problem[], result: unknown = null) {
  const kind = apiKindOf(request);
  // A body with thousands of broken fields answers with the first of them, not with megabytes of errors.
  const items = capProblems(all, (count): Problem => ({ code: all[0].code, detail: moreProblems(count) }));
  if (kind === 'v3') return renderV3(reply, status, items);
  // The token endpoint answers every problem with 400 and an OAuth 2.0 error body; throttled attempts with 429.
  if (kind === 'token')
    return reply
      .code(status === 429 ? 429 : 400)
      .type('application/json')
      .serializer(JSON.stringify)
      .send(result ?? tokenErrors.invalidRequest(items.map((i) => i.detail).join(' ')));
  // v2 clients get the documented malformed-content answer for a body in a type the API does not read.
  if (status === 415) return renderV2(reply, 400, v2Messages.malformed, result);
  return renderV2(reply, status, items.map((i) => i.detail).join(' '), result);
}

function fastifyErrorItems(error: FastifyError): { status: number; items: Problem[] } {
  if (error.validation) {
    const context = error.validationContext ?? 'body';
    if (context === 'params') return { status: 404, items: [{ code: '404', detail: 'No resource with this id.' }] };
    return { status: 400, items: validationItems(error.validation as never, context) };
  }
  // Only a race can get here (the services check references first): a settings entry removed while this request wrote.
  if (isForeignKeyViolation(error))
    return {
      status: 409,
      items: [
        {
          code: '409',
          detail:
            'A setting this request refers to was changed by another request at the same moment; read your settings and send it again.',
        },
      ],
    };
  const status = error.statusCode ?? 500;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
    return { status: 400, items: [{ code: '400', detail: 'The request body is larger than allowed.' }] };
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415)
    return { status: 415, items: [{ code: '415', detail: 'Unsupported media type.' }] };
  if (status >= 400 && status < 500) {
    const code = (status in errorCatalogue ? String(status) : '400') as ErrorCode;
    return {
      status: errorCatalogue[code].status,
      items: [{ code, detail: error.message.replace(/^FST_\w+: /, '') || errorCatalogue[code].title }],
    };
  }
  return {
    status: 500,
    items: [
      { code: '500', detail: 'Something went wrong on our side. Quote the Request-Id header (also in meta.requestId) when you report it.' },
    ],
  };
}

export const jsonApiPlugin = fp(async (app: FastifyInstance) => {
  app.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.addHook('onRequest', async (request, reply) => {
    if (apiKindOf(request) !== 'v3') return;
    if (!acceptable(request.headers.accept)) {
      return sendError(request, reply, 406, [
        { code: '406', detail: `Accept must allow ${JSON_API_MEDIA_TYPE} without media type parameters.` },
      ]);
    }
    const contentType = request.headers['content-type'];
    if (contentType && request.method !== 'GET' && request.method !== 'DELETE') {
      const { type, hasParams } = mediaTypeParams(contentType);
      const declared = declaredBodyTypes(request);
      if (declared.length) {
        if (declared.some((d) => matchesType(d, type))) return;
        return sendError(request, reply, 415, [{ code: '415', detail: `Content-Type must be ${declared.join(' or ')}.` }]);
      }
      if (!bodyTypes.has(type) || (type === JSON_API_MEDIA_TYPE && hasParams)) {
        return sendError(request, reply, 415, [
          { code: '415', detail: `Content-Type must be ${JSON_API_MEDIA_TYPE} without media type parameters.` },
        ]);
      }
    }
  });

  // Fastify appends "; charset=utf-8" to JSON-like types; JSON:API answers carry the media type without parameters.
  app.addHook('onSend', async (_request, reply) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith(JSON_API_MEDIA_TYPE)) reply.header('content-type', JSON_API_MEDIA_TYPE);
  });

  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError)
      return sendError(request, reply, error.status, error.items, error instanceof DomainError ? error.result : null);
    const { status, items } = fastifyErrorItems(error as FastifyError);
    if (status >= 500) request.log.error({ err: error }, 'unhandled error');
    return sendError(request, reply, status, items);
  });
});
