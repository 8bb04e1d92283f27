// Every self link resolves, to the same resource: one of every resource (support/world.ts) and an order with every part
// are read through every GET operation of the contract, with and without all its includes; every links.self found in
// those answers (data, included, list pages) is followed and answers 200 with exactly that resource object, another
// client gets 404, and so does an id that names nothing. The resource types come from the contract, so a new one with
// a self link and no read fails here.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type Operation } from '@shopapi/contract';
import { startSandbox, type Answer, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { buildWorld, pathFor, type World } from './support/world.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';

interface ResourceObject {
  type: string;
  id: number | string;
  links: { self: string };
}

let sb: TestSandbox;
let client: TestClient;
let world: World;
/** Every resource object seen, by self link, with the answers it was seen in. */
const seen = new Map<string, { resource: ResourceObject; where: string }[]>();

const reads = operations.filter((op) => op.method === 'GET' && op.auth && (op.path.startsWith('/v3/') || op.path.startsWith('/sandbox/')));
/** The operation's include paths, from the contract (IncludeQuery's example lists them all). */
const includesOf = (op: Operation) => (op.query?.properties.include as { examples?: string[] } | undefined)?.examples ?? [];

type Schema = { title?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; const?: unknown };
/** The types of the resource objects (a `type` constant and `links.self`) the contract's v3 answers can hold. */
function typesWithSelfLinks(schema: Schema | undefined, found = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return found;
  const type = schema.properties?.type?.const;
  if (typeof type === 'string' && schema.properties?.links?.properties?.self) found.add(type);
  for (const member of Object.values(schema.properties ?? {})) typesWithSelfLinks(member, found);
  typesWithSelfLinks(schema.items, found);
  for (const branch of schema.anyOf ?? []) typesWithSelfLinks(branch, found);
  return found;
}
const contractTypes = new Set(
  operations
    .filter((op) => op.documents.includes('v3'))
    .flatMap((op) => Object.values(op.responses).flatMap((response) => [...typesWithSelfLinks(response.schema as Schema | undefined)])),
);

/** The resource schemas of the reads, by type: more than one where the contract abridges a type on its list pages. */
function shapesIn(schema: Schema | undefined, found: Map<string, Set<string>>) {
  if (!schema || typeof schema !== 'object') return;
  const type = schema.properties?.type?.const;
  if (typeof type === 'string' && schema.properties?.links) found.set(type, (found.get(type) ?? new Set()).add(JSON.stringify(schema)));
  for (const member of Object.values(schema.properties ?? {})) shapesIn(member, found);
  shapesIn(schema.items, found);
  for (const branch of schema.anyOf ?? []) shapesIn(branch, found);
}
const readShapes = new Map<string, Set<string>>();
for (const op of reads) shapesIn(op.responses[op.success]?.schema as Schema | undefined, readShapes);

/** Every resource object (type, id and links.self) anywhere in the answer: data, included, and their members. */
function resourcesIn(value: unknown, found: ResourceObject[] = []) {
  if (Array.isArray(value)) {
    for (const v of value) resourcesIn(v, found);
  } else if (value && typeof value === 'object') {
    const object = value as { type?: unknown; id?: unknown; links?: { self?: unknown } };
    if (typeof object.type === 'string' && ['number', 'string'].includes(typeof object.id) && typeof object.links?.self === 'string')
      found.push(object as ResourceObject);
    for (const v of Object.values(object)) resourcesIn(v, found);
  }
  return found;
}

function record(answer: Answer, where: string) {
  expect(answer.status, `${where}: ${answer.raw.slice(0, 300)}`).toBe(200);
  for (const resource of resourcesIn(answer.body))
    seen.set(resource.links.self, [...(seen.get(resource.links.self) ?? []), { resource, where }]);
}

beforeAll(async () => {
  sb = await startSandbox({ rateLimitPerHour: 1_000_000_000 });
  client = await sb.newClient();
  world = await buildWorld(sb, client);
  // An order with a billing address of its own and a pick-up point, shipped.
  await createProducts(sb, client.token, ['LINK-1', 'LINK-2']);
  const created = await sb.call('POST', '/v3/orders', {
    token: client.token,
    body: orderDocument(client, {
      billing: { street1: 'Markt', houseNumber: '1', city: 'Roosendaal', countryCode: 'NL' },
      pickUpPoint: { identifier: 'PUP-7', name: 'Shop around the corner', countryCode: 'NL' },
      items: [
        { sku: 'LINK-1', quantity: 2 },
        { sku: 'LINK-2', quantity: 1 },
      ],
    }),
  });
  expect(created.status).toBe(201);
  expect((await sb.call('POST', `/sandbox/orders/${created.body.data.id}/ship`, { token: client.token })).status).toBe(201);

  // Every read, once the writes are done: a resource is the same in every answer from here on.
  for (const op of reads) {
    const path = pathFor(op, world);
    if (!path) continue;
    record(await sb.call('GET', path, { token: client.token }), `GET ${path}`);
    const include = includesOf(op);
    if (include.length)
      record(
        await sb.call('GET', `${path}?include=${include.join(',')}`, { token: client.token }),
        `GET ${path}?include=${include.join(',')}`,
      );
  }
}, 120_000);
afterAll(() => sb.close());

describe('self links', () => {
  it('are found for every resource type of the contract, each pointing into the sandbox', () => {
    const types = new Set([...seen.values()].map(([{ resource }]) => resource.type));
    expect([...types].sort()).toEqual([...contractTypes].sort());
    expect([...seen.values()].filter(([{ resource }]) => resource.type === 'address').length).toBeGreaterThanOrEqual(2);
    for (const self of seen.keys()) expect(new URL(self).origin).toBe('http://sandbox.test');
  });

  it('answer 200 with exactly the resource object of every answer that named it', async () => {
    for (const [self, copies] of seen) {
      const answer = await sb.call('GET', new URL(self).pathname, { token: client.token });
      expect(answer.status, `${self}: ${answer.raw.slice(0, 200)}`).toBe(200);
      for (const { resource, where } of copies) {
        // Where the contract leaves members out of list pages (the request log's bodies), the entry holds what the page showed.
        if (readShapes.get(resource.type)!.size > 1) expect(answer.body.data, `${self} as in ${where}`).toMatchObject(resource);
        else expect(answer.body.data, `${self} as in ${where}`).toEqual(resource);
      }
      // An attachment is its metadata, never its contents.
      if (answer.body.data.type === 'orderAttachment') expect(answer.raw).not.toMatch(/%PDF|"content"/);
    }
  }, 60_000);

  it('answer 404 to another client, and for an id that names nothing', async () => {
    const other = await sb.newClient();
    const patterns = new Set<string>();
    for (const [self, [{ resource }]] of seen) {
      const path = new URL(self).pathname;
      const answer = await sb.call('GET', path, { token: other.token });
      if (path.endsWith(`/${resource.id}`)) {
        expect(answer.status, `${path} read by another client`).toBe(404);
        patterns.add(path.replace(/[^/]+$/, typeof resource.id === 'number' ? '2000000000' : randomUUID()));
      } else {
        // A link without an id names the caller's own resource (the sandbox settings): another client reads its own.
        expect(answer.body.data?.id, `${path} read by another client`).not.toBe(resource.id);
      }
    }
    for (const path of patterns) {
      const answer = await sb.call('GET', path, { token: client.token });
      expect(answer.status, path).toBe(404);
      expect(answer.body.errors[0].code, path).toMatch(/^404/);
    }
  }, 60_000);
});
