// `npm start` builds the console and the portal beside the server (scripts/builds.mjs): the progress file follows each
// step as the build's output shows it, records how long each took for the next estimate, and says which build failed.
// The builds here are stand-ins that print what `npm run build -w console|portal` prints, in their real step definitions.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { BuildProgress } from '../src/platform/build-progress.ts';

const repository = join(import.meta.dirname, '..', '..');
const folder = mkdtempSync(join(tmpdir(), 'start-builds-'));
const files = { progress: join(folder, 'progress.json'), log: join(folder, 'build.log'), times: join(folder, 'times.json') };
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A stand-in build: prints each line, pausing `pause` ms before each, then exits with `exit`. */
const standIn = (lines: string[], exit = 0, pause = 150) =>
  `const lines = ${JSON.stringify(lines)}; let i = 0;
   const next = () => i < lines.length ? (console.log(lines[i++]), setTimeout(next, ${pause})) : process.exit(${exit});
   setTimeout(next, ${pause});`;

const consoleOutput = ['vite v8.3.8 building for production...', '✓ 812 modules transformed.', '✓ built in 3.21s'];
const portalOutput = [
  'Successfully created "specs/v3/create-order.api.mdx"',
  'Successfully created "specs/v3/list-orders.api.mdx"',
  'Successfully created "specs/v2/add-order.api.mdx"',
  '[INFO] [en] Creating an optimized production build...',
  '[webpackbar] ℹ Compiling Client',
  '[webpackbar] ℹ Compiling Server',
  '[webpackbar] ✔ Server: Compiled successfully in 9.22s',
  '[webpackbar] ✔ Client: Compiled successfully in 14.21s',
  '[SUCCESS] Generated static files in "build".',
];

/** Runs scripts/builds.mjs's runBuilds on the console and the portal, each build replaced by its stand-in script. */
function runBuilds(standIns: { console: string; portal: string }): boolean {
  const driver = `
    import { buildTargets, runBuilds } from ${JSON.stringify(join(repository, 'scripts', 'builds.mjs'))};
    const standIns = ${JSON.stringify(standIns)};
    const builds = buildTargets.map((target) => ({ ...target, command: [process.execPath, '-e', standIns[target.tag]] }));
    console.log(JSON.stringify(await runBuilds(builds, { background: true, files: ${JSON.stringify(files)} })));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', driver], { cwd: repository, encoding: 'utf8' }));
}

const progress = (): BuildProgress => JSON.parse(readFileSync(files.progress, 'utf8'));

it('follows each step as the output shows it starting, and keeps how long each took for the next estimate', () => {
  expect(runBuilds({ console: standIn(consoleOutput), portal: standIn(portalOutput) })).toBe(true);
  const { state, steps } = progress();
  expect(state).toBe('done');
  expect(steps.map((step) => [step.target, step.name])).toEqual([
    ['console', 'console'],
    ['portal', 'reference'],
    ['portal', 'compile'],
    ['portal', 'render'],
  ]);
  const [consoleStep, reference, compile, render] = steps;
  expect(reference.count).toBe(3);
  // Each step starts as its line appears: compiling at "Creating an optimized production build", rendering once both
  // bundles are compiled (four gaps of 150 ms later each), and each ends as the next starts. The gaps are measured
  // where the lines are read, so one may be read a little late and the next on time (it failed once by 1 ms); a step
  // that started a line early would be 150 ms short, far outside the 40 ms slack.
  const gaps = 4 * 150;
  expect(compile.startedAt! - reference.startedAt!).toBeGreaterThanOrEqual(gaps - 40);
  expect(render.startedAt! - compile.startedAt!).toBeGreaterThanOrEqual(gaps - 40);
  expect(reference.endedAt).toBe(compile.startedAt);
  expect(compile.endedAt).toBe(render.startedAt);
  expect(render.endedAt).toBeGreaterThan(render.startedAt!);
  expect(consoleStep.endedAt).toBeLessThanOrEqual(reference.startedAt!);
  expect(readFileSync(files.log, 'utf8')).toContain('✓ built in 3.21s');
  expect(Object.keys(JSON.parse(readFileSync(files.times, 'utf8')))).toEqual(['console', 'reference', 'compile', 'render']);

  // The next build shows how long each step took the last time.
  expect(runBuilds({ console: standIn(consoleOutput, 0, 1), portal: standIn(portalOutput, 0, 1) })).toBe(true);
  expect(progress().steps.every((step) => typeof step.lastSeconds === 'number')).toBe(true);
});

it('a failed build: the progress says which and where its output is, and leaves its steps and the next build undone', () => {
  expect(
    runBuilds({ console: standIn(['vite v8.3.8 building for production...', 'error during build'], 1), portal: standIn(portalOutput) }),
  ).toBe(false);
  const { state, failure, steps } = progress();
  expect(state).toBe('failed');
  expect(failure).toMatch(/^\S+ -e .* failed \(exit 1\) after \d+ s; its output is in .*build\.log\.$/s);
  expect(steps.filter((step) => step.endedAt)).toEqual([]);
  expect(steps.filter((step) => step.startedAt).map((step) => step.name)).toEqual(['console']);
});
