// Scenario 6: time from starting the server on an existing embedded database to the first answered request, and its
// resident memory once idle. `npm start` as a user types it, the script it runs (scripts/start.mjs: the up-to-date checks,
// then the prebuilt bundle in the same process) without npm's own start-up, and the former way, the TypeScript sources
// through tsx; alternating, on the same data folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../server/src/platform/db/index.ts';
import { freePort } from '../server/test/support/ports.ts';
import { percentile, repository, seedClient, seedOrders } from './lib.ts';
import { spawnSandbox, startCommands, waitForAnswer } from './processes.ts';

const runs = 3;
const seededOrders = 150;

/** Resident memory of a process in MB, from /proc. */
function residentMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** The process and its descendants (npm runs the server two processes down: npm, sh, node). */
function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(processTree)];
}

/** The resident memory of the server: the largest process of the tree the command started. */
const serverResidentMb = (pid: number) => Math.max(...processTree(pid).map(residentMb));

interface Measured {
  seconds: number[];
  residentMb: number[];
}

async function measure(dataDir: string, command: readonly string[], into: Measured) {
  const started = performance.now();
  const sandbox = spawnSandbox({ PORT: String(await freePort()), DATA_DIR: dataDir }, command);
  try {
    into.seconds.push((await waitForAnswer(sandbox.url)) - started);
    // Idle: after start-up's garbage is collectable and the pacer has run once.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    into.residentMb.push(serverResidentMb(sandbox.child.pid!));
  } finally {
    await sandbox.stop();
  }
}

export async function benchStartup(): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-startup-'));
  const npm: Measured = { seconds: [], residentMb: [] };
  const after: Measured = { seconds: [], residentMb: [] };
  const before: Measured = { seconds: [], residentMb: [] };
  try {
    // The checks of `npm start` find everything up to date, as on a second start: bring them there first.
    for (const script of ['ensure-openapi.mjs', 'ensure-portal-build.mjs', 'ensure-server-build.mjs']) {
      execFileSync(process.execPath, [path.join(repository, 'scripts', script)], { cwd: repository, stdio: 'inherit' });
    }
    console.log(`startup: creating the embedded database with ${seededOrders} orders`);
    const first = spawnSandbox({ PORT: String(await freePort()), DATA_DIR: dataDir });
    try {
      await waitForAnswer(first.url);
    } finally {
      await first.stop();
    }
    const database = await openDatabase({ dataDir });
    try {
      await seedOrders(database.db, await seedClient(database.db), seededOrders, { shipments: true });
    } finally {
      await database.close();
    }
    for (let run = 0; run < runs; run++) {
      console.log(`startup: run ${run + 1} of ${runs}`);
      await measure(dataDir, startCommands.npm, npm);
      await measure(dataDir, startCommands.npmStart, after);
      await measure(dataDir, startCommands.sources, before);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const row = (how: string, m: Measured) =>
    `| ${how} | ${m.seconds.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')} | **${(percentile(m.seconds, 50) / 1000).toFixed(2)} s** | ${m.residentMb.map((mb) => mb.toFixed(0)).join(', ')} MB | **${percentile(m.residentMb, 50).toFixed(0)} MB** |`;
  return [
    `The same data folder (${seededOrders} orders with their shipments), then \`GET /status\` every 20 ms until it answers; resident memory (VmRSS) of the server process 3 s later, idle. Runs alternate between the two ways.`,
    '',
    '| Command | Start → first answer | Median | Resident memory, idle | Median |',
    '|---|---|---|---|---|',
    row('`npm start` (npm, then the script below)', npm),
    row('`node scripts/start.mjs` (what `npm start` runs: checks, then the prebuilt server/dist/cli.mjs)', after),
    row('`node --import tsx server/src/cli.ts start` (the sources compiled on the fly, as `npm start` ran before)', before),
  ];
}
