// Several server processes on one PostgreSQL database, each running the warehouse's pacer, race for the last units of a
// product while "ship now" races their steps: exactly as many shipments as units, every one shipped, no 500, no deadlock
// in any log. (PostgreSQL only: an embedded database has one process; stock-races.test.ts races transactions in one app.)
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, serverEnv, startServerProcess, tokenFor, type ServerEnv, type ServerProcess } from './support/server-process.ts';
import { checkAgainstOpenApi } from './support/openapi-check.ts';
import { orderDocument, uniqueNumber } from './support/fixtures.ts';

const processes = 3;
const units = 10;
const ordersPerRound = 50;
const rounds = 3;

let env: ServerEnv;
let servers: ServerProcess[] = [];
let token: string;
let orderTypeIds: number[];
let database: pg.Client;

interface Answer {
  status: number;
  body: any;
}

async function call(server: ServerProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.api+json',
      ...(body === undefined ? {} : { 'content-type': 'application/vnd.api+json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : undefined;
  checkAgainstOpenApi(method, path, response.status, response.headers.get('content-type') ?? '', parsed);
  return { status: response.status, body: parsed };
}

const created = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return Number(answer.body.data.id);
};

/** The round's figures for one sku, read from the database all processes share. */
async function figures(sku: string) {
  const { rows } = await database.query(
    `select
       (select count(*)::int from shipments s where exists (select 1 from shipment_items i where i.shipment_id = s.id and i.sku = $1)) as shipments,
       (select count(*)::int from shipments s where s.status = 'SHIPPED' and exists (select 1 from shipment_items i where i.shipment_id = s.id and i.sku = $1)) as shipped,
       (select count(*)::int from shipments s where s.status = 'ERROR' and exists (select 1 from shipment_items i where i.shipment_id = s.id and i.sku = $1)) as "inError",
       (select coalesce(sum(quantity), 0)::int from stock where sku = $1) as "onHand",
       (select coalesce(-sum(quantity), 0)::int from stock_mutations where sku = $1 and type = 'SHIPMENT') as "bookedOut",
       (select count(*)::int from stock_mutations where sku = $1 and type = 'CORRECTION') as corrections`,
    [sku],
  );
  return rows[0] as { shipments: number; shipped: number; inError: number; onHand: number; bookedOut: number; corrections: number };
}

/** The orders of the sku with a shipment still under way (the ones "ship now" can race the pacers on). */
async function ordersUnderWay(sku: string): Promise<number[]> {
  const { rows } = await database.query(
    `select distinct s.order_id as id from shipments s join shipment_items i on i.shipment_id = s.id
      where i.sku = $1 and s.status not in ('SHIPPED', 'ERROR') order by s.order_id`,
    [sku],
  );
  return rows.map((r) => Number(r.id));
}

/** A logged error in one line: its message and its cause's (the database's words, such as "deadlock detected"). */
function summary(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: string; err?: { message?: string; cause?: { message?: string } } };
    return `${entry.msg}: ${entry.err?.cause?.message ?? entry.err?.message ?? ''}`.slice(0, 300);
  } catch {
    return line.slice(0, 300);
  }
}

beforeAll(async () => {
  // Every process runs the pacer, one warehouse round a second, as the documented set-up does with its default pace.
  env = await serverEnv({ SANDBOX_STEP_SECONDS: '1' });
  servers = await Promise.all(Array.from({ length: processes }, () => startServerProcess(env.env)));
  const withCredentials = servers.find((s) => /password: \S+/.test(s.output()))!;
  token = await tokenFor(servers[0].url, demoCredentials(withCredentials));
  const settings = await fetch(`${servers[0].url}/settings/get`, { headers: { authorization: `Bearer ${token}` } });
  orderTypeIds = ((await settings.json()) as { result: { orderTypes: { id: number }[] } }).result.orderTypes.map((t) => t.id);
  database = new pg.Client({ connectionString: env.env.DATABASE_URL });
  await database.connect();
}, 180_000);

afterAll(async () => {
  await database?.end();
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  env?.cleanup();
});

describe(`${processes} server processes, each running the warehouse, on one PostgreSQL database`, () => {
  for (let round = 1; round <= rounds; round++) {
    it(`round ${round}: ${units} units, ${ordersPerRound} one-unit orders: exactly ${units} shipments, all shipped, the other orders wait`, {
      timeout: 240_000,
    }, async () => {
      const sku = `LAST-UNITS-${round}`;
      const server = (n: number) => servers[n % processes];
      created(
        await call(server(0), 'POST', '/v3/products', { data: { type: 'product', attributes: { sku, name: `Last units ${round}` } } }),
      );
      const orderIds: number[] = [];
      for (let first = 0; first < ordersPerRound; first += processes) {
        const batch = Array.from({ length: Math.min(processes, ordersPerRound - first) }, (_, n) =>
          call(
            server(n),
            'POST',
            '/v3/orders',
            orderDocument({ orderTypeIds }, { externalOrderNumber: uniqueNumber('RACE'), items: [{ sku, quantity: 1 }] }),
          ),
        );
        orderIds.push(...(await Promise.all(batch)).map(created));
      }
      const slip = created(
        await call(server(1), 'POST', '/v3/inboundPackingSlips', {
          data: { type: 'inboundPackingSlip', attributes: { expectedIn: 'NR', reference: uniqueNumber('PS') } },
          included: [{ type: 'inboundPackingSlipItem', attributes: { sku, quantity: units } }],
        }),
      );
      // The goods land: from the next pacer round on, every process starts shipments for the waiting orders at once.
      created(await call(server(2), 'POST', `/sandbox/inboundPackingSlips/${slip}/receive`));

      // Meanwhile "ship now" on orders whose shipment is under way, on every process: it races the pacers' steps.
      const shipNowStatuses: number[] = [];
      const shippedNow = new Set<number>();
      const deadline = Date.now() + 120_000;
      let now = await figures(sku);
      while (Date.now() < deadline) {
        const underWay = (await ordersUnderWay(sku)).filter((id) => !shippedNow.has(id)).slice(0, processes);
        if (!underWay.length && now.onHand === 0 && now.shipments > 0) break;
        for (const id of underWay) shippedNow.add(id);
        const answers = await Promise.all(underWay.map((id, n) => call(server(n), 'POST', `/sandbox/orders/${id}/ship`)));
        shipNowStatuses.push(...answers.map((a) => a.status));
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = await figures(sku);
      }
      // Settled: nothing on the shelf, nothing under way. One more pacer round changes nothing.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const settled = await figures(sku);

      // 201 shipped it, 422 if a pacer shipped it first (the order is fulfilled); never a 5xx.
      expect(
        shipNowStatuses.filter((s) => s !== 201 && s !== 422),
        `ship now answered ${shipNowStatuses.join(', ')}`,
      ).toEqual([]);
      expect(settled, `round ${round}: ${JSON.stringify(settled)}`).toEqual({
        shipments: units,
        shipped: units,
        inError: 0,
        onHand: 0,
        bookedOut: units,
        corrections: 0,
      });
      // The orders that got no unit wait, without a shipment; they go on hold so later rounds do not walk them.
      const { rows } = await database.query('select order_id as id from shipments where order_id = any($1::int[])', [orderIds]);
      const waiting = orderIds.filter((id) => !rows.some((r) => Number(r.id) === id));
      expect(waiting).toHaveLength(ordersPerRound - units);
      await database.query('update orders set on_hold = true where id = any($1::int[])', [waiting]);
    });
  }

  it('logged no error in any process: no deadlock, no failed warehouse step, no 500', () => {
    for (const server of servers) {
      const errors = server
        .output()
        .split('\n')
        .filter((line) => /deadlock|"level":(50|60)/.test(line))
        .map(summary);
      expect(errors).toEqual([]);
    }
  });
});
