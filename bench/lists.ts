// Scenario 1: the two hot list pages against baselines of the same size through the same serializer, in one server:
// both warmed up, then three alternating rounds, as the create scenario does, so a drift of the shared machine falls on
// both sides.
import { load, ms, percentile, ratio, rps, seconds, startBenchServer, type LoadResult } from './lib.ts';

const pages = [
  { name: 'orders', route: '/v3/orders?include=orderItems&page[size]=100', baseline: '/bench/baseline/orders' },
  { name: 'shipments', route: '/v3/shipments?include=shipmentItems&page[size]=100', baseline: '/bench/baseline/shipments' },
];
const rounds = 3;
const warmUpSeconds = Math.min(3, seconds);
const median = (values: number[]) => percentile(values, 50);

const row = (database: string, routes: LoadResult[], baselines: LoadResult[]) => {
  const perRound = (runs: LoadResult[]) => runs.map((r) => rps(r.requestsPerSecond)).join(', ');
  const ratios = routes.map((r, i) => (r.requestsPerSecond / baselines[i].requestsPerSecond).toFixed(2)).join(', ');
  const [r, b] = [routes, baselines].map((runs) => ({
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
  }));
  return `| ${database} | \`${routes[0].command}\` | ${perRound(routes)} | ${ms(r.p50)} | ${ms(r.p99)} | \`${baselines[0].command}\` | ${perRound(baselines)} | ${ms(b.p50)} | ${ms(b.p99)} | ${ratios} | **${ratio(r.requestsPerSecond, b.requestsPerSecond)}** | ${(routes[0].bytesPerRequest / 1024).toFixed(1)} KB |`;
};

/** databaseUrl: PostgreSQL; undefined: PGlite in memory inside the server process. */
export async function benchLists(database: string, databaseUrl: string | undefined): Promise<string[]> {
  const server = await startBenchServer({ ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), BENCH_SEED_ORDERS: '200' });
  const rows: string[] = [];
  try {
    for (const page of pages) {
      console.log(`lists ${database} ${page.name}`);
      const route = (duration?: number) => load({ url: server.url + page.route, token: server.token, label: page.name, duration });
      const baseline = (duration?: number) => load({ url: server.url + page.baseline, label: `${page.name} baseline`, duration });
      // Unmeasured: the first requests of each run cold (JIT, prepared statements, the pool's connections).
      await route(warmUpSeconds);
      await baseline(warmUpSeconds);
      const routes: LoadResult[] = [];
      const baselines: LoadResult[] = [];
      for (let round = 0; round < rounds; round++) {
        routes.push(await route());
        baselines.push(await baseline());
      }
      const failed = routes.find((r) => r.non2xx || r.errors);
      if (failed) throw new Error(`${page.route}: ${failed.non2xx} non-2xx, ${failed.errors} errors`);
      rows.push(row(database, routes, baselines));
    }
  } finally {
    await server.stop();
  }
  return rows;
}

export const listHeader = [
  '| Database | Route | req/s per round | p50 (median) | p99 (median) | Baseline | req/s per round | p50 (median) | p99 (median) | Ratio per round | Ratio of the medians (req/s) | Body |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];
