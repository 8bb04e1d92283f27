// Error answers: each API plugin sets errorHandlerOf(its renderer) as its error handler, so a platform/errors.ts
// DomainError thrown by a service or a hook, and Fastify's own errors (validation, parsing), answer in that API's format.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorCatalogue, limits, tokenErrors, v2Messages, type ErrorCode } from '@shopapi/contract';
import { validationItems } from './validation.ts';
import { isForeignKeyViolation } from '../../platform/db/index.ts';
import { DomainError, type Problem } from '../../platform/errors.ts';
import { inApiWords } from './refusals.ts';

/** At most `limits.errorsMax` problems: the first ones, and a last entry that says how many more were found. */
export function capProblems<T>(problems: T[], more: (count: number) => T): T[] {
  if (problems.length <= limits.errorsMax) return problems;
  const shown = problems.slice(0, limits.errorsMax - 1);
  return [...shown, more(problems.length - shown.length)];
}

export const moreProblems = (count: number) => `${count} more problems were found and are not listed; correct these and send again.`;

/** Writes an error answer in one API's format: the problems (capped already) and what the refusal carries besides. */
export type ErrorRenderer = (reply: FastifyReply, status: number, items: Problem[], result: unknown) => FastifyReply;

/** Sends the problems in the renderer's format; a body with thousands of broken fields answers with the first of them. */
export function sendProblems(render: ErrorRenderer, reply: FastifyReply, status: number, all: Problem[], result: unknown = null) {
  const items = capProblems(all, (count): Problem => ({ code: all[0].code, detail: moreProblems(count) }));
  return render(reply, status, items, result);
}

function renderEnvelopeBody(reply: FastifyReply, status: number, message: string, result: unknown) {
  if (status === 401) return reply.code(401).type('application/json').serializer(JSON.stringify).send({ message: v2Messages.unauthorized });
  if (status === 404)
    return reply
      .code(404)
      .type('application/json')
      .serializer(JSON.stringify)
      .send({ error: '404 Not Found', error_description: 'The requested resource could not be found' });
  return reply.code(status).type('application/json').serializer(JSON.stringify).send({ messageCode: 'NOK', message, result });
}

/** v2 (and /status, /settings): the NOK envelope; v2 clients get the documented malformed-content answer for a 415. */
export const renderEnvelope: ErrorRenderer = (reply, status, items, result) =>
  status === 415
    ? renderEnvelopeBody(reply, 400, v2Messages.malformed, result)
    : renderEnvelopeBody(reply, status, items.map((i) => i.detail).join(' '), result);

/** POST /token answers every problem with 400 and an OAuth 2.0 error body; throttled attempts with 429. */
export const renderTokenError: ErrorRenderer = (reply, status, items, result) =>
  reply
    .code(status === 429 ? 429 : 400)
    .type('application/json')
    .serializer(JSON.stringify)
    .send(result ?? tokenErrors.invalidRequest(items.map((i) => i.detail).join(' ')));

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

function handle(render: ErrorRenderer, error: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DomainError) return sendProblems(render, reply, error.status, inApiWords(error), error.result);
  const { status, items } = fastifyErrorItems(error);
  if (status >= 500) request.log.error({ err: error }, 'unhandled error');
  return sendProblems(render, reply, status, items);
}

/** The error handler of an API plugin: every error of its routes (and of the hooks before them) in its format. */
export const errorHandlerOf =
  (render: ErrorRenderer) => (error: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) =>
    handle(render, error, request, reply);

/** For requests no API plugin owns (unknown paths, errors before routing): the format is chosen by the request. */
export const fallbackErrorHandlerOf =
  (renderFor: (request: FastifyRequest) => ErrorRenderer) =>
  (error: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) =>
    handle(renderFor(request), error, request, reply);
