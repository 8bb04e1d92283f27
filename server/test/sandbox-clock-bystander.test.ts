// A long clock advance does not hold the sandbox: while one client's warehouse catches up with a year and hundreds of open
// orders, the advance answers at once and another client's reads answer as usual. The bystander reads from a process of
// its own, as an integrator's shop would: a server that holds its event loop delays it however the test awaits.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { limits } from '@shopapi/contract';
import { startListeningSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { receiveGoods } from './support/inventory.ts';

/** The advancing client's released orders: the measure is a year's advance with 300 or more. */
const openOrders = 320;
/** How long the bystander reads while the advance runs. */
const windowMs = 20_000;
/**
 * The bystander's 99th percentile. The issue asks under a second on the embedded database; the shared 2-core machine
 * measured 0.1 to 0.8 s at a load average of 7 to 10, and up to 2.7 s near 20 (docs/OPERATIONS.md), so the bound leaves
 * room for a loaded machine. Without slices the first read waits for the whole catch-up: minutes.
 */
const bystanderP99Ms = 5_000;

let sb: TestSandbox;
let baseUrl: string;

beforeAll(async () => {
  ({ sb, baseUrl } = await startListeningSandbox({ sandboxAdvanceWaitMs: limits.clockAdvanceWaitMsDefault }));
});
afterAll(() => sb.close());

/** Reads GET /v3/orders from another process for `ms`, one read after another; resolves with each read's milliseconds. */
function readFromAnotherProcess(client: TestClient, ms: number, onStarted: () => void): Promise<number[]> {
  const script = `
    const latencies = [];
    const until = Date.now() + ${ms};
    console.log('started');
    while (Date.now() < until) {
      const started = performance.now();
      const answer = await fetch(process.env.URL, { headers: { authorization: 'Bearer ' + process.env.TOKEN } });
      await answer.text();
      if (answer.status !== 200) throw new Error('status ' + answer.status);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.log(JSON.stringify(latencies));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, URL: `${baseUrl}/v3/orders`, TOKEN: client.token },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (!output.includes('started') && `${output}${chunk}`.includes('started')) onStarted();
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(output.trim().split('\n').at(-1)!)) : reject(new Error(`reader exited ${code}`)),
    );
  });
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))];

it(`answers a year's advance with ${openOrders} open orders at once, and another client's reads stay fast meanwhile`, async () => {
  const mover = await sb.newClient();
  await createProducts(sb, mover.token, ['SKU-YEAR']);
  await receiveGoods(sb, mover, [{ sku: 'SKU-YEAR', quantity: openOrders }]);
  for (let i = 0; i < openOrders; i++) {
    const order = await sb.call('POST', '/v3/orders', {
      token: mover.token,
      body: orderDocument(mover, { items: [{ sku: 'SKU-YEAR', quantity: 1 }] }),
    });
    expect(order.status, order.raw).toBe(201);
  }
  const bystander = await sb.newClient();
  for (let i = 0; i < 10; i++)
    expect((await sb.call('POST', '/v3/orders', { token: bystander.token, body: orderDocument(bystander) })).status).toBe(201);

  let advance: Promise<{ status: number; ms: number }> | undefined;
  const reads = await readFromAnotherProcess(bystander, windowMs, () => {
    const started = performance.now();
    advance = fetch(`${baseUrl}/sandbox/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mover.token}`, 'content-type': 'application/vnd.api+json' },
      body: JSON.stringify({ seconds: 365 * 86_400 }),
    }).then(async (answer) => {
      await answer.text();
      return { status: answer.status, ms: performance.now() - started };
    });
  });
  const answered = await advance!;
  expect(answered.status).toBe(202);
  expect(answered.ms).toBeLessThan(sb.config.sandboxAdvanceWaitMs + 5_000);
  expect(reads.length).toBeGreaterThan(5);
  const figures = `${reads.length} reads, p50 ${percentile(reads, 0.5).toFixed(0)} ms, p99 ${percentile(reads, 0.99).toFixed(0)} ms`;
  expect(percentile(reads, 0.99), figures).toBeLessThan(bystanderP99Ms);
}, 600_000);
