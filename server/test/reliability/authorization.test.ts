// Object-level authorization, generated from the contract so a new route cannot be forgotten:
// client B names client A's objects, in the path or in the body, and learns nothing and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, errorStyle, type Operation } from '@shopapi/contract';
import { startSandbox, type TestClient, type TestSandbox } from '../support/sandbox.ts';
import { buildWorld, pathFor, type World } from '../support/world.ts';
import { fingerprint } from '../support/fingerprint.ts';

let sb: TestSandbox;
let world: World;
let intruder: TestClient;

beforeAll(async () => {
  sb = await startSandbox({ rateLimitPerHour: 1_000_000_000 });
  world = await buildWorld(sb, await sb.newClient());
  intruder = await sb.newClient();
});
afterAll(() => sb.close());

/** Body fields that name an object: replaced by client A's identifiers in B's request. */
function withVictimRefs(value: unknown, refs: World['refs']): unknown {
  if (Array.isArray(value)) return value.map((v) => withVictimRefs(v, refs));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => {
      const ref = Object.entries(refs).find(([name]) => name.toLowerCase() === key.toLowerCase());
      return [key, ref ? ref[1] : withVictimRefs(child, refs)];
    }),
  );
}

/** Identifiers of the same kinds as A's that name nothing at all. */
const missingRefs: World['refs'] = {
  sku: 'NO-SUCH-SKU',
  externalOrderNumber: 'NO-SUCH-ORDER',
  orderId: 2_000_000_000,
  shipmentId: 2_000_000_000,
  shipmentItemId: 2_000_000_000,
  ids: [2_000_000_000],
  purchaseOrderId: 2_000_000_000,
  reference: 'NO-SUCH-REFERENCE',
};

const mentionsRefs = (value: unknown, refs: World['refs']): boolean =>
  JSON.stringify(withVictimRefs(value, refs)) !== JSON.stringify(value);

// The all flag of /stock/bulk/{all} is a path parameter that names no object: each client gets its own products.
const withPath = operations.filter((op) => op.params && op.auth && Object.keys(op.params.properties).some((name) => name !== 'all'));
const withBodyRefs = operations.filter(
  (op) =>
    op.auth &&
    op.requestExample !== undefined &&
    !op.params &&
    mentionsRefs(op.requestExample, {
      sku: 'x',
      externalOrderNumber: 'x',
      orderId: 0,
      shipmentId: 0,
      shipmentItemId: 0,
      ids: [],
      purchaseOrderId: 0,
      reference: 'x',
    }),
);

describe("client B on client A's objects", () => {
  it('covers every authenticated operation that takes an id in its path', () => {
    expect(withPath.length).toBeGreaterThan(10);
    expect(withPath.filter((op) => !pathFor(op, world)).map((op) => op.operationId)).toEqual([]);
  });

  it.each(withPath.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s: not found, nothing changed',
    async (_name, op: Operation) => {
      const before = await fingerprint(sb.database.db, world.client.id);
      const body = op.requestExample;
      const answer = await sb.call(op.method, pathFor(op, world)!, { token: intruder.token, body });
      if (errorStyle(op) === 'v2' && answer.status === 200) {
        // A v2 get by key (stock per sku) answers a miss with a 200 NOK: A's key must read exactly like a missing one.
        expect(answer.body).toMatchObject({ messageCode: 'NOK', result: null });
        expect(answer.raw).toBe((await sb.call(op.method, pathFor(op, world, 'NO-SUCH-KEY')!, { token: intruder.token, body })).raw);
      } else {
        expect(answer.status, answer.raw.slice(0, 300)).toBe(404);
        if (errorStyle(op) === 'jsonapi') expect(answer.body.errors[0].code).toMatch(/^404/);
        else expect(answer.body).toMatchObject({ error: '404 Not Found' });
      }
      expect(await fingerprint(sb.database.db, world.client.id)).toBe(before);
    },
  );

  it.each(withBodyRefs.map((op) => [`${op.method} ${op.path}`, op] as const))(
    "%s with A's identifiers in the body: A's data unchanged and not shown",
    async (_name, op: Operation) => {
      const before = await fingerprint(sb.database.db, world.client.id);
      const answer = await sb.call(op.method, op.path, { token: intruder.token, body: withVictimRefs(op.requestExample, world.refs) });
      expect(answer.status).toBeLessThan(500);
      expect(await fingerprint(sb.database.db, world.client.id)).toBe(before);
      // A's objects are never described to B: no A id appears next to A's identifiers in a success answer.
      if (answer.status < 300) expect(answer.raw).not.toContain(`"id":${world.ids.orders},`);
      // A v2 search answers a miss with a 200 NOK: with A's identifiers B gets exactly what identifiers nobody has give.
      if (errorStyle(op) === 'v2' && answer.status === 200 && answer.body.messageCode === 'NOK') {
        const missing = await sb.call(op.method, op.path, { token: intruder.token, body: withVictimRefs(op.requestExample, missingRefs) });
        expect(answer.raw).toBe(missing.raw);
      }
    },
  );
});
