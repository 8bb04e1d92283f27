// Scenario 5: webhook dispatch into a receiver on 127.0.0.1 that answers 200. Drain: a backlog of 10 thousand due
// deliveries sent by dispatchDue rounds; latency: events emitted at a steady rate while the server's dispatcher timer
// (startDispatcher, 1 s interval, as cli.ts start runs it) delivers them.
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, schema, type Db } from '../server/src/platform/db/index.ts';
import { dispatchDue, startDispatcher } from '../server/src/modules/webhooks/dispatcher.ts';
import { emitEvent } from '../server/src/modules/webhooks/outbox.ts';
import { ms, percentile, rowsOf, seconds, seedClient } from './lib.ts';

const backlog = 10_000;

async function receiver(onDelivery: (body: string) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      onDelivery(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook` };
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
  const database = await openDatabase({ databaseUrl, poolSize: 10 });
  const db = database.db;
  const lines: string[] = [];
  try {
    // Drain.
    const drainClient = await seedClient(db);
    let received = 0;
    const drainReceiver = await receiver(() => {
      received++;
    });
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
    drainReceiver.server.close();
    lines.push(
      '| Measurement | How | Result |',
      '|---|---|---|',
      `| Drain a backlog of ${backlog.toLocaleString('en-US')} due deliveries (one client, one webhook) | \`dispatchDue(db, { allowPrivateTargets: true })\` in a loop until nothing is due; receiver on 127.0.0.1 answers 200 | **${Math.round(Number(state.delivered) / drainSeconds).toLocaleString('en-US')} events/s** (${Number(state.delivered)}/${Number(state.total)} delivered in ${drainSeconds.toFixed(1)} s; ${received} requests received) |`,
    );

    // Latency with the receiver up.
    const latencyClient = await seedClient(db);
    const latencies: number[] = [];
    const latencyReceiver = await receiver((body) => {
      const data = (JSON.parse(body) as { data: { emittedAt: number } }).data;
      latencies.push(Date.now() - data.emittedAt);
    });
    await webhookFor(db, latencyClient.clientId, latencyReceiver.url);
    const dispatcher = startDispatcher(db, { allowPrivateTargets: true, intervalMs: 1000, onError: (error) => console.error(error) });
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
    while (latencies.length < emitted && Date.now() < settle) await new Promise((r) => setTimeout(r, 50));
    await dispatcher.stop();
    latencyReceiver.server.close();
    lines.push(
      `| Event-to-delivery latency, receiver up | ${emitted} events emitted with \`emitEvent\` (each in its own transaction) at ${rate}/s for ${seconds} s; \`startDispatcher\` with the server's 1 s interval | p50 **${ms(percentile(latencies, 50))}**, p99 **${ms(percentile(latencies, 99))}** (${latencies.length}/${emitted} delivered) |`,
    );
    lines.push(
      '',
      "The latency is bounded below by the dispatcher's 1 s polling interval (an event waits for the next tick: about 0.5 s on average); the send itself takes a few milliseconds.",
    );
  } finally {
    await database.close();
  }
  return lines;
}
