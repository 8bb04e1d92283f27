// The orders a warehouse round tries to start (ordersToStart): those free stock may let start, never one fewer. An
// order that waits for goods was tried again every round, ten statements each; a client with a few thousand of them
// kept the warehouse, and on the embedded database half of the server's thread, busy all the time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ordersToStart, startOrder } from '../src/modules/shipments/service.ts';
import type { Client } from '../src/modules/clients/client.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProduct, orderDocument } from './support/fixtures.ts';
import { domainClient, receiveGoods } from './support/inventory.ts';

let sb: TestSandbox;
let client: TestClient;
let domain: Client;
const ids: Record<string, number> = {};

const call = (method: string, url: string, body?: unknown) => sb.call(method, url, { token: client.token, body });

const product = (sku: string, attributes: Record<string, unknown> = {}, parts?: { id: number; quantity: number }[]) =>
  createProduct(sb, client.token, sku, attributes, parts);

async function order(name: string, items: { sku: string; quantity: number }[], attributes: Record<string, unknown> = {}) {
  const answer = await call('POST', '/v3/orders', orderDocument(client, { items, attributes }));
  expect(answer.status, answer.raw).toBe(201);
  ids[name] = answer.body.data.id;
}

/** Whether the order starts, tried alone against the stock as it is (the transaction is rolled back). */
async function startsAlone(id: number): Promise<boolean> {
  let started = false;
  await sb.database.db
    .transaction(async (tx) => {
      started = (await startOrder(tx, sb.services.eventPayloads, domain, id, new Date())) !== undefined;
      throw new Error('roll back');
    })
    .catch((error: Error) => {
      if (error.message !== 'roll back') throw error;
    });
  return started;
}

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  domain = await domainClient(sb, client);
  const shelf = await product('ON-SHELF');
  const mug = await product('MUG');
  await product('NONE');
  await product('WRAPPING', { type: 'SERVICE' });
  await product('GIFTBOX', { type: 'BUNDLE' }, [
    { id: shelf, quantity: 1 },
    { id: mug, quantity: 2 },
  ]);
  await receiveGoods(sb, client, [
    { sku: 'ON-SHELF', quantity: 2 },
    { sku: 'MUG', quantity: 3 },
  ]);
  await order('covered', [{ sku: 'ON-SHELF', quantity: 2 }]);
  await order('short', [{ sku: 'ON-SHELF', quantity: 3 }]);
  await order('short, partial allowed', [{ sku: 'ON-SHELF', quantity: 3 }], { allowPartialDelivery: true });
  await order('nothing there', [{ sku: 'NONE', quantity: 1 }]);
  await order('nothing there, partial allowed', [{ sku: 'NONE', quantity: 1 }], { allowPartialDelivery: true });
  await order('one line of two', [
    { sku: 'ON-SHELF', quantity: 1 },
    { sku: 'NONE', quantity: 1 },
  ]);
  await order(
    'one line of two, partial allowed',
    [
      { sku: 'ON-SHELF', quantity: 1 },
      { sku: 'NONE', quantity: 1 },
    ],
    { allowPartialDelivery: true },
  );
  await order('a service', [{ sku: 'WRAPPING', quantity: 1 }]);
  await order('a bundle whose parts are there', [{ sku: 'GIFTBOX', quantity: 1 }]);
  await order('a bundle short of a part', [{ sku: 'GIFTBOX', quantity: 2 }]);
  await order('on hold', [{ sku: 'ON-SHELF', quantity: 1 }], { onHold: true });
});
afterAll(() => sb.close());

describe('the orders a warehouse round tries to start', () => {
  it('are those free stock may cover, in full or in part where the order allows it', async () => {
    const mayStart = (await ordersToStart(sb.database.db, client.id)).ids;
    expect(mayStart).toEqual(
      ['covered', 'short, partial allowed', 'one line of two, partial allowed', 'a service', 'a bundle whose parts are there'].map(
        (name) => ids[name],
      ),
    );
  });

  it('come a page at a time: the pages, each looking at `limit` orders, give the same orders', async () => {
    const all = (await ordersToStart(sb.database.db, client.id)).ids;
    const paged: number[] = [];
    let pages = 0;
    let after: number | undefined = 0;
    while (after !== undefined) {
      const page: { ids: number[]; next?: number } = await ordersToStart(sb.database.db, client.id, { after, limit: 3 });
      paged.push(...page.ids);
      after = page.next;
      pages++;
    }
    expect(paged).toEqual(all);
    // Eleven orders, one of them on hold: ten looked at, three a page, and the last page is not full.
    expect(pages).toBe(4);
  });

  it('leave out no order that starts when it is tried', async () => {
    const mayStart = new Set((await ordersToStart(sb.database.db, client.id)).ids);
    const starting: string[] = [];
    for (const [name, id] of Object.entries(ids)) if (await startsAlone(id)) starting.push(name);
    expect(starting.length).toBeGreaterThan(0);
    for (const name of starting) expect(mayStart.has(ids[name]), name).toBe(true);
  });

  it('count what open shipments hold: the goods a started order reserved are not free for the next', async () => {
    // "covered" takes both units of ON-SHELF; a bundle needs one of them.
    await sb.database.db.transaction((tx) => startOrder(tx, sb.services.eventPayloads, domain, ids.covered, new Date()));
    const mayStart = (await ordersToStart(sb.database.db, client.id)).ids;
    expect(mayStart).toEqual(['a service'].map((name) => ids[name]));
  });
});
