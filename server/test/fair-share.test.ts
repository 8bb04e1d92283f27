// Clients' calls take turns when every place of the fair share is taken (api/shared/fair-share.ts), by the time they
// used: a client with many calls waiting cannot make another client's one call wait for all of them.
import { afterEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';
import { fairSharePlugin, stepOutOfFairShare } from '../src/api/shared/fair-share.ts';
import { FairShare, type Ticket } from '../src/platform/fair-share.ts';
import type { Client } from '../src/modules/clients/client.ts';
import { startSandbox } from './support/sandbox.ts';

/** A stand-in for bearer auth: the client id is the header's. */
const fakeAuth = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('client', null as unknown as Client);
    app.addHook('onRequest', async (request) => {
      const id = Number(request.headers['x-client']);
      if (id) request.client = { id, username: `c${id}`, defaultWarehouse: 'W', clockOffsetSeconds: 0 };
    });
  },
  { name: 'shopapi-bearer-auth' },
);

/** An app whose calls finish only when the test lets them (`finish`), recording the order in which they started. */
async function gatedApp(concurrency: number) {
  const app = Fastify({ logger: false });
  await app.register(fakeAuth);
  await app.register(multipart);
  await app.register(fairSharePlugin, { concurrency });
  const started: string[] = [];
  const running = new Map<string, () => void>();
  app.post<{ Params: { name: string } }>('/work/:name', async (request) => {
    started.push(request.params.name);
    await new Promise<void>((resolve) => running.set(request.params.name, resolve));
    return { done: request.params.name };
  });
  app.post<{ Params: { name: string } }>('/step-out/:name', async (request) => {
    started.push(request.params.name);
    stepOutOfFairShare(request);
    await new Promise<void>((resolve) => running.set(request.params.name, resolve));
    return { done: request.params.name };
  });
  app.get('/anonymous', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;
  const call = (path: string, client?: number, signal?: AbortSignal) =>
    fetch(`${base}${path}`, {
      method: path.startsWith('/anonymous') ? 'GET' : 'POST',
      headers: client ? { 'x-client': String(client) } : {},
      signal,
    });
  /** Waits until the named call has started, then lets it finish. */
  const finish = async (name: string) => {
    await until(() => running.has(name));
    running.get(name)!();
    running.delete(name);
  };
  return { app, started, running, call, finish };
}

async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the fair share of calls', () => {
  it("serves another client's call before the second of a client that had several waiting and had used the place", async () => {
    const gated = await gatedApp(1);
    app = gated.app;
    const answers = [gated.call('/work/a1', 1)];
    await until(() => gated.started.length === 1);
    answers.push(gated.call('/work/a2', 1), gated.call('/work/a3', 1), gated.call('/work/a4', 1));
    // Client 2 asks last, after client 1 had three calls waiting.
    await new Promise((resolve) => setTimeout(resolve, 50));
    answers.push(gated.call('/work/b1', 2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gated.started).toEqual(['a1']);
    for (const name of ['a1', 'b1', 'a2', 'a3', 'a4']) await gated.finish(name);
    const bodies = await Promise.all(answers.map(async (answer) => (await (await answer).json()).done));
    expect(bodies).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    // Client 1 had held the place for a1's time, client 2 for none: b1 next. First come, first served would have
    // started b1 last, turns by call after a2.
    expect(gated.started).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
  });

  it("shares the time, not the calls: a client with quick calls gets several in after another client's long one", async () => {
    const gated = await gatedApp(1);
    app = gated.app;
    const answers = [gated.call('/work/a1', 1)];
    await until(() => gated.started.length === 1);
    for (const name of ['a2', 'a3']) answers.push(gated.call(`/work/${name}`, 1));
    for (const name of ['b1', 'b2', 'b3']) answers.push(gated.call(`/work/${name}`, 2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // a1 holds the place 300 ms, each of b's calls a moment: b's three fit in a1's time before a's next.
    await new Promise((resolve) => setTimeout(resolve, 250));
    for (const name of ['a1', 'b1', 'b2', 'b3', 'a2', 'a3']) await gated.finish(name);
    await Promise.all(answers);
    // Turns by call would have started a2 right after b1.
    expect(gated.started).toEqual(['a1', 'b1', 'b2', 'b3', 'a2', 'a3']);
  });

  it("shares the time when calls hold the thread: a client's long calls in two loops do not put one each before every quick call of another", async () => {
    // On the embedded database a call's statements run on the server's thread without giving it back: here each call
    // keeps the thread busy for its time, so the other requests lie unread in their sockets while it runs.
    app = Fastify({ logger: false });
    await app.register(fakeAuth);
    await app.register(multipart);
    await app.register(fairSharePlugin, { concurrency: 1 });
    app.post<{ Params: { ms: string } }>('/busy/:ms', async (request) => {
      const until = performance.now() + Number(request.params.ms);
      while (performance.now() < until);
      return {};
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const end = Date.now() + 1500;
    /** Calls in a loop, each right after the last answer, until the end; the calls it made. */
    const loop = async (client: number, ms: number) => {
      let calls = 0;
      for (; Date.now() < end; calls++) {
        await (await fetch(`${base}/busy/${ms}`, { method: 'POST', headers: { 'x-client': String(client) } })).arrayBuffer();
      }
      return calls;
    };
    const [a1, a2, b1, b2] = await Promise.all([loop(1, 40), loop(1, 40), loop(2, 2), loop(2, 2)]);
    const used = { a: (a1 + a2) * 40, b: (b1 + b2) * 2 };
    // Each had about half of the time. In the order the requests were read, b's two 2 ms calls came after a's two
    // 40 ms ones, every round: b had a twentieth of a's time.
    expect(used.b).toBeGreaterThan(used.a / 3);
  });

  it("counts an upload's charge (work done without a place) in its client's share: the other client goes first", () => {
    let now: number;
    const order: number[] = [];
    const run = (charge: number) => {
      now = 0;
      const share = new FairShare(1, () => now);
      const held = (ticket: Ticket) => ticket.state === 'held';
      const b1 = share.take(2);
      const a1 = share.take(1);
      now = 50;
      const b2 = share.take(2);
      share.give(b1);
      // Client 2 used 50 ms, client 1 none: client 1's call goes first.
      expect(held(a1)).toBe(true);
      now = 60;
      // Client 1's next piece of work comes with what its body cost outside a place.
      const a2 = share.take(1, charge);
      share.give(a1);
      return [b2, a2].find(held)!.key;
    };
    // 10 ms held against client 2's 50: client 1 again; with 100 ms of reading its upload charged, client 2.
    order.push(run(0), run(100));
    expect(order).toEqual([1, 2]);
  });

  it('lets calls without a client, and a call that stepped out, leave the places to others', async () => {
    const gated = await gatedApp(1);
    app = gated.app;
    const waiting = gated.call('/step-out/slow', 1);
    await until(() => gated.started.includes('slow'));
    // The slow call stepped out: another client's call runs while it still waits.
    const other = gated.call('/work/quick', 2);
    await gated.finish('quick');
    expect((await (await other).json()).done).toBe('quick');
    expect((await gated.call('/anonymous')).status).toBe(200);
    await gated.finish('slow');
    expect((await (await waiting).json()).done).toBe('slow');
  });

  it('gives the place of a client gone while its call waited to the next call', async () => {
    const gated = await gatedApp(1);
    app = gated.app;
    const first = gated.call('/work/first', 1);
    await until(() => gated.started.length === 1);
    const abort = new AbortController();
    const gone = gated.call('/work/gone', 2, abort.signal).catch((error: Error) => error.name);
    await new Promise((resolve) => setTimeout(resolve, 50));
    abort.abort();
    expect(await gone).toBe('AbortError');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = gated.call('/work/next', 3);
    await gated.finish('first');
    await gated.finish('next');
    expect((await (await first).json()).done).toBe('first');
    expect((await (await next).json()).done).toBe('next');
    expect(gated.started).toEqual(['first', 'next']);
  });

  it('is registered by the app, and the app answers many calls of two clients at once through it', async () => {
    const sb = await startSandbox({ fairShareConcurrency: 1 });
    try {
      const registered = (sb.app as unknown as Record<symbol, string[]>)[Symbol.for('registered-plugin')];
      expect(registered).toContain('shopapi-fair-share');
      const a = await sb.newClient();
      const b = await sb.newClient();
      const answers = await Promise.all([
        ...Array.from({ length: 12 }, () => sb.call('GET', '/v3/orders', { token: a.token })),
        sb.call('GET', '/v3/products', { token: b.token }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual(Array(13).fill(200));
    } finally {
      await sb.close();
    }
  });
});
