// Scenario 5: webhook dispatch into a receiver on 127.0.0.1 that answers 200. Drain: a backlog of 10 thousand due
// deliveries of one client sent by dispatchDue (its share of the dispatcher: 8 sends at once); latency: events emitted at a steady rate while the server's dispatcher
// (startDispatcher woken by NOTIFY on commit, as cli.ts start runs it) delivers them.
import { Worker } from 'node:worker_threads';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { defaultPoolSize, openDatabase, schema, type Db } from '../server/src/platform/db/index.ts';
import { deliveriesChannel, dispatchDue, startDispatcher } from '../server/src/modules/webhooks/dispatcher.ts';
import { emitEvent } from '../server/src/modules/webhooks/outbox.ts';
import { ms, percentile, rowsOf, seconds, seedClient } from './lib.ts';

const backlog = 10_000;

// The receiver runs on a thread of its own, as a real receiver runs elsewhere: sharing the dispatcher's event loop, its
// request handling would be counted as the dispatcher's time. It counts requests and, for bodies that carry
// data.emittedAt, the time from emission to arrival.
const receiverSource = `
const { parentPort } = require('node:worker_threads');
const { createServer } = require('node:http');
let count = 0;
const latencies = [];
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (c) => chunks.push(c));
  request.on('end', () => {
    count++;
    const data = JSON.parse(Buffer.concat(chunks).toString('utf8')).data;
    if (data.emittedAt) latencies.push(Date.now() - data.emittedAt);
    response.writeHead(200).end();
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'report') parentPort.postMessage({ count, latencies });
  if (message === 'close') server.close(() => parentPort.close());
});
`;

interface Receiver {
  url: string;
  report(): Promise<{ count: number; latencies: number[] }>;
  close(): Promise<void>;
}

async function receiver(): Promise<Receiver> {
  const worker = new Worker(receiverSource, { eval: true });
  const next = <T>() => new Promise<T>((resolve) => worker.once('message', resolve));
  const { port } = await next<{ port: number }>();
  return {
    url: `http://127.0.0.1:${port}/hook`,
    report: async () => {
      const answer = next<{ count: number; latencies: number[] }>();
      worker.postMessage('report');
      return answer;
    },
    close: async () => {
      worker.postMessage('close');
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

async function webhookFor(db: Db, clientId: number, targetUrl: string) {
  const [row] = await db
    .insert(schema.webhooks)
    .values({
      clientId,
      entity: 'shipment',
      event: 'shipment.shipped.3',
      targetUrl,
      secret: `whsec_${randomBytes(24).toString('base64')}`,
    })
    .returning({ id: schema.webhooks.id });
  return row.id;
}

export async function benchWebhooks(databaseUrl: string): Promise<string[]> {
  // The pool a server process has (its dispatcher books outcomes on it).
  const database = await openDatabase({ databaseUrl, poolSize: defaultPoolSize });
  const db = database.db;
  const lines: string[] = [];
  try {
    // Drain.
    const drainClient = await seedClient(db);
    const drainReceiver = await receiver();
    const webhookId = await webhookFor(db, drainClient.clientId, drainReceiver.url);
    await db.execute(
      sql.raw(`insert into events (id, client_id, type, entity, entity_id, payload, occurred_on)
      select gen_random_uuid(), ${drainClient.clientId}, 'shipment.shipped.3', 'shipment', g, jsonb_build_object('type', 'shipment', 'id', g), now()
      from generate_series(1, ${backlog}) g`),
    );
    await db.execute(
      sql.raw(`insert into webhook_deliveries (client_id, event_id, webhook_id, next_attempt_at)
      select client_id, id, ${webhookId}, now() from events where client_id = ${drainClient.clientId} order by sequence`),
    );
    console.log('webhooks: draining');
    const started = performance.now();
    let rounds = 0;
    // Bounded: each round sends what is due; a backlog that does not shrink ends the loop.
    for (; rounds < 1000; rounds++) {
      const report = await dispatchDue(db, { allowPrivateTargets: true });
      if (!report.attempted) break;
    }
    const drainSeconds = (performance.now() - started) / 1000;
    const [state] = rowsOf(
      await db.execute(
        sql`select count(*) filter (where delivered_at is not null)::int as delivered, count(*)::int as total from webhook_deliveries where client_id = ${drainClient.clientId}`,
      ),
    );
    const received = (await drainReceiver.report()).count;
    await drainReceiver.close();
    lines.push(
      '| Measurement | How | Result |',
      '|---|---|---|',
      `| Drain a backlog of ${backlog.toLocaleString('en-US')} due deliveries (one client, one webhook) | \`dispatchDue(db, { allowPrivateTargets: true })\` in a loop until nothing is due; receiver on 127.0.0.1 (its own thread) answers 200 | **${Math.round(Number(state.delivered) / drainSeconds).toLocaleString('en-US')} events/s** (${Number(state.delivered)}/${Number(state.total)} delivered in ${drainSeconds.toFixed(1)} s; ${received} requests received) |`,
    );

    // Latency with the receiver up.
    const latencyClient = await seedClient(db);
    const latencyReceiver = await receiver();
    await webhookFor(db, latencyClient.clientId, latencyReceiver.url);
    // As cli.ts start runs it: woken by the outbox's NOTIFY at commit, the 1 s interval as the fallback.
    const dispatcher = startDispatcher(db, { allowPrivateTargets: true, intervalMs: 1000, onError: (error) => console.error(error) });
    const stopListening = await database.listen(deliveriesChannel, dispatcher.notified, (error) => console.error(error));
    const rate = 50;
    let emitted = 0;
    console.log('webhooks: latency');
    const until = Date.now() + seconds * 1000;
    while (Date.now() < until) {
      const tick = Date.now();
      for (let i = 0; i < rate / 10; i++) {
        emitted++;
        await db.transaction(async (tx) =>
          emitEvent(tx as unknown as Db, latencyClient.clientId, {
            type: 'shipment.shipped.3',
            entity: 'shipment',
            entityId: emitted,
            data: { type: 'shipment', id: emitted, emittedAt: Date.now() },
            occurredOn: new Date(),
          }),
        );
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - tick))));
    }
    // Let the last ones go out: at most a few dispatcher ticks.
    const settle = Date.now() + 5000;
    let latencies = (await latencyReceiver.report()).latencies;
    while (latencies.length < emitted && Date.now() < settle) {
      await new Promise((r) => setTimeout(r, 50));
      latencies = (await latencyReceiver.report()).latencies;
    }
    await stopListening();
    await dispatcher.stop();
    await latencyReceiver.close();
    lines.push(
      `| Event-to-delivery latency, receiver up | ${emitted} events emitted with \`emitEvent\` (each in its own transaction) at ${rate}/s for ${seconds} s; \`startDispatcher\` woken by the outbox's NOTIFY on commit (\`database.listen\`), as the server runs it | p50 **${ms(percentile(latencies, 50))}**, p99 **${ms(percentile(latencies, 99))}** (${latencies.length}/${emitted} delivered) |`,
    );
    lines.push(
      '',
      "The dispatcher is woken when the event's transaction commits (LISTEN/NOTIFY; in PGlite the same, in-process), sends at most 8 deliveries of one client at once (holding 8 more claimed ahead), and books the outcomes finished meanwhile in one transaction at most every 100 ms; the 1 s interval only catches retries that fell due and lost notifications.",
    );
  } finally {
    await database.close();
  }
  return lines;
}
