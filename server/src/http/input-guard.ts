// Request values PostgreSQL and the handlers cannot take, refused with a clear 400 before they reach a query:
// NUL characters (PostgreSQL text cannot hold them; they would fail deep in the driver as a 500) and
// documents nested deeper than any real request (recursive code further on must not run out of stack).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { apiError } from './errors.ts';

const MAX_DEPTH = 32;

type Problem = { kind: 'nul' | 'depth'; pointer: string };

/** Walks the value without recursion; the first problem found, or undefined. */
function inspect(root: unknown): Problem | undefined {
  const stack: [unknown, string, number][] = [[root, '', 0]];
  while (stack.length) {
    const [value, pointer, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { kind: 'nul', pointer: pointer || '/' };
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    if (depth >= MAX_DEPTH) return { kind: 'depth', pointer: pointer || '/' };
    for (const [key, child] of Object.entries(value)) {
      stack.push([child, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1]);
    }
  }
  return undefined;
}

export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [['query', request.query], ['path', request.params], ['body', request.body]] as const) {
      const problem = inspect(value);
      if (!problem) continue;
      const detail = problem.kind === 'nul' ? 'Text must not contain NUL characters.' : `The ${part} is nested more than ${MAX_DEPTH} levels deep.`;
      throw apiError('400', detail, part === 'body' ? { pointer: problem.pointer } : { parameter: problem.pointer.slice(1) });
    }
  });
});
