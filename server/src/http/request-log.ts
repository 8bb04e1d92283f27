// Every API call gets a Request-Id and a list of warnings (what the server did beyond what was asked); both come back in
// headers, and each client's calls are kept in its request log.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Warnings, type RequestWarning } from '../platform/request-warnings.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Notes for the client about this request: Sandbox-Warning headers and the request log. */
    warnings: Warnings;
  }
}

/** Header lines an answer carries at most; the request log keeps every warning. */
export const warningHeadersMax = 10;
const headerTextMax = 300;

/** One warning as a header value: "coerced /orderItems/0/vat: …", on one line of printable ASCII. */
export function warningHeader(warning: RequestWarning): string {
  const text = `${warning.kind}${warning.source ? ` ${warning.source}` : ''}: ${warning.detail}`;
  const ascii = text.replace(/[^\x20-\x7e]/g, '?');
  return ascii.length > headerTextMax ? `${ascii.slice(0, headerTextMax - 3)}...` : ascii;
}

export function warningHeaders(warnings: Warnings, requestId: string): string[] {
  const lines = warnings.list.slice(0, warningHeadersMax).map(warningHeader);
  const more = warnings.list.length - lines.length + warnings.dropped;
  if (more > 0) lines.push(`more: ${more} further warnings; see GET /sandbox/requests/${requestId}`);
  return lines;
}

export const requestLogPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('warnings', null as unknown as Warnings);
  app.addHook('onRequest', async (request) => {
    request.warnings = new Warnings();
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.warnings.list.length) reply.header('sandbox-warning', warningHeaders(request.warnings, request.id));
  });
});
