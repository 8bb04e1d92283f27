// Scenario 8, the noisy neighbour: client B's API latency and webhook delay alone, then while client A, on the same
// server process, (a) has webhooks whose receivers drip or never answer, (b) advances its clock by a year with 320 open
// orders, (c) uploads files at full speed; on PostgreSQL and on the embedded PGlite, as ratios in one run (issue 29).
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { webhookEvents } from '@shopapi/contract';
import { openDatabase } from '../server/src/platform/db/index.ts';
import { freePort } from '../server/test/support/ports.ts';
import {
  JSONAPI,
  load,
  ms,
  orderDocument,
  percentile,
  ratio,
  repository,
  seconds,
  seedClient,
  seedOrders,
  tokenFor,
  type BenchClient,
  type LoadResult,
} from './lib.ts';
import { spawnSandbox, waitForAnswer } from './processes.ts';
import type { NoiseOrder, NoiseReport } from './neighbours-noise.ts';

/** A's open orders when it advances its clock: the issue measures a year with 300 or more. */
const openOrders = 320;
const yearSeconds = 365 * 86_400;
/** B's load: a few connections per route, as an ordinary integration sends. */
const connections = 2;
/** B ships one of its orders this often and times the shipped event's arrival at its receiver. */
const shipEveryMs = 500;
/** How long B's last deliveries may take to arrive after its window before they count as not arrived. */
const arrivalWaitMs = 15_000;
/** The goals of the section. */
const p99Goal = 3;
const delayGoalMs = 1000;

export const neighboursIntro = `Client B's calls alone, then while client A, on the same server process, makes noise, one kind at a time: **A's webhooks** (20, its most: for each of the 4 shipment events 3 receivers that answer 200 and then drip one byte every 2 s without end, and 2 that never answer) while A creates and ships orders in 2 loops; **A's clock** advanced by a year (\`POST /sandbox/clock/advance\`) with ${openOrders} open orders with stock; **A's uploads** at full speed, 3 loops alternating 4.5 MiB order attachments and 4.5 MiB product images (\`STORAGE_QUOTA_MIB\` and \`UPLOAD_MIB_PER_SECOND\` at their defaults, 512 MiB and 8 MiB a second: an upload past the pace waits its turn; a refusal, 413 or 429, is counted). The server is \`node server/dist/cli.mjs start\` (pacer and dispatcher running) with \`WEBHOOK_ALLOW_PRIVATE_TARGETS=true\` and a rate limit out of reach; A's requests come from a process of their own (bench/neighbours-noise.ts), the receivers run on a thread of their own on 127.0.0.1. In each window of ${seconds} s B runs \`GET /v3/orders\` and \`POST /v3/orders\` with autocannon, ${connections} connections each, and every ${shipEveryMs} ms creates and ships an order (\`POST /sandbox/orders/{id}/ship\`): its webhook delay is the time from the shipped event (the body's \`timestamp\`, B's clock, taken when the ship's transaction starts) to its arrival at B's receiver; the time from the ship call's answer (its transaction committed) to the arrival shows the dispatch alone (negative when the delivery arrives before the answer). **Goal: B's p99 under A's noise within ${p99Goal}× its p99 alone, and B's webhook delay under ${delayGoalMs / 1000} s.**`;

// B's receiver records each delivery's shipment id and delay; A's receivers drip or never answer. A thread of its own, as
// in bench/webhooks.ts: on the load generator's event loop the arrival times would carry its work.
const receiversSource = `
const { parentPort } = require('node:worker_threads');
const { createServer } = require('node:http');
const arrivals = [];
const counts = { drip: 0, hang: 0 };
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (c) => chunks.push(c));
  request.on('end', () => {
    if (request.url.startsWith('/b')) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      arrivals.push({ id: Number(body.data.id), at: Date.now(), delayMs: Date.now() - Date.parse(body.timestamp) });
      response.writeHead(200).end();
    } else if (request.url.startsWith('/drip')) {
      counts.drip++;
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('x');
      const timer = setInterval(() => response.write('x'), 2000);
      response.on('close', () => clearInterval(timer));
    } else {
      counts.hang++;
    }
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'report') parentPort.postMessage({ arrivals, counts: { ...counts } });
  if (message === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort.close());
  }
});
`;

interface ReceiversReport {
  arrivals: { id: number; at: number; delayMs: number }[];
  counts: { drip: number; hang: number };
}

async function startReceivers() {
  const worker = new Worker(receiversSource, { eval: true });
  const next = <T>() => new Promise<T>((resolve) => worker.once('message', resolve));
  const { port } = await next<{ port: number }>();
  return {
    url: `http://127.0.0.1:${port}`,
    report: async () => {
      const answer = next<ReceiversReport>();
      worker.postMessage('report');
      return answer;
    },
    close: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      await worker.terminate();
    },
  };
}
type Receivers = Awaited<ReturnType<typeof startReceivers>>;

/** One JSON:API call of the benchmark's own (set-up and B's shipping loop), with a deadline. */
async function call(url: string, token: string, method: string, route: string, body?: unknown) {
  const answer = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: JSONAPI, ...(body ? { 'content-type': JSONAPI } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? JSON.parse(text) : undefined };
}

async function mustCall(url: string, token: string, method: string, route: string, body?: unknown) {
  const answer = await call(url, token, method, route, body);
  if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

interface Party {
  client: BenchClient;
  token: string;
}

/** What A does during a window: started before it, stopped after it; `stop` tells what A did. */
interface Noise {
  name: string;
  start(): Promise<void>;
  stop(): Promise<string>;
}

interface Window {
  list: LoadResult;
  create: LoadResult;
  /** From the shipped event's timestamp to the arrival. */
  delays: number[];
  /** From the moment B's ship call answered (its transaction committed) to the arrival: the dispatch alone. */
  afterAnswer: number[];
  shipped: number;
  /** B's create-and-ship calls that failed: not 201, or no answer within 30 s. */
  shipFailures: number;
  noise: string;
}

/** Runs bench/neighbours-noise.ts; `stop` ends it (killed if it does not report within 40 s). */
function noiseProcess(order: NoiseOrder, running: Set<ChildProcess>) {
  const child = fork(path.join(repository, 'bench', 'neighbours-noise.ts'), [], {
    cwd: repository,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  const message = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      child.on('message', (m: Record<string, unknown>) => key in m && resolve(m[key] as T));
      void exited.then(() => reject(new Error(`A's noise process exited before it sent ${key}`)));
    });
  const ready = message<true>('ready');
  const report = message<NoiseReport>('report');
  // Awaited by stop(); a process that died before it is reported there, not as an unhandled rejection meanwhile.
  report.catch(() => undefined);
  child.send(order);
  return {
    ready,
    stop: async () => {
      if (child.connected) child.send('stop');
      const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
      try {
        return await report;
      } finally {
        clearTimeout(timer);
        await exited;
      }
    },
  };
}

const statusesText = (statuses: Record<string, Record<string, number>>) =>
  Object.entries(statuses)
    .map(
      ([route, byStatus]) =>
        `\`${route}\` ${Object.entries(byStatus)
          .map(([status, n]) => `${n}×${status}`)
          .join(', ')}`,
    )
    .join('; ') || 'nothing';

/** A's webhooks: 3 dripping and 2 silent receivers per shipment event, while A ships orders. */
function webhooksNoise(url: string, a: Party, receivers: Receivers, running: Set<ChildProcess>): Noise {
  const hooks: number[] = [];
  let noise: ReturnType<typeof noiseProcess> | undefined;
  let before = { drip: 0, hang: 0 };
  return {
    name: "A's webhooks drip and hang",
    start: async () => {
      for (const event of webhookEvents.shipment) {
        for (const target of ['drip', 'drip', 'drip', 'hang', 'hang']) {
          const created = await mustCall(url, a.token, 'POST', '/v3/webhooks', {
            data: { type: 'webhook', attributes: { entity: 'shipment', event, targetUrl: `${receivers.url}/${target}/${hooks.length}` } },
          });
          hooks.push(Number(created.data.id));
        }
      }
      before = (await receivers.report()).counts;
      noise = noiseProcess(
        { kind: 'ship', url, token: a.token, client: a.client, loops: 2, durationMs: seconds * 1000 + 30_000, maxRequests: 5000 },
        running,
      );
      await noise.ready;
      // Until A's first attempts hold their places in the dispatcher.
      await new Promise((resolve) => setTimeout(resolve, 3000));
    },
    stop: async () => {
      const report = await noise!.stop();
      const after = (await receivers.report()).counts;
      // Deleted, so their pending retries do not reach into the next window.
      for (const id of hooks) await mustCall(url, a.token, 'DELETE', `/v3/webhooks/${id}`);
      return `${hooks.length} webhooks; A's calls: ${statusesText(report.statuses)}; attempts that reached A's receivers: ${after.drip - before.drip} dripping, ${after.hang - before.hang} never answered.`;
    },
  };
}

/** A advances its clock a year with `openOrders` open orders that have stock. */
function clockNoise(url: string, a: Party): Noise {
  let advance = '';
  return {
    name: 'A advances a year',
    start: async () => {
      const { client, token } = a;
      const slip = await mustCall(url, token, 'POST', '/v3/inboundPackingSlips', {
        data: { type: 'inboundPackingSlip', attributes: { expectedIn: client.warehouse, reference: 'NEIGHBOURS' } },
        included: client.skus.map((sku, n) => ({ type: 'inboundPackingSlipItem', attributes: { sku, quantity: openOrders * (n + 1) } })),
      });
      await mustCall(url, token, 'POST', `/sandbox/inboundPackingSlips/${slip.data.id}/receive`);
      let made = 0;
      // Four at a time, each call with its deadline: bounded by the count.
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (made < openOrders) {
            made++;
            await mustCall(url, token, 'POST', '/v3/orders', orderDocument(client, `YEAR-${made}`));
          }
        }),
      );
      const started = performance.now();
      const answer = await call(url, token, 'POST', '/sandbox/clock/advance', { seconds: yearSeconds });
      const attributes = answer.body?.data?.attributes ?? {};
      advance = `A's \`POST /sandbox/clock/advance\` (a year, ${openOrders} open orders) answered ${answer.status} (${attributes.status ?? '?'}) in ${ms(performance.now() - started)}`;
    },
    stop: async () => {
      const clock = (await call(url, a.token, 'GET', '/sandbox/clock')).body?.data?.attributes ?? {};
      const progress = typeof clock.progress === 'number' ? `, progress ${(clock.progress * 100).toFixed(0)} %` : '';
      return `${advance}; at the end of B's window A's clock was \`${clock.status ?? '?'}\`${progress}.`;
    },
  };
}

/** A uploads attachments and images in 3 loops, as fast as the server takes them. */
function uploadsNoise(url: string, a: Party, running: Set<ChildProcess>): Noise {
  let noise: ReturnType<typeof noiseProcess> | undefined;
  return {
    name: 'A uploads at full speed',
    start: async () => {
      noise = noiseProcess(
        { kind: 'upload', url, token: a.token, client: a.client, loops: 3, durationMs: seconds * 1000 + 30_000, maxRequests: 1000 },
        running,
      );
      await noise.ready;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    },
    stop: async () => {
      const report = await noise!.stop();
      return `A's calls: ${statusesText(report.statuses)}; ${(report.bytesSent / 2 ** 20).toFixed(0)} MiB sent.`;
    },
  };
}

/** B's window: its two loads and its shipping loop at once, then its deliveries' delays. */
async function window(url: string, b: Party, receivers: Receivers, tag: string, noise?: Noise): Promise<Window> {
  await noise?.start();
  let created = 0;
  const shipments: number[] = [];
  const answeredAt = new Map<number, number>();
  let shipFailures = 0;
  // A failed or late call of B's is counted, not fatal: it is what the window measures.
  const shipOne = async (n: number) => {
    const order = await call(url, b.token, 'POST', '/v3/orders', orderDocument(b.client, `B-SHIP-${tag}-${n}`));
    if (order.status !== 201) return shipFailures++;
    const shipment = await call(url, b.token, 'POST', `/sandbox/orders/${order.body.data.id}/ship`);
    if (shipment.status !== 201) return shipFailures++;
    shipments.push(Number(shipment.body.data.id));
    answeredAt.set(Number(shipment.body.data.id), Date.now());
  };
  const shipping = async () => {
    const until = Date.now() + seconds * 1000;
    for (let n = 0; Date.now() < until && n < (seconds * 1000) / shipEveryMs; n++) {
      const tick = Date.now();
      await shipOne(n).catch(() => shipFailures++);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, shipEveryMs - (Date.now() - tick))));
    }
  };
  let list: LoadResult;
  let create: LoadResult;
  let noiseText = '';
  try {
    [list, create] = await Promise.all([
      load({ url: `${url}/v3/orders`, token: b.token, connections, label: 'list' }),
      load({
        url: `${url}/v3/orders`,
        method: 'POST',
        token: b.token,
        connections,
        label: 'create',
        body: () => JSON.stringify(orderDocument(b.client, `B-${tag}-${++created}`)),
      }),
      shipping(),
    ]);
  } finally {
    if (noise) noiseText = await noise.stop();
  }
  const wanted = new Set(shipments);
  const until = Date.now() + arrivalWaitMs;
  let arrived = (await receivers.report()).arrivals.filter((a) => wanted.has(a.id));
  while (arrived.length < wanted.size && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    arrived = (await receivers.report()).arrivals.filter((a) => wanted.has(a.id));
  }
  return {
    list,
    create,
    delays: arrived.map((a) => a.delayMs),
    afterAnswer: arrived.map((a) => a.at - answeredAt.get(a.id)!),
    shipped: shipments.length,
    shipFailures,
    noise: noiseText,
  };
}

/** B's routes once through before anything is measured: the first window would carry the server's cold start. */
async function warmUp(url: string, b: Party) {
  let warmUps = 0;
  await Promise.all([
    load({ url: `${url}/v3/orders`, token: b.token, connections, label: 'warm-up', duration: 3 }),
    load({
      url: `${url}/v3/orders`,
      method: 'POST',
      token: b.token,
      connections,
      label: 'warm-up',
      duration: 3,
      body: () => JSON.stringify(orderDocument(b.client, `B-WARM-${++warmUps}`)),
    }),
  ]);
  const order = await mustCall(url, b.token, 'POST', '/v3/orders', orderDocument(b.client, `B-WARM-${++warmUps}`));
  await mustCall(url, b.token, 'POST', `/sandbox/orders/${order.data.id}/ship`);
}

/** A load's percentile, NaN when nothing answered (autocannon then reports 0). */
const latency = (result: LoadResult, which: 'p50' | 'p99') => (result.total ? result[which] : Number.NaN);
const shown = (value: number) => (Number.isNaN(value) ? 'n/a' : ms(value));

function table(alone: Window, noisy: [Noise, Window][]): string[] {
  const rows: [string, (w: Window) => number][] = [
    ['`GET /v3/orders` p50', (w) => latency(w.list, 'p50')],
    ['`GET /v3/orders` p99', (w) => latency(w.list, 'p99')],
    ['`POST /v3/orders` p50', (w) => latency(w.create, 'p50')],
    ['`POST /v3/orders` p99', (w) => latency(w.create, 'p99')],
    ["B's webhook delay p50", (w) => percentile(w.delays, 50)],
    ["B's webhook delay p99", (w) => percentile(w.delays, 99)],
    ["B's delivery after its ship call answered, p50", (w) => percentile(w.afterAnswer, 50)],
    ["B's delivery after its ship call answered, p99", (w) => percentile(w.afterAnswer, 99)],
  ];
  const lines = [
    `| B's figure | B alone | ${noisy.map(([n]) => `${n.name} | ×`).join(' | ')} |`,
    `|---|---|${noisy.map(() => '---|---').join('|')}|`,
  ];
  for (const [label, pick] of rows) {
    const base = pick(alone);
    const cells = noisy.map(([, w]) => {
      const value = pick(w);
      // A ratio of two positive figures only: the time after the ship's answer is negative when the delivery came first.
      return `${shown(value)} | ${value > 0 && base > 0 ? ratio(value, base) : 'n/a'}`;
    });
    lines.push(`| ${label} | ${shown(base)} | ${cells.join(' | ')} |`);
  }
  const answers = (w: Window) =>
    `${w.list.total + w.create.total} (${w.list.non2xx + w.create.non2xx} non-2xx, ${w.list.errors + w.create.errors} errors); ${w.delays.length}/${w.shipped} delivered${w.shipFailures ? `, ${w.shipFailures} ships failed` : ''}`;
  lines.push(`| B's answers; deliveries | ${answers(alone)} | ${noisy.flatMap(([, w]) => [answers(w), '']).join(' | ')} |`);
  return lines;
}

function verdict(alone: Window, noisy: [Noise, Window][]): string {
  const misses: string[] = [];
  for (const [noise, w] of noisy) {
    for (const [route, pick] of [
      ['GET', (x: Window) => latency(x.list, 'p99')],
      ['POST', (x: Window) => latency(x.create, 'p99')],
    ] as const) {
      // Not answered at all, alone or under noise, is a miss too (NaN compares false).
      if (!(pick(w) <= p99Goal * pick(alone)))
        misses.push(`${route} p99 ${shown(pick(w))} against ${shown(pick(alone))} alone while ${noise.name}`);
    }
  }
  for (const [name, w] of [['alone', alone], ...noisy.map(([n, x]) => [n.name, x] as const)] as const) {
    const p99 = percentile(w.delays, 99);
    if (!(p99 < delayGoalMs) || w.delays.length < w.shipped || w.shipFailures)
      misses.push(
        `webhook delay p99 ${Number.isNaN(p99) ? 'n/a' : ms(p99)} (${w.delays.length}/${w.shipped} delivered, ${w.shipFailures} ships failed) ${name === 'alone' ? 'alone' : `while ${name}`}`,
      );
  }
  return misses.length
    ? `Goal **not met**: ${misses.join('; ')}.`
    : `Goal **met**: every p99 within ${p99Goal}× alone, every delivery of B under ${delayGoalMs / 1000} s.`;
}

async function onDatabase(title: string, env: Record<string, string>, open: { databaseUrl?: string; dataDir?: string }): Promise<string[]> {
  const names = ['b', 'hooks', 'clock', 'uploads'].map((role) => `neighbours_${role}_${Date.now().toString(36)}`);
  const database = await openDatabase({ ...open, poolSize: 2 });
  let clients: BenchClient[];
  try {
    clients = [];
    for (const name of names) clients.push(await seedClient(database.db, name));
    await seedOrders(database.db, clients[0], 100);
  } finally {
    await database.close();
  }
  const running = new Set<ChildProcess>();
  const receivers = await startReceivers();
  const sandbox = spawnSandbox({
    PORT: String(await freePort()),
    ...env,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_PER_HOUR: '1000000000',
  });
  try {
    await waitForAnswer(sandbox.url);
    const url = sandbox.url;
    const [b, hooks, clock, uploads] = await Promise.all(clients.map(async (client) => ({ client, token: await tokenFor(url, client) })));
    await mustCall(url, b.token, 'POST', '/v3/webhooks', {
      data: { type: 'webhook', attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: `${receivers.url}/b` } },
    });
    console.log(`neighbours (${title}): warming up`);
    await warmUp(url, b);
    console.log(`neighbours (${title}): B alone`);
    const alone = await window(url, b, receivers, 'alone');
    const noisy: [Noise, Window][] = [];
    // The clock last: its catch-up may still run when its window ends.
    for (const noise of [webhooksNoise(url, hooks, receivers, running), uploadsNoise(url, uploads, running), clockNoise(url, clock)]) {
      console.log(`neighbours (${title}): B while ${noise.name}`);
      noisy.push([noise, await window(url, b, receivers, String(noisy.length), noise)]);
    }
    return [
      `#### ${title}`,
      '',
      ...table(alone, noisy),
      '',
      ...noisy.map(([noise, w]) => `- ${noise.name}: ${w.noise}`),
      '',
      verdict(alone, noisy),
      '',
    ];
  } finally {
    for (const child of running) child.kill('SIGKILL');
    await sandbox.stop();
    await receivers.close();
  }
}

export async function benchNeighbours(databaseUrl: string): Promise<string[]> {
  const lines = await onDatabase('PostgreSQL', { DATABASE_URL: databaseUrl }, { databaseUrl });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-neighbours-'));
  try {
    lines.push(...(await onDatabase('PGlite (embedded, a temporary DATA_DIR)', { DATA_DIR: dataDir }, { dataDir })));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return lines;
}
