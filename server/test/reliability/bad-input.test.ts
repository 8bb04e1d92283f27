// Bad input, generated from the contract for every operation: removed fields, hostile values at every depth,
// malformed bodies, wrong content types, huge bodies, hostile path ids and query values, and seeded random
// combinations of several broken fields (20 per operation × RELIABILITY_SCALE).
// Every answer: no 5xx, documented status and format for its version (the harness checks the OpenAPI document),
// and a rejected write leaves the database exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type Operation } from '@shopapi/contract';
import { startSandbox, type TestSandbox } from '../support/sandbox.ts';
import { buildWorld, pathFor, type World } from '../support/world.ts';
import {
  bodyMutations,
  formEncode,
  hostileAccepts,
  hostileAuthorizations,
  hostileIds,
  hostileQueryValues,
  malformedBodies,
  randomMutations,
} from '../support/mutations.ts';
import { fingerprint } from '../support/fingerprint.ts';
import { reliabilityScale, reportFigures } from '../support/reliability.ts';

let sb: TestSandbox;
let world: World;
let sent = 0;
let combined = 0;
const started = Date.now();
/** Seeded combinations per operation: 20 in `npm test`, 20 × RELIABILITY_SCALE in the long variant. */
const combinationsPerOperation = 20 * reliabilityScale;

const isWrite = (op: Operation) => op.method !== 'GET';
const jsonBody = (op: Operation) =>
  op.body && !(op.bodyContentTypes ?? []).some((t) => t !== 'application/json' && t !== 'application/vnd.api+json');
const contentTypeOf = (op: Operation) =>
  op.bodyContentTypes?.[0] ??
  (op.path.startsWith('/v3/') || op.path.startsWith('/sandbox/') ? 'application/vnd.api+json' : 'application/json');

/**
 * The database's fingerprint as the last rejected write left it (checked unchanged), so the next write's "before" need
 * not be computed again; a write that was accepted clears it. Reads change no fingerprinted table (the request log and
 * rate-limit counters are left out of it), and nothing runs in the background of a test sandbox.
 */
let knownFingerprint: string | undefined;

/** Sends one bad request; checks no 5xx, and that a rejected write changed nothing. */
async function probe(
  op: Operation,
  url: string,
  opts: { payload?: string | Buffer; contentType?: string; headers?: Record<string, string> },
  label: string,
) {
  if (isWrite(op)) knownFingerprint ??= await fingerprint(sb.database.db);
  const before = isWrite(op) ? knownFingerprint : '';
  const headers = { ...(opts.contentType ? { 'content-type': opts.contentType } : {}), ...opts.headers };
  const token = op.auth && !opts.headers?.authorization ? world.client.token : undefined;
  const answer = await sb.call(op.method, url, { token, payload: opts.payload, headers }).catch((error: Error) => {
    throw new Error(`${op.method} ${url} (${label}): ${error.message}`);
  });
  sent++;
  expect(answer.status, `${op.method} ${url} (${label}): ${answer.raw.slice(0, 300)}`).toBeLessThan(500);
  if (isWrite(op) && answer.status >= 400) {
    const after = await fingerprint(sb.database.db);
    expect(after, `${op.method} ${url} (${label}) was rejected with ${answer.status} but changed the database`).toBe(before);
    knownFingerprint = after;
  } else if (isWrite(op)) {
    knownFingerprint = undefined;
  }
}

beforeAll(async () => {
  sb = await startSandbox({ rateLimitPerHour: 1_000_000_000 });
  world = await buildWorld(sb, await sb.newClient());
});
afterAll(() => sb.close());

describe('bad input, generated from the contract', () => {
  it('every operation with path parameters can be reached with ids from the test world', () => {
    const unreachable = operations.filter((op) => op.params && !pathFor(op, world)).map((op) => `${op.method} ${op.path}`);
    expect(unreachable).toEqual([]);
  });

  describe.each(operations.map((op, index) => [`${op.method} ${op.path}`, op, index] as const))('%s', (_name, op, index) => {
    it('survives hostile path ids', async () => {
      if (!op.params) return;
      for (const id of hostileIds) await probe(op, pathFor(op, world, id)!, {}, `path id ${id}`);
    });

    it('survives hostile Accept and Authorization headers', async () => {
      const url = pathFor(op, world);
      if (!url) return;
      const body = op.requestExample === undefined ? {} : { payload: JSON.stringify(op.requestExample), contentType: contentTypeOf(op) };
      for (const accept of hostileAccepts) await probe(op, url, { ...body, headers: { accept } }, `Accept: ${accept.slice(0, 20)}`);
      if (!op.auth) return;
      for (const authorization of hostileAuthorizations) {
        const before = await fingerprint(sb.database.db);
        const answer = await sb.call(op.method, url, {
          payload: body.payload,
          headers: { ...(body.contentType ? { 'content-type': body.contentType } : {}), authorization },
        });
        sent++;
        expect(answer.status, `${op.method} ${url} with Authorization: ${authorization.slice(0, 20)}`).toBe(401);
        expect(await fingerprint(sb.database.db)).toBe(before);
      }
    });

    it('survives hostile query values', async () => {
      const url = pathFor(op, world);
      if (!op.query || !url) return;
      for (const name of Object.keys(op.query.properties)) {
        for (const value of hostileQueryValues)
          await probe(op, `${url}?${encodeURIComponent(name)}=${encodeURIComponent(value)}`, {}, `${name}=${value.slice(0, 20)}`);
      }
    });

    it('survives malformed bodies, wrong content types and a huge body', async () => {
      const url = pathFor(op, world);
      if (!op.body || !url) return;
      const contentType = contentTypeOf(op);
      for (const [label, payload] of malformedBodies) await probe(op, url, { payload, contentType }, label);
      for (const wrong of [
        'text/plain',
        'application/xml',
        'application/vnd.api+json; charset=utf-8',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
      ]) {
        await probe(op, url, { payload: 'a=1&b=%ZZ', contentType: wrong }, `content type ${wrong}`);
      }
      await probe(op, url, { payload: JSON.stringify({ data: 'x'.repeat(2 * 1024 * 1024) }), contentType }, 'a 2 MiB body');
    });

    it('survives every field removed or replaced by a hostile value, at every depth', async () => {
      const url = pathFor(op, world);
      if (!jsonBody(op) || op.requestExample === undefined || !url) return;
      // Each mutation as the operation's own content type, then as the other form clients send:
      // plain JSON for v3 documents, a form body for v2 calls (their lenient parser reads both).
      const jsonApi = contentTypeOf(op) === 'application/vnd.api+json';
      for (const mutation of bodyMutations(op.requestExample)) {
        await probe(op, url, { payload: JSON.stringify(mutation.value), contentType: contentTypeOf(op) }, mutation.name);
        if (jsonApi)
          await probe(
            op,
            url,
            { payload: JSON.stringify(mutation.value), contentType: 'application/json' },
            `${mutation.name} as application/json`,
          );
        else
          await probe(
            op,
            url,
            { payload: formEncode(mutation.value), contentType: 'application/x-www-form-urlencoded' },
            `${mutation.name} as a form`,
          );
      }
    }, 300_000);

    it('survives several fields broken at once (seeded random combinations)', async () => {
      const url = pathFor(op, world);
      if (!jsonBody(op) || op.requestExample === undefined || !url) return;
      // The seed is the operation's place in the contract: a failing combination names its seed and number.
      for (const mutation of randomMutations(op.requestExample, combinationsPerOperation, index + 1)) {
        await probe(op, url, { payload: JSON.stringify(mutation.value), contentType: contentTypeOf(op) }, mutation.name);
        combined++;
      }
    }, 600_000);
  });

  it('sent a substantial number of bad requests', () => {
    console.log(`bad-input suite: ${sent} requests (${combined} with several fields broken at once), scale ${reliabilityScale}`);
    reportFigures({
      suite: 'bad input',
      database: sb.database.kind,
      requests: sent,
      combined,
      scale: reliabilityScale,
      seconds: Math.round((Date.now() - started) / 1000),
    });
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(combined).toBeGreaterThan(0);
  });
});
