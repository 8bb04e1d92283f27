// Scenario 1: the two hot list pages against baselines of the same size through the same serializer, in one server.
import { load, ms, ratio, rps, startBenchServer, type LoadResult } from './lib.ts';

const pages = [
  { name: 'orders', route: '/v3/orders?include=orderItems&page[size]=100', baseline: '/bench/baseline/orders' },
  { name: 'shipments', route: '/v3/shipments?include=shipmentItems&page[size]=100', baseline: '/bench/baseline/shipments' },
];

const row = (database: string, r: LoadResult, b: LoadResult) =>
  `| ${database} | \`${r.command}\` | ${rps(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p99)} | \`${b.command}\` | ${rps(b.requestsPerSecond)} | ${ms(b.p50)} | ${ms(b.p99)} | **${ratio(r.requestsPerSecond, b.requestsPerSecond)}** | ${(r.bytesPerRequest / 1024).toFixed(1)} KB |`;

/** databaseUrl: PostgreSQL; undefined: PGlite in memory inside the server process. */
export async function benchLists(database: string, databaseUrl: string | undefined): Promise<string[]> {
  const server = await startBenchServer({ ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), BENCH_SEED_ORDERS: '200' });
  const rows: string[] = [];
  try {
    for (const page of pages) {
      console.log(`lists ${database} ${page.name}`);
      const real = await load({ url: server.url + page.route, token: server.token, label: page.name });
      const baseline = await load({ url: server.url + page.baseline, label: `${page.name} baseline` });
      if (real.non2xx || real.errors) throw new Error(`${page.route}: ${real.non2xx} non-2xx, ${real.errors} errors`);
      rows.push(row(database, real, baseline));
    }
  } finally {
    await server.stop();
  }
  return rows;
}

export const listHeader = [
  '| Database | Route | req/s | p50 | p99 | Baseline | req/s | p50 | p99 | Ratio route/baseline (req/s) | Body |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
