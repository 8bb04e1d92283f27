// Scenario 7: the sandbox against Prism 5.14 mocking the same OpenAPI document. Prism stores nothing and answers the
// document's static example (1.5 KB for the list page); the sandbox validates, writes and reads real rows. Prism's log
// goes to a file, as a developer would run it: through a pipe it slows down and the comparison would flatter us.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { type LoadResult, load, ms, orderDocument, packageVersion, ratio, repository, rps, startBenchServer } from './lib.ts';

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

const row = (what: string, database: string, ours: LoadResult, prism: LoadResult) =>
  `| ${what} | ${database} | ${rps(ours.requestsPerSecond)} | ${ms(ours.p50)} | ${ms(ours.p99)} | ${(ours.bytesPerRequest / 1024).toFixed(1)} KB | ${rps(prism.requestsPerSecond)} | ${ms(prism.p50)} | ${ms(prism.p99)} | ${(prism.bytesPerRequest / 1024).toFixed(1)} KB | **${ratio(ours.requestsPerSecond, prism.requestsPerSecond)}** |`;

function assertAnswered(result: LoadResult, what: string) {
  if (result.non2xx || result.errors || !result.total)
    throw new Error(`${what}: ${result.non2xx} non-2xx, ${result.errors} errors of ${result.total}`);
}

/** The create and list rows against Prism; each route and its Prism twin are loaded one after the other. */
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
          console.log('prism: create, ours then Prism');
          const ours = await load({ url: `${server.url}/v3/orders`, method: 'POST', token: server.token, label: 'create', body });
          const mock = await load({ url: `${prism.url}/v3/orders`, method: 'POST', token: 'bench', label: 'create (prism)', body });
          assertAnswered(ours, 'POST /v3/orders');
          assertAnswered(mock, 'POST /v3/orders on Prism');
          rows.push(row(`\`${ours.command}\``, database, ours, mock));
        }
        console.log(`prism: list on ${database}, ours then Prism`);
        const ours = await load({ url: server.url + listRoute, token: server.token, label: 'list' });
        const mock = await load({ url: prism.url + listRoute, token: 'bench', label: 'list (prism)' });
        assertAnswered(ours, listRoute);
        assertAnswered(mock, `${listRoute} on Prism`);
        rows.push(row(`\`${ours.command}\``, database, ours, mock));
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
    '| Request | Our database | Ours req/s | p50 | p99 | Body | Prism req/s | p50 | p99 | Body | Ratio ours/Prism (req/s) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ];
}
