// Scenario 3: the list page and a single-order read at 10 thousand, 100 thousand and 1 million orders (PostgreSQL),
// rows bulk-inserted with generate_series (not through the API) and ANALYZEd before each measurement.
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/src/platform/db/index.ts';
import { load, ms, ratio, rps, seedClient, seedOrders, startBenchServer, type LoadResult } from './lib.ts';

const sizes = [10_000, 100_000, 1_000_000];
const batch = 100_000;
/** Loading stops when it has taken this long; the sizes reached are reported. */
const loadBudgetMs = Number(process.env.BENCH_SCALE_LOAD_BUDGET_S ?? 420) * 1000;

export async function benchScale(databaseUrl: string): Promise<string[]> {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  const client = await seedClient(database.db);
  const server = await startBenchServer({ DATABASE_URL: databaseUrl, BENCH_CLIENT: JSON.stringify(client) });
  const lines: string[] = [
    '| Orders in the database | Load time (cumulative) | Request | req/s | p50 | p99 |',
    '|---|---|---|---|---|---|',
  ];
  const measured = new Map<number, { page: LoadResult; deep: LoadResult; single: LoadResult }>();
  const started = Date.now();
  let loaded = 0;
  let stoppedEarly = '';
  try {
    for (const size of sizes) {
      while (loaded < size) {
        if (Date.now() - started > loadBudgetMs) {
          stoppedEarly = `Loading stopped after ${((Date.now() - started) / 1000).toFixed(0)} s at ${loaded.toLocaleString('en-US')} orders (budget ${loadBudgetMs / 1000} s).`;
          break;
        }
        const n = Math.min(batch, size - loaded);
        await seedOrders(database.db, client, n, { analyze: false });
        loaded += n;
        console.log(`scale: ${loaded} orders after ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
      if (loaded < size) break;
      await database.db.execute(sql`analyze`);
      const loadSeconds = ((Date.now() - started) / 1000).toFixed(0);
      const ids = (await database.db.execute(
        sql`select min(id) as lo, max(id) as hi from orders where client_id = ${client.clientId}`,
      )) as unknown as { rows: { lo: number; hi: number }[] };
      const { lo, hi } = ids.rows[0];
      const middle = Math.floor((Number(lo) + Number(hi)) / 2);
      const page = await load({ url: `${server.url}/v3/orders?include=orderItems&page[size]=100`, token: server.token, label: 'page' });
      const deep = await load({
        url: `${server.url}/v3/orders?include=orderItems&page[size]=100&page[cursor]=${Number(hi) - 150}`,
        token: server.token,
        label: 'deep page',
      });
      const single = await load({ url: `${server.url}/v3/orders/${middle}?include=orderItems`, token: server.token, label: 'single' });
      for (const r of [page, deep, single])
        if (r.non2xx || r.errors) throw new Error(`${r.command}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      measured.set(size, { page, deep, single });
      const label = size.toLocaleString('en-US');
      lines.push(
        `| ${label} | ${loadSeconds} s | \`${page.command}\` (first page) | ${rps(page.requestsPerSecond)} | ${ms(page.p50)} | ${ms(page.p99)} |`,
      );
      lines.push(
        `| ${label} | | \`${deep.command}\` (last page, keyset cursor) | ${rps(deep.requestsPerSecond)} | ${ms(deep.p50)} | ${ms(deep.p99)} |`,
      );
      lines.push(
        `| ${label} | | \`${single.command}\` (an order in the middle) | ${rps(single.requestsPerSecond)} | ${ms(single.p50)} | ${ms(single.p99)} |`,
      );
    }
  } finally {
    await server.stop();
    await database.close();
  }
  const small = measured.get(sizes[0]);
  const largest = [...measured.keys()].pop();
  const big = largest ? measured.get(largest) : undefined;
  lines.push('');
  if (small && big && largest !== sizes[0]) {
    const name = largest === 1_000_000 ? '1M/10k' : `${largest!.toLocaleString('en-US')}/10k`;
    lines.push(
      `Ratio ${name} (p50 latency; 1.00 is flat): first page **${ratio(big.page.p50, small.page.p50)}** (p99 ${ratio(big.page.p99, small.page.p99)}), last page **${ratio(big.deep.p50, small.deep.p50)}** (p99 ${ratio(big.deep.p99, small.deep.p99)}), single order **${ratio(big.single.p50, small.single.p50)}** (p99 ${ratio(big.single.p99, small.single.p99)}).`,
    );
  }
  if (stoppedEarly) lines.push('', stoppedEarly);
  return lines;
}
