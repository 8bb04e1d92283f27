// Two or more benchmark servers that differ only by environment, on one PostgreSQL database (fsync on), loaded in turn
// with POST /v3/orders: the way bench/RESULTS.md's findings compare a setting side by side (the request log on and
// off, say), as the machine's drift from run to run is larger than most single levers. Not part of `npm run bench`:
//   BENCH_VARIANTS='{"log":{},"no log":{"REQUEST_LOG_MAX_PER_CLIENT":"0"}}' npx tsx bench/compare-env.ts
// BENCH_ROUNDS (default 4) rounds of 8 s with 10 connections after 3 s each to warm up, each round starting with the next
// variant. Prints, per round, the creates a second and the CPU time each create cost the server's process and
// PostgreSQL's (all its processes: the backends, the WAL writer, the checkpointer), read from /proc: throughput alone
// moves with the machine, the CPU a create costs less.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startCluster } from '../server/test/support/postgres-cluster.ts';
import { type BenchServer, createLoad, createRate, probeDatabase, startBenchServer } from './lib.ts';

const variants = JSON.parse(process.env.BENCH_VARIANTS ?? '{}') as Record<string, Record<string, string>>;
if (Object.keys(variants).length < 2) throw new Error('BENCH_VARIANTS: a JSON object of at least two named environments');
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** CPU time (user and system) a process has used, in µs; 0 once it is gone. */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server's processes: its postmaster (first line of postmaster.pid) and the postmaster's children. */
function postgresPids(dataDirectory: string): number[] {
  const postmaster = Number(readFileSync(path.join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  return [postmaster, ...children];
}

/** CPU time of the server's process and of PostgreSQL's, in µs, for a difference over a round. */
function cpuNow(server: BenchServer, dataDirectory: string) {
  const postgres = new Map(postgresPids(dataDirectory).map((pid) => [pid, cpuMicros(pid)]));
  return { server: cpuMicros(server.pid), postgres };
}

const cluster = await startCluster({ fsync: true });
const servers: [string, BenchServer][] = [];
try {
  const url = await probeDatabase(cluster, 'compare_env');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const dataDirectory = (await admin.query<{ data_directory: string }>('show data_directory')).rows[0]!.data_directory;
  await admin.end();
  for (const [name, env] of Object.entries(variants))
    servers.push([name, await startBenchServer({ DATABASE_URL: url, BENCH_SEED_ORDERS: '100', ...env })]);
  for (const [, server] of servers) await createRate(server, 3);
  const lines = new Map<string, string[]>(servers.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++)
    // Each round starts with the next variant: whichever goes first or last in a round meets the machine differently.
    for (const [name, server] of [...servers.slice(round % servers.length), ...servers.slice(0, round % servers.length)]) {
      const before = cpuNow(server, dataDirectory);
      const result = await createLoad(server, 8);
      const after = cpuNow(server, dataDirectory);
      // A backend that started during the round counts from 0; one that ended during it is not counted.
      let postgres = 0;
      for (const [pid, micros] of after.postgres) postgres += micros - (before.postgres.get(pid) ?? 0);
      const perCreate = (micros: number) => Math.round(micros / Math.max(1, result.total));
      lines
        .get(name)!
        .push(
          `${Math.round(result.requestsPerSecond)} req/s, CPU per create: server ${perCreate(after.server - before.server)} µs, PostgreSQL ${perCreate(postgres)} µs`,
        );
    }
  for (const [name, values] of lines) console.log(`${name}:\n  ${values.join('\n  ')}`);
} finally {
  for (const [, server] of servers) await server.stop();
  cluster.stop();
}
