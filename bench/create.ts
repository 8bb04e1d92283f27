// Scenario 2: POST /v3/orders (five items, two addresses) with full validation, a new externalOrderNumber per request,
// side by side with a baseline in the same server process that writes the same rows in one statement.
import { type LoadResult, load, ms, orderDocument, percentile, ratio, rps, seconds, startBenchServer } from './lib.ts';

/** One load run of a create route, with its answers counted by status. */
export interface CreateRun extends LoadResult {
  created: number;
  /** Answers other than 201, by status. */
  others: Map<number, number>;
}

/** Medians over the rounds. */
export interface CreateMedians {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

export interface CreateFigures {
  database: string;
  /** Each round runs the route, then the baseline. */
  rounds: { route: CreateRun; baseline: CreateRun; ratio: number }[];
  route: CreateMedians;
  baseline: CreateMedians;
  /** Median of the rounds' route req/s ÷ baseline req/s. */
  ratio: number;
}

const warmUpSeconds = Math.min(3, seconds);
const median = (values: number[]) => percentile(values, 50);
const medians = (runs: CreateRun[]): CreateMedians => ({
  requestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
});

/**
 * `POST /v3/orders`, then `POST /bench/baseline/orders` (bench/serve.ts: the same rows in one CTE statement, answered
 * with a captured create answer through the same response schema), `rounds` times, each run `seconds` with 10
 * connections, all against one server process: alternating rounds put a drift of a shared machine on both sides.
 * `databaseUrl` undefined: PGlite in memory in the server process.
 */
export async function measureCreate(
  database: string,
  databaseUrl: string | undefined,
  opts: { rounds?: number } = {},
): Promise<CreateFigures> {
  const server = await startBenchServer({ ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), BENCH_SEED_ORDERS: '100' });
  try {
    const prefix = `C-${Date.now().toString(36)}`;
    let n = 0;
    const run = async (path: string, label: string, duration?: number): Promise<CreateRun> => {
      const others = new Map<number, number>();
      let created = 0;
      console.log(`create orders: ${database}, ${path}`);
      const result = await load({
        url: `${server.url}${path}`,
        method: 'POST',
        token: server.token,
        label,
        duration,
        body: () => JSON.stringify(orderDocument(server.client, `${prefix}-${++n}`)),
        onResponse: (status) => {
          if (status === 201) created++;
          else others.set(status, (others.get(status) ?? 0) + 1);
        },
      });
      return { ...result, created, others };
    };
    // Unmeasured: the first requests of a fresh process run cold (JIT, prepared statements, the pool's connections).
    await run('/v3/orders', 'create warm-up', warmUpSeconds);
    await run('/bench/baseline/orders', 'create baseline warm-up', warmUpSeconds);
    const rounds: CreateFigures['rounds'] = [];
    for (let round = 0; round < (opts.rounds ?? 3); round++) {
      const route = await run('/v3/orders', 'create');
      const baseline = await run('/bench/baseline/orders', 'create baseline');
      rounds.push({ route, baseline, ratio: route.requestsPerSecond / baseline.requestsPerSecond });
    }
    return {
      database,
      rounds,
      route: medians(rounds.map((r) => r.route)),
      baseline: medians(rounds.map((r) => r.baseline)),
      ratio: median(rounds.map((r) => r.ratio)),
    };
  } finally {
    await server.stop();
  }
}

const answers = (runs: CreateRun[]) => {
  const others = new Map<number, number>();
  for (const r of runs) for (const [status, count] of r.others) others.set(status, (others.get(status) ?? 0) + count);
  const other = [...others].map(([status, count]) => `${count}×${status}`).join(', ');
  return `${runs.reduce((sum, r) => sum + r.created, 0)} × 201${other ? `, ${other}` : ''}`;
};

/** The table row of one measurement (bench/RESULTS.md, section 2). */
export function createRow(f: CreateFigures): string {
  const routes = f.rounds.map((r) => r.route);
  const baselines = f.rounds.map((r) => r.baseline);
  const perRound = (runs: CreateRun[]) => runs.map((r) => rps(r.requestsPerSecond)).join(', ');
  const ratios = f.rounds.map((r) => r.ratio.toFixed(2)).join(', ');
  return `| ${f.database} | \`${routes[0].command}\` | ${perRound(routes)} | ${ms(f.route.p50)} | ${ms(f.route.p99)} | ${answers(routes)} | \`${baselines[0].command}\` | ${perRound(baselines)} | ${ms(f.baseline.p50)} | ${ms(f.baseline.p99)} | ${answers(baselines)} | ${ratios} | **${ratio(f.route.requestsPerSecond, f.baseline.requestsPerSecond)}** (median of rounds ${f.ratio.toFixed(2)}) |`;
}

export const createHeader = [
  '| Database | Route | req/s per round | p50 (median) | p99 (median) | answers | Baseline (same rows, one statement) | req/s per round | p50 (median) | p99 (median) | answers | Ratio per round | Ratio of the medians (req/s) |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];

/** The paragraph run.ts puts above the table. */
export const createIntro = `\`POST /v3/orders\` with full validation (contract schema, order type, SKUs, duplicate check; body: 5 items, a delivery and a billing address), then \`POST /bench/baseline/orders\` in the same server process (bench/serve.ts: the same rows, two addresses, the order and five items, written by one CTE statement with multi-row VALUES, prepared on PostgreSQL, answered with a captured create answer through the operation's response schema), ${seconds} s each with 10 connections, three rounds alternating after 3 s of each to warm up; autocannon's setupRequest gives every request a new externalOrderNumber. PostgreSQL with fsync on, then PGlite in memory in the server process.`;

/** Section 2: on PostgreSQL (`databaseUrl`, fsync on), then on PGlite in memory. */
export async function benchCreate(databaseUrl: string): Promise<string[]> {
  const postgres = await measureCreate('PostgreSQL', databaseUrl);
  const pglite = await measureCreate('PGlite (in memory, in the server process)', undefined);
  return [...createHeader, createRow(postgres), createRow(pglite)];
}
