// `npm run bench:reliability`: the long variants of the reliability suites in server/test/reliability, on PGlite and
// on PostgreSQL. RELIABILITY_SCALE (default 20) multiplies their generated work: the bad-input suite sends 20 × scale
// seeded combinations of broken fields per operation on top of its fixed 10 thousand requests, and the crash test
// kills the server with kill -9 `scale` times on one database, checking every confirmed order after each restart.
// The suites are the ones `npm test` runs at scale 1; this writes their figures to bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { resultsFile, writeSection } from './results-file.ts';

const repository = path.resolve(import.meta.dirname, '..');
const scale = Number(process.env.RELIABILITY_SCALE ?? 20);
const work = mkdtempSync(path.join(tmpdir(), 'reliability-'));
const report = path.join(work, 'figures.jsonl');
// The scaled suites, then the attacks of the hardening issue, each at its own size: hostile bodies for every operation,
// the issue's reproductions, PDF bombs and large uploads while /status is timed, slowloris, password guessing, SSRF forms.
const suites = [
  'server/test/reliability/bad-input.test.ts',
  'server/test/reliability/crash.test.ts',
  'server/test/reliability/hostile-bodies.test.ts',
  'server/test/reliability/hardening.test.ts',
  'server/test/uploads-hardening.test.ts',
  'server/test/reliability/slowloris.test.ts',
  'server/test/reliability/auth-throttle.test.ts',
  'server/test/reliability/ssrf.test.ts',
];
const command = `RELIABILITY_SCALE=${scale} npx vitest run ${suites.join(' ')}`;

const begun = Date.now();
console.log(command);
const run = spawnSync('npx', ['vitest', 'run', ...suites], {
  cwd: repository,
  stdio: 'inherit',
  env: { ...process.env, RELIABILITY_SCALE: String(scale), RELIABILITY_REPORT: report },
});
const minutes = ((Date.now() - begun) / 60000).toFixed(1);
let lines: Record<string, string | number>[] = [];
try {
  lines = readFileSync(report, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
} catch {
  // No figures: the suites failed before reporting; the exit code says so below.
}
rmSync(work, { recursive: true, force: true });

const figure = (database: string, suite: string) => lines.find((l) => l.database === database && l.suite === suite);
const row = (database: string) => {
  const bad = figure(database, 'bad input');
  const crash = figure(database, 'crash');
  const hostile = figure(database, 'hostile bodies');
  return `| ${database === 'postgres' ? 'PostgreSQL' : 'PGlite'} | ${bad ? `${Number(bad.requests).toLocaleString('en-US')} (${Number(bad.combined).toLocaleString('en-US')} with several fields broken at once) in ${bad.seconds} s` : 'no figures'} | ${hostile ? Number(hostile.requests).toLocaleString('en-US') : 'no figures'} | ${crash ? `${crash.rounds} kill -9 rounds, ${Number(crash.confirmed).toLocaleString('en-US')} confirmed orders all whole after each restart, in ${crash.seconds} s` : 'no figures'} |`;
};
const begin = '<!-- reliability:begin -->';
const end = '<!-- reliability:end -->';
writeSection(
  begin,
  end,
  [
    begin,
    '## Reliability: long variants',
    '',
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, \`npm run bench:reliability\` (\`${command}\`), ${minutes} min in all; Node ${process.version}, ${cpus().length} cores.`,
    'The suites of `npm test` with their generated work multiplied: no answer may be a 5xx or undocumented, a rejected write must leave every table as it was, and every order answered 201 must be whole after a kill -9.',
    '',
    'The attack suites of the hardening issue run in the same command, each asserting the server still answers afterwards:',
    'prototype keys and sparse indices, lists one past their bound, lone surrogates, NUL in member names and 1e999 on every',
    'operation (hostile bodies); PDF bombs and 10 MiB uploads with /status timed; slowloris; password guessing; SSRF forms.',
    '',
    '| Database | Bad input: requests | Hostile bodies: requests | Crash: kill -9 while 50 connections create orders |',
    '|---|---|---|---|',
    row('pglite'),
    row('postgres'),
    '',
    `Result: **${run.status === 0 ? 'all passed' : `failed (vitest exit code ${run.status})`}**.`,
    end,
  ].join('\n'),
);
console.log(`Wrote ${resultsFile}`);
process.exit(run.status ?? 1);
