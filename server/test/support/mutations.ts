// Bad-input generation: from a valid example value, every way a client can get it wrong.
export interface Mutation {
  name: string;
  value: unknown;
}

const hostileValues: [string, unknown][] = [
  ['null', null],
  ['number', 123456789],
  ['negative', -1],
  ['zero', 0],
  ['huge number', 1e308],
  ['fraction', 0.123456789],
  ['boolean', true],
  ['empty string', ''],
  ['array', [1, 'two']],
  ['object', { nested: { deeper: [] } }],
  ['long string', 'x'.repeat(10_000)],
  ['NUL byte', 'a\u0000b'],
  ['lone surrogate', '\ud800abc'],
  ['emoji and RTL', '🚚\u202eدكان\u200b'],
  ['numeric string', '42'],
  ['whitespace', '   '],
  ['SQL-looking', "'; DROP TABLE orders; --"],
  ['boolean text', 'true'],
  ['null text', 'null'],
  ['huge numeric text', '9'.repeat(400)],
  ['hex text', '0x1F'],
  ['full-width digits', '１２３'],
  ['negative zero', -0],
  ['date in the year 10000', '10000-01-01T00:00:00Z'],
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function setAt(root: Json, path: (string | number)[], value: unknown, remove = false): Json {
  const copy = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return prefix.length ? [prefix] : [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [...(prefix.length ? [prefix] : []), ...entries.flatMap(([k, v]) => paths(v as Json, [...prefix, k]))];
}

/** Every field removed, replaced by a hostile value, plus extra fields, at every depth of the example. */
export function bodyMutations(example: unknown): Mutation[] {
  const base = example as Json;
  const out: Mutation[] = [];
  for (const path of paths(base)) {
    const where = `/${path.join('/')}`;
    out.push({ name: `${where} removed`, value: setAt(base, path, undefined, true) });
    for (const [label, value] of hostileValues) out.push({ name: `${where} = ${label}`, value: setAt(base, path, value) });
  }
  out.push({ name: 'extra top-level field', value: { ...(base as object), unexpected: 'field' } });
  out.push({ name: 'empty object', value: {} });
  out.push({ name: 'array instead of object', value: [base] });
  out.push({ name: 'string instead of object', value: 'data' });
  return out;
}

/** A small seeded generator (mulberry32): the same seed gives the same requests, so a finding can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` documents with two to four fields of the example broken at once (removed or given a hostile value),
 * chosen by a generator seeded with `seed`: the combinations the one-field mutations above do not reach.
 */
export function randomMutations(example: unknown, count: number, seed: number): Mutation[] {
  const base = example as Json;
  const all = paths(base);
  if (!all.length) return [];
  const random = seededRandom(seed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const out: Mutation[] = [];
  for (let n = 0; n < count; n++) {
    let value = base;
    const changes: string[] = [];
    const fields = 2 + Math.floor(random() * 3);
    for (let f = 0; f < fields; f++) {
      const path = pick(all);
      const remove = random() < 0.2;
      const [label, hostile] = pick(hostileValues);
      try {
        value = setAt(value, path, hostile, remove);
        changes.push(`/${path.join('/')} ${remove ? 'removed' : `= ${label}`}`);
      } catch {
        // An earlier change replaced a parent of this path by a scalar: nothing left to break there.
      }
    }
    out.push({ name: `seed ${seed} #${n}: ${changes.join(', ')}`, value });
  }
  return out;
}

/** Raw bodies that are not what the content type says. */
export const malformedBodies: [string, string | Buffer][] = [
  ['truncated JSON', '{"data": {"type": "order", "attributes": {'],
  ['trailing garbage', '{"data": {}} trailing'],
  ['not JSON at all', 'hello, warehouse'],
  ['empty body', ''],
  ['JSON null', 'null'],
  ['deeply nested', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
  ['BOM then JSON', '\ufeff{"data": {}}'],
];

export const hostileIds = [
  '0',
  '-1',
  '2147483648',
  '99999999999999999999',
  'abc',
  '1e3',
  '1.5',
  '%00',
  '%2e%2e',
  "1'",
  '１',
  '+1',
  '00001',
  '1.0',
  '%201',
  'null',
  '-0',
  '0x1',
];

/** Query values for each parameter: wrong types, out of range, hostile text. */
export const hostileQueryValues = [
  '-1',
  '0',
  'abc',
  '1e999',
  '',
  ',',
  'a,a',
  'x'.repeat(5000),
  '%00',
  '\u202e',
  '[]',
  '{"$gt":0}',
  'true',
  'null',
  '9'.repeat(400),
  '1.5',
  '2026-13-45',
  '2026-02-30T25:61:00Z',
  ' 1',
  '+1',
  'OK,OK,OK',
  '🚚',
];

/** The same document as a form body, the way v2 clients send it: nested keys as a[b][0][c]. */
export function formEncode(value: unknown): string {
  const pairs: [string, string][] = [];
  const walk = (node: unknown, key: string) => {
    if (node === null || node === undefined) pairs.push([key, '']);
    else if (typeof node === 'object') {
      const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
      if (!entries.length) pairs.push([key, '']);
      for (const [k, v] of entries) walk(v, key ? `${key}[${k}]` : k);
    } else pairs.push([key || 'value', String(node)]);
  };
  walk(value, '');
  return new URLSearchParams(pairs).toString();
}

/** Accept headers a confused client sends. */
export const hostileAccepts = [
  'text/html',
  'application/vnd.api+json; ext="x"',
  '*/*;q=0',
  'application/json;q=abc',
  ',',
  'x'.repeat(2000),
];

/** Authorization headers that must all answer 401 (or be ignored where no token is needed). */
export const hostileAuthorizations = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer a b',
  'Basic ZGVtbzpkZW1v',
  `Bearer ${'x'.repeat(5000)}`,
  'Token abc',
];
