// Scenario 6: time from `npx tsx server/src/cli.ts start` on an existing embedded database to the first answered request.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { percentile } from './lib.ts';
import { spawnSandbox, waitForAnswer } from './processes.ts';
import { freePort } from '../server/test/support/ports.ts';

export async function benchStartup(): Promise<string[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-startup-'));
  const times: number[] = [];
  try {
    // First start creates the database (migrations, demo client); not measured.
    console.log('startup: creating the embedded database');
    const first = spawnSandbox({ PORT: String(await freePort()), DATA_DIR: dataDir });
    try {
      await waitForAnswer(first.url);
    } finally {
      await first.stop();
    }
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      const sandbox = spawnSandbox({ PORT: String(await freePort()), DATA_DIR: dataDir });
      try {
        const answered = await waitForAnswer(sandbox.url);
        times.push(answered - started);
      } finally {
        await sandbox.stop();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [
    '| Command | Runs | Median | Slowest |',
    '|---|---|---|---|',
    `| \`DATA_DIR=<existing> PORT=<free> npx tsx server/src/cli.ts start\`, then \`GET /status\` every 20 ms until it answers | ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')} | **${(percentile(times, 50) / 1000).toFixed(2)} s** | ${(Math.max(...times) / 1000).toFixed(2)} s |`,
  ];
}
