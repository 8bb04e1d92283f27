// Form bodies (application/x-www-form-urlencoded), which v2 clients and POST /token send, parsed with qs.
//
// qs rather than @fastify/formbody plus our own nesting: PHP-style keys (OrderItems[0][Sku], OrderItems[0].Sku, ids[])
// must become nested objects, and a hand-written nesting walked into Object.prototype (`__proto__[x]=1`) and built
// sparse arrays of millions of slots from one index (`Ids[2000000]=1`). qs drops keys that would shadow
// Object.prototype, keeps arrays dense, and throws (never truncates) past the limits below.
import fp from 'fastify-plugin';
import qs from 'qs';
import type { FastifyInstance } from 'fastify';
import { limits } from '@shopapi/contract';

/** Why a form body was refused; the v2 body hook answers it in the v2 envelope. */
export class FormBodyError extends Error {
  readonly statusCode = 400;
}

const options: qs.IParseOptions = {
  allowDots: true,
  // Prototype keys (__proto__, constructor, toString...) are dropped, and objects keep their prototype-safe shape.
  allowPrototypes: false,
  // An index beyond the longest list any body may hold is refused at once instead of building a huge array.
  arrayLimit: limits.formArrayIndexMax,
  depth: limits.formDepthMax,
  strictDepth: true,
  // A 1 MiB body can hold tens of thousands of fields: refuse beyond the limit rather than silently drop the rest.
  parameterLimit: limits.formFieldsMax,
  throwOnLimitExceeded: true,
  // ids=1&ids=2 is the list [1, 2].
  duplicates: 'combine',
};

export function parseForm(text: string): Record<string, unknown> {
  try {
    return qs.parse(text, options);
  } catch (error) {
    throw new FormBodyError(`The form body could not be read: ${(error as Error).message}`);
  }
}

export const formBodyPlugin = fp(
  async (app: FastifyInstance) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (error) {
        done(error as FormBodyError, undefined);
      }
    });
  },
  { name: 'shopapi-form-body', fastify: '5.x' },
);
