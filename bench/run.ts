// `npm run bench`: every API benchmark on loopback, each run bounded in time, written to bench/RESULTS.md between
// this script's markers (the Lighthouse section of bench/lighthouse.ts stays). BENCH_ONLY=lists,create,... runs a subset;
// BENCH_SECONDS changes the length of each load run (default 10).
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { startCluster } from '../server/test/support/postgres-cluster.ts';
import { machine, repository, seconds } from './lib.ts';
import { readFileSync } from 'node:fs';
import { resultsFile, writeSection } from './results-file.ts';
import { benchLists, listHeader } from './lists.ts';
import { benchCreate, createIntro } from './create.ts';
import { benchScale } from './scale.ts';
import { benchMulti } from './multi.ts';
import { benchWebhooks } from './webhooks.ts';
import { benchStartup } from './startup.ts';
import { benchRequestLog } from './request-log.ts';
import { benchPrism } from './prism.ts';
import { benchNeighbours, neighboursIntro } from './neighbours.ts';

const only = process.env.BENCH_ONLY?.split(',');
const begin = '<!-- api-bench:begin -->';
const end = '<!-- api-bench:end -->';
const wanted = (name: string) => !only || only.includes(name);
const begun = Date.now();

/**
 * A scenario BENCH_ONLY leaves out keeps its figures from RESULTS.md, marked with the run they came from, so a partial
 * run replaces only what it measured.
 */
function keptSection(title: string): string[] {
  const text = readFileSync(resultsFile, 'utf8');
  const api = text.slice(text.indexOf(begin), text.indexOf(end));
  const run = /^Run of ([^,]+),/m.exec(api)?.[1];
  const start = api.indexOf(`### ${title}\n`);
  if (start < 0 || !run) return [];
  const next = api.indexOf('\n### ', start + 1);
  const [heading, ...rest] = api
    .slice(start, next < 0 ? undefined : next + 1)
    .trimEnd()
    .split('\n');
  const from = /^_From the run of .*_$/.test(rest[1] ?? '') ? [] : ['', `_From the run of ${run} (not run this time)._`];
  return [heading, ...from, ...rest, ''];
}

// The scenarios that start the server as a process run the bundle `npm start` runs: build it if the sources changed.
execFileSync(process.execPath, ['scripts/ensure-server-build.mjs'], { cwd: repository, stdio: 'inherit' });
console.log('Starting a throwaway PostgreSQL (fsync on) on 127.0.0.1');
const cluster = await startCluster({ fsync: true });
const sections: string[] = [];
/** Its own part of RESULTS.md, so it can be measured again (BENCH_ONLY=requestlog) without the other figures. */
const requestLogSections: string[] = [];
let postgresVersion = 'PostgreSQL ?';
try {
  const admin = new pg.Client({ connectionString: cluster.url() });
  await admin.connect();
  postgresVersion =
    String((await admin.query('show server_version')).rows[0].server_version).replace(/^/, 'PostgreSQL ') +
    ' (Debian, fsync on, synchronous_commit on; throwaway cluster from server/test/support/postgres-cluster.ts)';
  /** The databases made for the scenario that runs: dropped when it ends (dropQuiet). */
  const made: string[] = [];
  const database = async (name: string) => {
    await admin.query(`create database ${name}`);
    made.push(name);
    return cluster.url(name);
  };
  // A scenario's database is dropped when it ends and a checkpoint written, so the next starts on a quiet cluster: the
  // 1M orders of the scale scenario kept autovacuum and the checkpointer busy through the scenarios after it.
  const dropQuiet = async () => {
    for (const name of made.splice(0)) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query('checkpoint');
  };

  const scenario = async (name: string, title: string, intro: string, body: () => Promise<string[]>, into = sections) => {
    if (!wanted(name)) {
      if (into === sections) into.push(...keptSection(title));
      return;
    }
    const started = Date.now();
    console.log(`== ${title}`);
    let lines: string[];
    try {
      lines = await body();
    } catch (error) {
      console.error(error);
      lines = [`**Failed in this run:** ${(error as Error).message.split('\n')[0]}`];
    }
    await dropQuiet().catch((error) => console.error('could not drop the scenario database', error));
    into.push(`### ${title}`, '', intro, '', ...lines, '', `_(${((Date.now() - started) / 1000).toFixed(0)} s)_`, '');
  };

  await scenario(
    'lists',
    '1. List pages against a baseline in the same server',
    `Each route is run for ${seconds} s with 10 connections, then its baseline for ${seconds} s, three rounds alternating after 3 s of each to warm up, against the same server process (bench/serve.ts: \`buildApp\` plus \`GET /bench/baseline/*\`, registered by the benchmark only). A baseline sends the real page's document, captured at start, through the operation's response schema from the contract, so the ratio isolates authentication, the database queries and the mapping to resources. 200 orders (two items, two addresses each) and 200 shipments (two items each) are in the database.`,
    async () => [
      ...listHeader,
      ...(await benchLists('PostgreSQL', await database('bench_lists'))),
      ...(await benchLists('PGlite (in memory, in the server process)', undefined)),
    ],
  );
  await scenario('create', '2. Creating orders', createIntro, async () => benchCreate(await database('bench_create')));
  await scenario(
    'scale',
    '3. Scale: 10 thousand to 1 million orders',
    `Orders (two addresses and two items each) are bulk-inserted with \`generate_series\` in batches of 100 thousand, then \`ANALYZE\`; every request is run ${seconds} s with 10 connections against a server that was started before the load.`,
    async () => benchScale(await database('bench_scale')),
  );
  await scenario(
    'multi',
    '4. Two server processes on one PostgreSQL',
    `\`node server/dist/cli.mjs start\` (the server as \`npm start\` runs it) with PORT and DATABASE_URL (as in production: pacer and webhook dispatcher running), one process and then two; \`POST /v3/orders\` for ${seconds} s with 20 connections in all (with two processes: two autocannon instances of 10 connections at once, one per process).`,
    async () => benchMulti(await database('bench_multi')),
  );
  await scenario(
    'webhooks',
    '5. Webhook dispatch',
    'The outbox and dispatcher of server/src/modules/webhooks on PostgreSQL (fsync on), delivering to an HTTP server of the benchmark on 127.0.0.1 that answers 200.',
    async () => benchWebhooks(await database('bench_webhooks')),
  );
  await scenario(
    'startup',
    '6. Start-up',
    'Embedded PGlite database in a temporary DATA_DIR, created by a first start that is not measured and seeded with orders; then three measured starts each way.',
    async () => benchStartup(),
  );
  await scenario(
    'prism',
    '7. Against a mock: Prism serving the same OpenAPI document',
    `The same requests against the sandbox (bench/serve.ts, 200 orders seeded) and against Prism mocking contract/openapi/v3.json, ${seconds} s each with 10 connections, both warmed up for 3 s, then three alternating rounds. Prism validates the request and answers the document's example without storing anything; the sandbox validates, writes to and reads from its database (fsync on for PostgreSQL). A ratio of 1 means the real sandbox answers as fast as a mock. The create is measured again against a second server on the same database with the request log off (\`REQUEST_LOG_MAX_PER_CLIENT=0\`): what the log costs against the mock.`,
    async () => benchPrism(await database('bench_prism')),
  );
  await scenario('neighbours', "8. A noisy neighbour: one client's load against another's latency", neighboursIntro, async () =>
    benchNeighbours(await database('bench_neighbours')),
  );
  await scenario(
    'requestlog',
    "The request log's cost",
    `Two server processes on one PostgreSQL database (fsync on), the log on (default) and off (\`REQUEST_LOG_MAX_PER_CLIENT=0\`), each loaded ${seconds} s with 10 connections, alternating off/on three times per route. Every logged call keeps its request and answer (up to 64 KiB each: the list page's 165 KB answer is cut), written after the answer in batches.`,
    async () => benchRequestLog(await database('bench_request_log')),
    requestLogSections,
  );
  await admin.end();
} finally {
  cluster.stop();
}

const readmeBegin = '<!-- bench-readme:begin -->';
const readmeEnd = '<!-- bench-readme:end -->';
const readme = [
  readmeBegin,
  '## How to reproduce',
  '',
  '`npm run bench` (about 15–20 minutes) runs every API benchmark below on 127.0.0.1 with autocannon and rewrites its section of this file; `npm run bench:lighthouse` rewrites the portal section and `npm run bench:reliability` (about 20–30 minutes) the long variants of the reliability suites. None of them is part of `npm test`.',
  '',
  "- Needs Debian's PostgreSQL (`scripts/ensure-postgres.sh`): the run starts a throwaway cluster with fsync on and removes it afterwards.",
  '- `BENCH_ONLY=lists,create,scale,multi,webhooks,startup,prism,neighbours,requestlog` runs some of them (the sections left out keep their figures, each marked with the run it came from); `BENCH_SECONDS=3` shortens each load run for a smoke test (figures from such runs are not for this file).',
  "- Code: bench/run.ts (orchestrates, writes this file), bench/serve.ts (the benchmark's server process with the baseline routes), one file per scenario (lists, create, scale, multi, webhooks, startup, prism, neighbours with its noisy client in neighbours-noise, request-log), bench/lib.ts (seeding with SQL, autocannon).",
  '- Each scenario has a database of its own, dropped when the scenario ends (then a checkpoint), so no scenario measures the background work of the one before (autovacuum of the 1M orders of the scale scenario).',
  "- Probes for the findings, run on their own: `npx tsx bench/compare-env.ts` (servers that differ by environment, loaded in turn, each round starting with the next, with the CPU each create cost the server and PostgreSQL: `BENCH_VARIANTS` names them), `npx tsx bench/stored-json-cost.ts` (the stored JSON's triggers on and off) and `npx tsx bench/request-log-insert.ts` (the request log's batch insert by how its bodies travel).",
  '- Every ratio is measured side by side in the same run on the same machine; compare ratios between machines, not raw req/s.',
  readmeEnd,
].join('\n');
const section = [
  begin,
  '## API',
  '',
  `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, \`npm run bench\`${only ? ` (BENCH_ONLY=${only.join(',')}; the sections it left out keep their figures, marked with their run)` : ''}, ${seconds} s per load run, ${((Date.now() - begun) / 60000).toFixed(1)} min in all.`,
  '',
  machine(postgresVersion),
  '',
  ...sections,
  end,
].join('\n');

writeSection(readmeBegin, readmeEnd, readme, (s) => s.replace(/^# Benchmark results\n/, `# Benchmark results\n\n${readme}\n`));
if (sections.length) writeSection(begin, end, section);
if (requestLogSections.length) {
  const [logBegin, logEnd] = ['<!-- request-log-bench:begin -->', '<!-- request-log-bench:end -->'];
  const heading = `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, \`npm run bench\`${only ? ` (BENCH_ONLY=${only.join(',')})` : ''}, ${seconds} s per load run.`;
  const [title, ...rest] = requestLogSections;
  writeSection(
    logBegin,
    logEnd,
    [logBegin, `## ${title.replace(/^### /, '')}`, '', heading, '', machine(postgresVersion), ...rest, logEnd].join('\n'),
  );
}
console.log(`Wrote ${resultsFile}`);
