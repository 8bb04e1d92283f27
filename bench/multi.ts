// Scenario 4: two server processes on one PostgreSQL against one, creating orders; then every 201 is checked in the database.
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/src/platform/db/index.ts';
import { load, ms, orderDocument, ratio, rps, rowsOf, seedClient, tokenFor, type BenchClient, type LoadResult } from './lib.ts';
import { spawnSandbox, waitForAnswer, type Sandbox } from './processes.ts';
import { freePort } from '../server/test/support/ports.ts';

interface Phase {
  processes: number;
  results: LoadResult[];
  created: string[];
  statuses: Map<number, number>;
}

async function phase(databaseUrl: string, client: BenchClient, processes: number, prefix: string): Promise<Phase> {
  const sandboxes: Sandbox[] = [];
  try {
    for (let i = 0; i < processes; i++) {
      sandboxes.push(spawnSandbox({ PORT: String(await freePort()), DATABASE_URL: databaseUrl, RATE_LIMIT_PER_HOUR: '1000000000' }));
    }
    await Promise.all(sandboxes.map((s) => waitForAnswer(s.url)));
    const token = await tokenFor(sandboxes[0].url, client);
    const created: string[] = [];
    const statuses = new Map<number, number>();
    let n = 0;
    console.log(`multi: ${processes} process(es)`);
    // 20 connections in all, shared among the processes: one autocannon per process, run together.
    const results = await Promise.all(
      sandboxes.map((s, index) => {
        const sent: string[] = [];
        return load({
          url: `${s.url}/v3/orders`,
          method: 'POST',
          token,
          connections: 20 / processes,
          label: `process ${index + 1}`,
          body: () => {
            const number = `${prefix}-${++n}`;
            sent.push(number);
            return JSON.stringify(orderDocument(client, number));
          },
          onResponse: (status, body) => {
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status === 201)
              created.push(
                (JSON.parse(body) as { data: { attributes: { externalOrderNumber: string } } }).data.attributes.externalOrderNumber,
              );
          },
        });
      }),
    );
    return { processes, results, created, statuses };
  } finally {
    await Promise.all(sandboxes.map((s) => s.stop()));
  }
}

export async function benchMulti(databaseUrl: string): Promise<string[]> {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    const client = await seedClient(database.db);
    const one = await phase(databaseUrl, client, 1, 'M1');
    const two = await phase(databaseUrl, client, 2, 'M2');
    const lines = [
      '| Processes | Command (per process) | req/s (sum) | p50 | p99 | 201 answers | other answers |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const p of [one, two]) {
      const total = p.results.reduce((sum, r) => sum + r.requestsPerSecond, 0);
      const p50 = Math.max(...p.results.map((r) => r.p50));
      const p99 = Math.max(...p.results.map((r) => r.p99));
      const others =
        [...p.statuses]
          .filter(([s]) => s !== 201)
          .map(([s, c]) => `${c}×${s}`)
          .join(', ') || 'none';
      lines.push(
        `| ${p.processes} | \`${p.results[0].command}\` ${p.processes > 1 ? 'against each process at once' : ''} | ${rps(total)} | ${ms(p50)} | ${ms(p99)} | ${p.created.length} | ${others} |`,
      );
    }
    const sum = (p: Phase) => p.results.reduce((s, r) => s + r.requestsPerSecond, 0);
    lines.push(
      '',
      `Ratio two processes / one (req/s): **${ratio(sum(two), sum(one))}** (the server, PostgreSQL and autocannon share ${'2'} cores here, so this shows that processes do not get in each other's way rather than how they scale on more cores).`,
    );
    // Correctness: every 201 is an order with its five items and two addresses; no external number twice.
    const created = [...one.created, ...two.created];
    const [check] = rowsOf(
      await database.db.execute(sql`
      select count(*)::int as orders,
             count(distinct o.external_order_number)::int as distinct_numbers,
             count(*) filter (where (select count(*) from order_items i where i.order_id = o.id) <> 5)::int as wrong_items,
             count(*) filter (where (select count(*) from addresses a where a.order_id = o.id) <> 2)::int as wrong_addresses
      from orders o where o.client_id = ${client.clientId}`),
    );
    const inDatabase = new Set(
      rowsOf(await database.db.execute(sql`select external_order_number as n from orders where client_id = ${client.clientId}`)).map((r) =>
        String(r.n),
      ),
    );
    const missing = created.filter((n) => !inDatabase.has(n)).length;
    const duplicates201 = created.length - new Set(created).size;
    lines.push(
      '',
      `Correctness after both runs: ${created.length} answers 201; ${missing} of them missing in the database; ${Number(check.orders)} orders in the database for the client (${Number(check.orders) - created.length} without a 201, e.g. cut off when the run ended); ${Number(check.orders) - Number(check.distinct_numbers)} duplicate external numbers in the database, ${duplicates201} in the 201 answers; ${Number(check.wrong_items)} orders without exactly 5 items, ${Number(check.wrong_addresses)} without exactly 2 addresses. **${missing === 0 && duplicates201 === 0 && Number(check.orders) === Number(check.distinct_numbers) && !Number(check.wrong_items) && !Number(check.wrong_addresses) ? 'Consistent' : 'INCONSISTENT'}**.`,
    );
    return lines;
  } finally {
    await database.close();
  }
}
