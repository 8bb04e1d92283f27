// kill -9 while 50 connections create orders: after a restart every order answered 201 is there in full, and no
// order is half-written; RELIABILITY_SCALE rounds of it on one database (1 in `npm test`, more in npm run
// bench:reliability). (kill -9 during webhook delivery: server/test/webhooks-delivery.test.ts.)
import { afterAll, describe, expect, it } from 'vitest';
import { demoCredentials, serverEnv, startServerProcess, tokenFor, type ServerProcess } from '../support/server-process.ts';
import { orderDocument } from '../support/fixtures.ts';
import { reliabilityScale, reportFigures } from '../support/reliability.ts';

const connections = 50;
const loadMs = 3000;
/** Kill-and-restart rounds on the same database: 1 in `npm test`, RELIABILITY_SCALE in the long variant. */
const rounds = reliabilityScale;

describe('a server process killed while creating orders', () => {
  let server: ServerProcess | undefined;
  let cleanup = () => undefined as unknown;
  afterAll(() => {
    server?.child.kill('SIGKILL');
    cleanup();
  });

  it('keeps every order it confirmed, whole, and starts cleanly again', { timeout: 120_000 * rounds }, async () => {
    const prepared = await serverEnv();
    cleanup = prepared.cleanup;
    server = await startServerProcess(prepared.env);
    const credentials = demoCredentials(server);
    let token = await tokenFor(server.url, credentials);
    const settings = (await (await fetch(`${server.url}/settings/get`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      result: { orderTypes: { id: number }[] };
    };
    const client = { orderTypeIds: settings.result.orderTypes.map((t) => t.id) };
    for (const sku of ['CRASH-A', 'CRASH-B']) {
      const product = await fetch(`${server.url}/v3/products`, {
        method: 'POST',
        body: JSON.stringify({ data: { type: 'product', attributes: { sku, name: sku } } }),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
      });
      expect(product.status).toBe(201);
    }

    const confirmed: { id: string; externalOrderNumber: string }[] = [];
    const started = Date.now();
    for (let round = 1; round <= rounds; round++) {
      const confirmedBefore = confirmed.length;
      const unexpected: string[] = [];
      let stop = false;
      const worker = async () => {
        while (!stop) {
          const body = orderDocument(client, {
            items: [
              { sku: 'CRASH-A', quantity: 1 },
              { sku: 'CRASH-B', quantity: 2 },
            ],
            billing: {
              firstName: 'Bill',
              lastName: 'Payer',
              street1: 'Markt',
              houseNumber: '1',
              postcode: '1011AB',
              city: 'Amsterdam',
              countryCode: 'NL',
            },
          });
          try {
            // One request at a time per worker: fetch's pool opens one connection per worker, 50 in all.
            const answer = await fetch(`${server!.url}/v3/orders`, {
              method: 'POST',
              body: JSON.stringify(body),
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json', accept: 'application/vnd.api+json' },
            });
            const text = await answer.text();
            if (answer.status === 201)
              confirmed.push({ id: JSON.parse(text).data.id, externalOrderNumber: body.data.attributes.externalOrderNumber });
            else unexpected.push(`${answer.status}: ${text}`);
          } catch (error) {
            // Requests cut off by the kill fail; any failure before it is a finding.
            if (!stop) unexpected.push(String(error));
          }
        }
      };
      const load = Promise.all(Array.from({ length: connections }, worker));
      await new Promise((resolve) => setTimeout(resolve, loadMs));
      // On a busy machine the first orders can take longer: the kill comes once some were confirmed (a minute at most).
      for (let waited = 0; confirmed.length === confirmedBefore && waited < 60_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      stop = true;
      server.child.kill('SIGKILL');
      await server.exited;
      await load;
      expect(unexpected).toEqual([]);
      // Some were confirmed before the kill (how many depends on the machine), and requests were in flight at it.
      expect(confirmed.length, `round ${round}`).toBeGreaterThan(confirmedBefore);

      server = await startServerProcess(prepared.env);
      token = await tokenFor(server.url, credentials);
      const read = async (path: string) => {
        const answer = await fetch(`${server!.url}${path}`, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' },
        });
        expect(answer.status).toBe(200);
        return answer.json() as Promise<any>;
      };
      // Every order that exists (confirmed or not) is whole: two items and both addresses.
      const seen = new Set<string>();
      let path: string | undefined = '/v3/orders?include=orderItems,deliveryAddress,billingAddress&page[size]=100';
      while (path) {
        const page = await read(path);
        for (const order of page.data) {
          seen.add(String(order.id));
          const related = (name: string) => order.relationships[name]?.data;
          expect(related('orderItems'), `order ${order.id}`).toHaveLength(2);
          expect(related('deliveryAddress'), `order ${order.id}`).toBeTruthy();
          expect(related('billingAddress'), `order ${order.id}`).toBeTruthy();
        }
        path = page.links?.next ? new URL(page.links.next).pathname + new URL(page.links.next).search : undefined;
      }
      for (const order of confirmed) expect(seen.has(String(order.id)), `confirmed order ${order.id}`).toBe(true);
      expect(server.output()).not.toMatch(/error/i);
    }
    reportFigures({
      suite: 'crash',
      database: prepared.env.DATABASE_URL ? 'postgres' : 'pglite',
      rounds,
      confirmed: confirmed.length,
      seconds: Math.round((Date.now() - started) / 1000),
    });
  });
});
