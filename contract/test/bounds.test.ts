// Everything a request can carry has a bound in the contract: every list a maxItems, every text a maxLength,
// every free-form map a maxProperties. The server validates with these schemas before any handler runs, so an
// operation added without a bound fails here, not in production.
import { describe, expect, it } from 'vitest';
import { operations } from '../src/index.ts';

type Node = Record<string, unknown> & { type?: string | string[] };

function unbounded(node: unknown, path: string, out: string[], seen = new Set<unknown>()): string[] {
  if (!node || typeof node !== 'object' || seen.has(node)) return out;
  seen.add(node);
  const schema = node as Node;
  const types = ([] as string[]).concat(schema.type ?? []);
  if (types.includes('array') && schema.maxItems === undefined) out.push(`${path}: a list without maxItems`);
  if (types.includes('string') && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined)
    out.push(`${path}: text without maxLength`);
  if (schema.patternProperties && schema.maxProperties === undefined) out.push(`${path}: a map without maxProperties`);
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, unknown>))
    unbounded(child, `${path}/${name}`, out, seen);
  for (const child of Object.values((schema.patternProperties ?? {}) as Record<string, unknown>)) unbounded(child, `${path}/*`, out, seen);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const [i, child] of ((schema[key] ?? []) as unknown[]).entries()) unbounded(child, `${path}|${i}`, out, seen);
  }
  unbounded(schema.items, `${path}/[]`, out, seen);
  if (typeof schema.additionalProperties === 'object') unbounded(schema.additionalProperties, `${path}/*`, out, seen);
  return out;
}

describe('request bounds', () => {
  it.each(operations.map((op) => [op.operationId, op] as const))(
    '%s: every list, text and map a request can carry is bounded',
    (_id, op) => {
      const problems: string[] = [];
      for (const [part, schema] of [
        ['path', op.params],
        ['query', op.query],
        ['body', op.body],
      ] as const)
        unbounded(schema, part, problems);
      expect(problems).toEqual([]);
    },
  );
});
