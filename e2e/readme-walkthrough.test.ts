// The README's curl walkthrough (its ```sh example``` blocks, in order) runs as written on a sandbox others have used
// already: another client's orders and an earlier order of the demo client hold the low ids, so a step that assumed
// id 1 would read, cancel or ship an order that is not the walkthrough's.
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { documentedAddress, fencedBlocks, type LiveSandbox, repository, runShell, startLiveSandbox } from './live-sandbox.ts';

const readme = readFileSync(path.join(repository, 'README.md'), 'utf8');
const passwordLine = "PASSWORD='the password npm start printed for demo'";

let sandbox: LiveSandbox;
let demoPassword: string;
let demoToken: string;
let otherToken: string;
/** What others did before the walkthrough: the orders (with their items' quantities) it must leave alone. */
const before: { token: string; orderId: number; quantities: number[] }[] = [];

async function call(method: string, url: string, token: string, body?: unknown) {
  const response = await fetch(sandbox.baseUrl + url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `${method} ${url} answered ${response.status}: ${text}`).toBe(true);
  return JSON.parse(text);
}

async function tokenOf(username: string, password: string): Promise<string> {
  const response = await fetch(`${sandbox.baseUrl}/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', username, password }),
  });
  return (await response.json()).access_token;
}

/** An order of `sku` as a client places it, with its items' quantities. */
async function placeOrder(token: string, externalOrderNumber: string, sku: string) {
  const orderTypeId = (await call('GET', '/settings/get', token)).result.orderTypes[0].id;
  const order = await call('POST', '/v3/orders?include=orderItems', token, {
    data: {
      type: 'order',
      attributes: { externalOrderNumber, locale: 'nl-NL' },
      relationships: {
        orderType: { data: { type: 'orderType', id: orderTypeId } },
        deliveryAddress: { data: { type: 'address', id: 'home' } },
      },
    },
    included: [
      {
        type: 'address',
        id: 'home',
        attributes: { lastName: 'Earlier', street1: 'Markt', houseNumber: '1', postcode: '4701AB', city: 'Roosendaal', countryCode: 'NL' },
      },
      { type: 'orderItem', attributes: { sku, quantity: 3, price: 5 } },
      { type: 'orderItem', attributes: { sku, quantity: 1, price: 5 } },
    ],
  });
  before.push({
    token,
    orderId: order.data.id,
    quantities: order.included.map((item: { attributes: { quantity: number } }) => item.attributes.quantity),
  });
}

beforeAll(async () => {
  // A warehouse that never moves on its own during the test: whatever ships, the walkthrough shipped.
  sandbox = await startLiveSandbox({ SANDBOX_STEP_SECONDS: String(24 * 3600) });
  const password = /password: (\S+)/.exec(sandbox.output())?.[1];
  expect(password, `the first start prints the demo password:\n${sandbox.output()}`).toBeDefined();
  demoPassword = password!;
  sandbox.cli('client', 'create', '--username', 'other-shop', '--password', 'other-shop-secret');
  otherToken = await tokenOf('other-shop', 'other-shop-secret');
  await call('POST', '/v3/products', otherToken, { data: { type: 'product', attributes: { sku: 'OTHER-SKU', name: 'Theirs' } } });
  await placeOrder(otherToken, 'OTHER-1', 'OTHER-SKU');
  await placeOrder(otherToken, 'OTHER-2', 'OTHER-SKU');
  demoToken = await tokenOf('demo', demoPassword);
  // The demo client's own earlier order, such as the reference's try-it sends (a product `npm start` gave it).
  await placeOrder(demoToken, 'TRY-IT-1', 'SKU-TSHIRT-L');
});

afterAll(async () => {
  await sandbox?.stop();
});

test('the walkthrough runs as written: every call answers 2xx and acts on the order it created', async () => {
  const blocks = fencedBlocks(readme).filter(({ language, meta }) => language === 'sh' && /(^|\s)example(\s|$)/.test(meta));
  expect(blocks.length, 'the README marks its walkthrough ```sh example```').toBeGreaterThan(0);
  const script = blocks.map(({ body }) => body).join('\n');
  expect(script, 'the walkthrough asks for the password npm start printed').toContain(passwordLine);
  // The reader's terminal is in the repository (the walkthrough's PDF step uses its pdf-lib); this one is a copy of it
  // with only node_modules, so the files the walkthrough writes stay out of the checkout.
  const folder = mkdtempSync(path.join(tmpdir(), 'readme-walkthrough-'));
  try {
    symlinkSync(path.join(repository, 'node_modules'), path.join(folder, 'node_modules'));
    const { calls } = runShell(script.replaceAll(documentedAddress, sandbox.baseUrl).replace(passwordLine, `PASSWORD='${demoPassword}'`), {
      env: sandbox.env,
      cwd: folder,
    });
    const failed = calls.filter(({ status }) => status < 200 || status >= 300);
    expect(failed, 'calls of the walkthrough that did not answer 2xx').toEqual([]);
    expect(calls.map(({ method }) => method)).toEqual(expect.arrayContaining(['POST', 'GET', 'DELETE']));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  // The walkthrough's order is the demo client's newest: its t-shirts cancelled, its mug shipped.
  const orders = (await call('GET', '/v3/orders?include=orderItems', demoToken)).data;
  const order = orders.at(-1);
  expect(order.attributes.externalOrderNumber).toMatch(/^SHOP-/);
  const items = (await call('GET', `/v3/orders/${order.id}?include=orderItems`, demoToken)).included;
  expect(
    Object.fromEntries(
      items.map((item: { attributes: { sku: string; quantity: number } }) => [item.attributes.sku, item.attributes.quantity]),
    ),
  ).toEqual({
    'TSHIRT-M': 0,
    MUG: 1,
  });
  const shipments = (await call('GET', `/v3/shipments?filter[orderId]=${order.id}&include=shipmentItems`, demoToken)).data;
  expect(shipments.map((shipment: { attributes: { status: string } }) => shipment.attributes.status)).toEqual(['SHIPPED']);

  // The orders that were there before are as they were: nothing cancelled, nothing shipped.
  for (const { token, orderId, quantities } of before) {
    const earlier = await call('GET', `/v3/orders/${orderId}?include=orderItems`, token);
    expect(earlier.included.map((item: { attributes: { quantity: number } }) => item.attributes.quantity)).toEqual(quantities);
    expect((await call('GET', `/v3/shipments?filter[orderId]=${orderId}`, token)).data).toEqual([]);
  }
});
