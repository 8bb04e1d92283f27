// Scenario 7: what the request log costs. Two server processes on one PostgreSQL database, one with the log on (the
// default) and one with it off (REQUEST_LOG_MAX_PER_CLIENT=0), loaded in turn, alternating, on the hot list page and on
// order creation; the ratio on/off is the log's cost (the bound: at least 0.95).
import { load, ms, orderDocument, ratio, rps, startBenchServer, type BenchServer, type LoadResult } from './lib.ts';

/** Each side runs this many times, alternating, so a drift of the machine falls on both. */
const rounds = 3;

const mean = (results: LoadResult[]) => results.reduce((sum, r) => sum + r.requestsPerSecond, 0) / results.length;

export async function benchRequestLog(databaseUrl: string): Promise<string[]> {
  const on = await startBenchServer({ DATABASE_URL: databaseUrl, BENCH_SEED_ORDERS: '200' });
  const off = await startBenchServer({ DATABASE_URL: databaseUrl, BENCH_SEED_ORDERS: '200', REQUEST_LOG_MAX_PER_CLIENT: '0' });
  const rows: string[] = [];
  try {
    const scenarios = [
      {
        name: 'list',
        run: (server: BenchServer) =>
          load({ url: `${server.url}/v3/orders?include=orderItems&page[size]=100`, token: server.token, label: 'list' }),
      },
      {
        name: 'create',
        run: (server: BenchServer) => {
          let n = 0;
          const prefix = `L-${server.port}-${Date.now().toString(36)}`;
          return load({
            url: `${server.url}/v3/orders`,
            method: 'POST',
            token: server.token,
            label: 'create',
            body: () => JSON.stringify(orderDocument(server.client, `${prefix}-${++n}`)),
          });
        },
      },
    ];
    for (const scenario of scenarios) {
      const withLog: LoadResult[] = [];
      const without: LoadResult[] = [];
      for (let round = 0; round < rounds; round++) {
        console.log(`request log ${scenario.name} round ${round + 1}`);
        without.push(await scenario.run(off));
        withLog.push(await scenario.run(on));
      }
      for (const r of [...withLog, ...without])
        if (r.non2xx || r.errors) throw new Error(`${r.command}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      const last = withLog[withLog.length - 1];
      rows.push(
        `| \`${last.command}\` | ${withLog.map((r) => rps(r.requestsPerSecond)).join(', ')} | ${ms(last.p99)} | ${without.map((r) => rps(r.requestsPerSecond)).join(', ')} | ${ms(without[without.length - 1].p99)} | **${ratio(mean(withLog), mean(without))}** |`,
      );
    }
  } finally {
    await Promise.all([on.stop(), off.stop()]);
  }
  return [
    `| Route | Log on: req/s per round | p99 (last) | Log off: req/s per round | p99 (last) | Ratio on/off (mean req/s) |`,
    '|---|---|---|---|---|---|',
    ...rows,
  ];
}
