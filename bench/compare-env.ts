// Two or more benchmark servers that differ only by environment, on one PostgreSQL database (fsync on), loaded in turn
// with POST /v3/orders: the way bench/RESULTS.md's findings compare a setting side by side (the request log on and
// off, say), as the machine's drift from run to run is larger than most single levers. Not part of `npm run bench`:
//   BENCH_VARIANTS='{"log":{},"no log":{"REQUEST_LOG_MAX_PER_CLIENT":"0"}}' npx tsx bench/compare-env.ts
// BENCH_ROUNDS (default 4) rounds of 8 s with 10 connections after 3 s each to warm up; prints req/s per round.
import { startCluster } from '../server/test/support/postgres-cluster.ts';
import { type BenchServer, createRate, probeDatabase, startBenchServer } from './lib.ts';

const variants = JSON.parse(process.env.BENCH_VARIANTS ?? '{}') as Record<string, Record<string, string>>;
if (Object.keys(variants).length < 2) throw new Error('BENCH_VARIANTS: a JSON object of at least two named environments');
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);

const cluster = await startCluster({ fsync: true });
const servers: [string, BenchServer][] = [];
try {
  const url = await probeDatabase(cluster, 'compare_env');
  for (const [name, env] of Object.entries(variants))
    servers.push([name, await startBenchServer({ DATABASE_URL: url, BENCH_SEED_ORDERS: '100', ...env })]);
  for (const [, server] of servers) await createRate(server, 3);
  const perRound = new Map<string, number[]>(servers.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) for (const [name, server] of servers) perRound.get(name)!.push(await createRate(server, 8));
  for (const [name, values] of perRound) console.log(`${name}: ${values.join(', ')} req/s`);
} finally {
  for (const [, server] of servers) await server.stop();
  cluster.stop();
}
