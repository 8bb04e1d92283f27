// Scenario 7: the sandbox against Prism 5.14 mocking the same OpenAPI document. Prism stores nothing and answers the
// document's static example (1.5 KB for the list page); the sandbox validates, writes and reads real rows. Prism's log
// goes to a file, as a developer would run it: through a pipe it slows down and the comparison would flatter us.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import {
  type LoadResult,
  load,
  ms,
  orderDocument,
  packageVersion,
  percentile,
  ratio,
  repository,
  rps,
  seconds,
  startBenchServer,
} from './lib.ts';

interface Prism {
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startPrism(): Promise<Prism> {
  const port = await freePort();
  const logFile = path.join(repository, 'tmp', 'bench-prism.log');
  await mkdir(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  await new Promise((resolve) => log.once('open', resolve));
  const bin = path.join(repository, 'node_modules', '.bin', 'prism');
  const child: ChildProcess = spawn(bin, ['mock', 'contract/openapi/v3.json', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: repository,
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}; see ${logFile}`);
    if (Date.now() - started > 60_000) throw new Error(`prism did not listen within 60 s; see ${logFile}`);
    // Any answer means it listens (an unknown path is a 404 from Prism).
    if (
      await fetch(`${url}/`).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    logFile,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => {
          log.end();
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

const listRoute = '/v3/orders?include=orderItems&page[size]=100';

const rounds = 3;
const warmUpSeconds = Math.min(3, seconds);
const median = (values: number[]) => percentile(values, 50);

function assertAnswered(result: LoadResult, what: string) {
  if (result.non2xx || result.errors || !result.total)
    throw new Error(`${what}: ${result.non2xx} non-2xx, ${result.errors} errors of ${result.total}`);
}

type Run = (duration?: number) => Promise<LoadResult>;

/**
 * Ours and Prism's twin, both warmed up, then `rounds` alternating rounds; the row gives each round's req/s and the
 * ratio of the medians.
 */
async function compared(what: string, database: string, ours: Run, mock: Run): Promise<string> {
  await ours(warmUpSeconds);
  await mock(warmUpSeconds);
  const runs: { ours: LoadResult; mock: LoadResult }[] = [];
  for (let round = 0; round < rounds; round++) {
    const pair = { ours: await ours(), mock: await mock() };
    assertAnswered(pair.ours, what);
    assertAnswered(pair.mock, `${what} on Prism`);
    runs.push(pair);
  }
  const side = (pick: (pair: (typeof runs)[number]) => LoadResult) => {
    const results = runs.map(pick);
    return {
      perRound: results.map((r) => rps(r.requestsPerSecond)).join(', '),
      requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      body: `${(results[0].bytesPerRequest / 1024).toFixed(1)} KB`,
    };
  };
  const [a, b] = [side((pair) => pair.ours), side((pair) => pair.mock)];
  const ratios = runs.map((pair) => (pair.ours.requestsPerSecond / pair.mock.requestsPerSecond).toFixed(2)).join(', ');
  return `| \`${runs[0].ours.command}\` | ${database} | ${a.perRound} | ${ms(a.p50)} | ${ms(a.p99)} | ${a.body} | ${b.perRound} | ${ms(b.p50)} | ${ms(b.p99)} | ${b.body} | ${ratios} | **${ratio(a.requestsPerSecond, b.requestsPerSecond)}** |`;
}

/** The create and list rows against Prism. */
export async function benchPrism(postgresUrl: string): Promise<string[]> {
  const prism = await startPrism();
  const rows: string[] = [];
  try {
    for (const [database, env] of [
      ['PostgreSQL', { DATABASE_URL: postgresUrl }],
      ['PGlite (in memory)', {}],
    ] as const) {
      const server = await startBenchServer({ ...env, BENCH_SEED_ORDERS: '200' });
      try {
        let n = 0;
        const prefix = `P-${Date.now().toString(36)}`;
        const body = () => JSON.stringify(orderDocument(server.client, `${prefix}-${++n}`));
        if (database === 'PostgreSQL') {
          console.log('prism: create, ours and Prism');
          const mock: Run = (duration) =>
            load({ url: `${prism.url}/v3/orders`, method: 'POST', token: 'bench', label: 'create (prism)', body, duration });
          rows.push(
            await compared(
              'POST /v3/orders',
              database,
              (duration) => load({ url: `${server.url}/v3/orders`, method: 'POST', token: server.token, label: 'create', body, duration }),
              mock,
            ),
          );
          // The same with the request log off: what the log costs against the mock, measured rather than worked out from
          // the request log's own section.
          console.log('prism: create with the request log off, ours and Prism');
          const unlogged = await startBenchServer({ ...env, BENCH_SEED_ORDERS: '200', REQUEST_LOG_MAX_PER_CLIENT: '0' });
          try {
            const unloggedBody = () => JSON.stringify(orderDocument(unlogged.client, `${prefix}-u-${++n}`));
            rows.push(
              await compared(
                'POST /v3/orders',
                `${database}, request log off`,
                (duration) =>
                  load({
                    url: `${unlogged.url}/v3/orders`,
                    method: 'POST',
                    token: unlogged.token,
                    label: 'create',
                    body: unloggedBody,
                    duration,
                  }),
                mock,
              ),
            );
          } finally {
            await unlogged.stop();
          }
        }
        console.log(`prism: list on ${database}, ours and Prism`);
        rows.push(
          await compared(
            listRoute,
            database,
            (duration) => load({ url: server.url + listRoute, token: server.token, label: 'list', duration }),
            (duration) => load({ url: prism.url + listRoute, token: 'bench', label: 'list (prism)', duration }),
          ),
        );
      } finally {
        await server.stop();
      }
    }
  } finally {
    await prism.stop();
  }
  return [
    `Prism ${packageVersion('@stoplight/prism-cli')}: \`prism mock contract/openapi/v3.json\`, its log written to a file (tmp/bench-prism.log).`,
    '',
    '| Request | Our database | Ours req/s per round | p50 (median) | p99 (median) | Body | Prism req/s per round | p50 (median) | p99 (median) | Body | Ratio per round | Ratio of the medians (req/s) |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ];
}
