// Bodies shaped to crash, stall or exhaust the server, generated from the contract for every operation:
// prototype keys and sparse list indices in v2 form and JSON bodies, every list one entry past its maxItems,
// lone surrogates in every string, NUL and surrogates in member names, numbers a double cannot hold.
// Each answer is the documented 400 (never a 500), a rejected write changes nothing, and the server keeps answering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type Operation } from '@shopapi/contract';
import { startSandbox, type Answer, type TestSandbox } from '../support/sandbox.ts';
import { buildWorld, pathFor, type World } from '../support/world.ts';
import { formEncode } from '../support/mutations.ts';
import { fingerprint } from '../support/fingerprint.ts';
import { reportFigures } from '../support/reliability.ts';

let sb: TestSandbox;
let world: World;
let sent = 0;
/** Requests per kind of attack: each kind must have been tried. */
const tried = { lists: 0, surrogates: 0, numbers: 0, memberNames: 0, prototypeKeys: 0, sparseIndices: 0 };

beforeAll(async () => {
  sb = await startSandbox({ rateLimitPerHour: 1_000_000_000 });
  world = await buildWorld(sb, await sb.newClient());
});
afterAll(() => sb.close());

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  maxItems?: number;
};
type Path = (string | number)[];

const isV3 = (op: Operation) => op.path.startsWith('/v3/') || op.path.startsWith('/sandbox/');
const jsonExample = (op: Operation) =>
  op.requestExample !== undefined && (!op.bodyContentTypes || op.bodyContentTypes.some((t) => t.includes('json')));
const contentTypeOf = (op: Operation) => (isV3(op) ? 'application/vnd.api+json' : 'application/json');
const v2Form = (op: Operation) => !isV3(op) && op.method !== 'GET' && op.body !== undefined;

/** The branch of a union that describes `value`, or the schema itself. */
function branchFor(schema: Schema | undefined, value: unknown): Schema | undefined {
  const branches = schema?.anyOf ?? schema?.oneOf;
  if (!branches) return schema;
  const wanted = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return (
    branches
      .map((b) => branchFor(b, value))
      .find((b) => b && ([] as string[]).concat(b.type ?? []).includes(wanted === 'number' ? 'number' : wanted)) ??
    branches.find((b) => ([] as string[]).concat(b.type ?? []).includes('integer') && wanted === 'number')
  );
}

/** Every list of the example with the schema that bounds it. */
function listsOf(schema: Schema | undefined, value: Json, path: Path = []): { path: Path; maxItems: number }[] {
  const node = branchFor(schema, value);
  if (!node || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) {
    const here = node.maxItems === undefined ? [] : [{ path, maxItems: node.maxItems }];
    return [...here, ...value.flatMap((v, i) => listsOf(node.items, v, [...path, i]))];
  }
  return Object.entries(value).flatMap(([k, v]) => listsOf(node.properties?.[k], v, [...path, k]));
}

/** Paths of every leaf of the example, and of every object in it (the root too). */
function leavesAndObjects(value: Json, path: Path = []): { leaves: Path[]; objects: Path[] } {
  if (value === null || typeof value !== 'object') return { leaves: [path], objects: [] };
  const children = (Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value)).map(([k, v]) =>
    leavesAndObjects(v, [...path, k]),
  );
  return {
    leaves: children.flatMap((c) => c.leaves),
    objects: [...(Array.isArray(value) ? [] : [path]), ...children.flatMap((c) => c.objects)],
  };
}

function update(root: Json, path: Path, change: (node: Json) => Json): Json {
  if (!path.length) return change(root);
  const copy = structuredClone(root) as Record<string | number, Json>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = path[path.length - 1];
  node[last] = change(node[last]);
  return copy;
}

async function send(op: Operation, payload: string, contentType: string): Promise<Answer> {
  const url = pathFor(op, world)!;
  const answer = await sb.call(op.method, url, {
    token: op.auth ? world.client.token : undefined,
    payload,
    headers: { 'content-type': contentType },
  });
  sent++;
  return answer;
}

/** The documented 400 of the operation's API: JSON:API errors, the v2 NOK envelope, or the token endpoint's OAuth body. */
function expectBadRequest(op: Operation, answer: Answer, label: string) {
  const where = `${op.method} ${op.path} (${label}): ${answer.raw.slice(0, 300)}`;
  expect(answer.status, where).toBe(400);
  if (isV3(op)) expect(answer.body.errors?.[0]?.status, where).toBe('400');
  else if (op.path === '/token') expect(answer.body.error, where).toBeTypeOf('string');
  else expect(answer.body.messageCode, where).toBe('NOK');
}

async function expectAlive() {
  const status = await sb.call('GET', '/status');
  expect(status.status).toBe(200);
  expect(({} as Record<string, unknown>).pwned).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('pwned');
}

describe('hostile bodies, generated from the contract', () => {
  describe.each(operations.filter((op) => op.body).map((op) => [`${op.method} ${op.path}`, op] as const))('%s', (_name, op) => {
    it('refuses every list one entry longer than its maxItems, writing nothing', async () => {
      if (!jsonExample(op) || !pathFor(op, world)) return;
      const example = op.requestExample as Json;
      for (const { path, maxItems } of listsOf(op.body as Schema, example)) {
        const longer = update(example, path, (list) =>
          Array.from({ length: maxItems + 1 }, (_, i) => structuredClone((list as Json[])[i % (list as Json[]).length])),
        );
        const before = await fingerprint(sb.database.db);
        tried.lists++;
        expectBadRequest(op, await send(op, JSON.stringify(longer), contentTypeOf(op)), `/${path.join('/')} with ${maxItems + 1} entries`);
        expect(await fingerprint(sb.database.db)).toBe(before);
      }
    });

    it('refuses lone surrogates in every string, NUL and surrogates in member names, and numbers past a double', async () => {
      if (!jsonExample(op) || !pathFor(op, world)) return;
      const example = op.requestExample as Json;
      const { leaves, objects } = leavesAndObjects(example);
      for (const path of leaves) {
        const leaf = path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key], example);
        if (typeof leaf === 'string') {
          for (const lone of ['\udfff', 'ab\ud800']) {
            tried.surrogates++;
            expectBadRequest(
              op,
              await send(op, JSON.stringify(update(example, path, () => lone)), contentTypeOf(op)),
              `/${path.join('/')} = lone surrogate`,
            );
          }
        }
        if (typeof leaf === 'number') {
          // JSON can spell a number no double holds; JSON.parse makes it Infinity.
          const text = JSON.stringify(update(example, path, () => '__HUGE__')).replace('"__HUGE__"', '1e999');
          tried.numbers++;
          expectBadRequest(op, await send(op, text, contentTypeOf(op)), `/${path.join('/')} = 1e999`);
        }
      }
      for (const path of objects) {
        for (const key of ['a\u0000b', '\udfff']) {
          const payload = JSON.stringify(update(example, path, (node) => ({ ...(node as Record<string, Json>), [key]: 'x' })));
          tried.memberNames++;
          expectBadRequest(op, await send(op, payload, contentTypeOf(op)), `/${path.join('/')} with member name ${JSON.stringify(key)}`);
        }
      }
    });

    it('takes prototype keys in form and JSON bodies without harm', async () => {
      if (!(v2Form(op) || op.path === '/token') || !pathFor(op, world)) return;
      const valid = op.requestExample === undefined ? '' : formEncode(op.requestExample);
      const firstKey = op.requestExample && typeof op.requestExample === 'object' ? (Object.keys(op.requestExample)[0] ?? 'x') : 'x';
      const forms = [
        `__proto__[pwned]=yes&${valid}`,
        `${firstKey}.__proto__.pwned=yes&${valid}`,
        `constructor[prototype][pwned]=yes&${valid}`,
        `${firstKey}[__proto__][pwned]=yes`,
        `__proto__.pwned=yes`,
      ];
      for (const form of forms) {
        const answer = await send(op, form, 'application/x-www-form-urlencoded');
        tried.prototypeKeys++;
        expect(answer.status, `${op.method} ${op.path} form ${form.slice(0, 60)}: ${answer.raw.slice(0, 200)}`).toBeLessThan(500);
        await expectAlive();
      }
      for (const json of ['{"__proto__":{"pwned":"yes"}}', '{"constructor":{"prototype":{"pwned":"yes"}}}']) {
        const answer = await send(op, json, 'application/json');
        expect(answer.status, `${op.method} ${op.path} JSON ${json}: ${answer.raw.slice(0, 200)}`).toBeLessThan(500);
        await expectAlive();
      }
    });

    it('refuses a list index past the bound at once instead of building a sparse list', async () => {
      if (!v2Form(op) || !pathFor(op, world) || op.requestExample === undefined) return;
      const example = op.requestExample as Json;
      for (const { path } of listsOf(op.body as Schema, example)) {
        const key = path.map((p, i) => (i === 0 ? String(p) : `[${p}]`)).join('');
        const started = Date.now();
        tried.sparseIndices++;
        const answer = await send(op, `${key}[2000000]=1&${formEncode(example)}`, 'application/x-www-form-urlencoded');
        expectBadRequest(op, answer, `${key}[2000000]`);
        expect(answer.raw.length).toBeLessThan(10_000);
        expect(Date.now() - started).toBeLessThan(5_000);
        await expectAlive();
      }
    });
  });

  it('sent a substantial number of hostile bodies', () => {
    console.log(`hostile-bodies suite: ${sent} requests`, tried);
    reportFigures({ suite: 'hostile bodies', database: sb.database.kind, requests: sent });
    for (const [kind, count] of Object.entries(tried)) expect(count, kind).toBeGreaterThan(0);
    expect(sent).toBeGreaterThan(500);
  });
});
