// Request values PostgreSQL and the handlers cannot take, refused with a clear 400 before they reach a query:
// NUL characters and lone UTF-16 surrogates, in values and in keys (PostgreSQL text and jsonb cannot hold them; they
// would fail deep in the driver as a 500, or be silently replaced), numbers JSON can spell but a double cannot hold
// (1e999 parses as Infinity), and documents nested deeper than any real request (recursive code further on must not
// run out of stack).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { domainError } from '../../platform/errors.ts';

const MAX_DEPTH = 32;

type Problem = { kind: 'nul' | 'surrogate' | 'number' | 'depth'; pointer: string; inKey?: boolean };

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string): Problem['kind'] | undefined {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return undefined;
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Walks the value without recursion; the first problem found, or undefined. */
export function inspect(root: unknown): Problem | undefined {
  const stack: [unknown, string, number][] = [[root, '', 0]];
  while (stack.length) {
    const [value, pointer, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const kind = textProblem(value);
      if (kind) return { kind, pointer: pointer || '/' };
      continue;
    }
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { kind: 'number', pointer: pointer || '/' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    if (depth >= MAX_DEPTH) return { kind: 'depth', pointer: pointer || '/' };
    for (const [key, child] of Object.entries(value)) {
      const kind = textProblem(key);
      // The key itself cannot be spelt back safely: the pointer names its parent.
      if (kind) return { kind, pointer: pointer || '/', inKey: true };
      stack.push([child, `${pointer}/${escapePointer(key)}`, depth + 1]);
    }
  }
  return undefined;
}

const details: Record<Problem['kind'], (part: string) => string> = {
  nul: () => 'Text must not contain NUL characters.',
  surrogate: () => 'Text must be valid Unicode: a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape) cannot be stored.',
  number: () => 'Numbers must be finite: this one is too large for a double.',
  depth: (part) => `The ${part} is nested more than ${MAX_DEPTH} levels deep.`,
};

/** Throws the 400 for the first problem of a request part (also for documents read from a multipart part). */
export function assertCleanInput(value: unknown, part: 'query' | 'path' | 'body'): void {
  const problem = inspect(value);
  if (!problem) return;
  const detail = `${details[problem.kind](part)}${problem.inKey ? ' (in a member name)' : ''}`;
  throw domainError('400', detail, part === 'body' ? { pointer: problem.pointer } : { parameter: problem.pointer.slice(1) });
}

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      assertCleanInput(request.query, 'query');
      assertCleanInput(request.params, 'path');
      assertCleanInput(request.body, 'body');
    });
  },
  { name: 'shopapi-input-guard', fastify: '5.x' },
);
