// The builds of what the server serves besides the API: the console (console/dist) and the portal (portal/build). Which
// are out of date, and running them with their progress written to tmp/build-progress.json: `npm start` runs them beside
// the server, which serves the API at once and shows that progress at /docs and /console/ until they are done
// (server/src/platform/build-progress.ts reads the file; the two sides share its shape). Each build's full output goes
// to tmp/build.log; the progress holds its steps, each with its start and end, and how long it took the last time.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const openapi = path.join(root, 'contract', 'openapi');
const work = path.join(root, 'tmp');
/** Where the builds report: their progress, their output, and each step's duration in the last build that finished. */
const defaultFiles = {
  progress: path.join(work, 'build-progress.json'),
  log: path.join(work, 'build.log'),
  times: path.join(work, 'build-times.json'),
};
export const progressFile = defaultFiles.progress;

/** The newest modification time under `folder`, leaving out the folders named in `skipped` (builds, dependencies). */
function newestSource(folder, skipped) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    const full = path.join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full, skipped) : statSync(full).mtimeMs);
  }
  return newest;
}

const openapiFiles = ['v3.json', 'v2.json'].map((name) => path.join(openapi, name));

/**
 * The two builds, in the order they run: the console first, since it takes seconds where the portal takes minutes.
 * `steps` name what the build's output shows it doing: a step starts when its `starts` line appears (the first, at
 * once) and ends when the next starts, or when the build ends.
 */
export const buildTargets = [
  {
    tag: 'console',
    command: ['npm', 'run', 'build', '-w', 'console'],
    builtPage: path.join(root, 'console', 'dist', 'index.html'),
    // The console bundles the typed client (client/src, its generated types among them).
    sourcesChanged: () =>
      Math.max(
        newestSource(path.join(root, 'console'), new Set(['node_modules', 'dist'])),
        newestSource(path.join(root, 'client', 'src'), new Set()),
      ),
    steps: [{ name: 'console', title: 'Building the console (Vite)' }],
  },
  {
    tag: 'portal',
    command: ['npm', 'run', 'build', '-w', 'portal'],
    builtPage: path.join(root, 'portal', 'build', 'index.html'),
    // specs/ holds the reference pages that the build itself generates from the OpenAPI documents (gen-api-docs).
    sourcesChanged: () =>
      Math.max(
        newestSource(path.join(root, 'portal'), new Set(['node_modules', 'build', '.docusaurus', 'specs'])),
        ...openapiFiles.map((file) => statSync(file).mtimeMs),
      ),
    steps: [
      { name: 'reference', title: 'Writing the API reference pages', counts: /^Successfully created "/ },
      { name: 'compile', title: 'Compiling the portal', starts: /Creating an optimized production build/ },
      // Webpack compiles the client and server bundles side by side; rendering starts once the later one is done.
      { name: 'render', title: 'Rendering and compressing the pages', starts: /Compiled successfully/, after: 2 },
    ],
  },
];

/** The progress file as it is, or undefined. */
export function readProgress(file = progressFile) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Another process is building right now (a second `npm start`, `npm run portal:build` in another terminal). */
export function buildingElsewhere() {
  const progress = readProgress();
  return progress?.state === 'building' && progress.pid !== process.pid && alive(progress.pid);
}

/**
 * The builds to run: those whose built page is missing or older than their sources, those an interrupted build left
 * unfinished (Docusaurus empties portal/build first, so a half-built folder may still hold an index.html), or all
 * with `force`.
 */
export function staleBuilds({ force = false } = {}) {
  if (!openapiFiles.every(existsSync)) {
    const result = spawnSync('npm', ['run', 'openapi'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`Generating the OpenAPI documents failed (exit ${result.status ?? result.signal}); fix the error above and run again.`);
      process.exit(1);
    }
  }
  const previous = readProgress();
  const interrupted = previous?.state === 'building' && !alive(previous.pid);
  return buildTargets.filter((target) => {
    if (force || !existsSync(target.builtPage)) return true;
    if (interrupted && previous.steps.some((step) => step.target === target.tag && !step.endedAt)) return true;
    const current = statSync(target.builtPage).mtimeMs >= target.sourcesChanged();
    if (current) console.log(`[${target.tag}] ${path.relative(root, path.dirname(target.builtPage))} is up to date.`);
    return !current;
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/**
 * Runs the builds one after the other, keeping the progress file current, their output in tmp/build.log and, unless
 * `background`, in this terminal too (as `npm run portal:build` shows it). In the background (beside the server) each
 * build runs in a process group of its own, stopped with this process however it ends. Resolves to whether all
 * succeeded. `files` puts the reports elsewhere (the tests do).
 */
export async function runBuilds(builds, { background = false, files = defaultFiles } = {}) {
  mkdirSync(path.dirname(files.progress), { recursive: true });
  const lastTimes = (() => {
    try {
      return JSON.parse(readFileSync(files.times, 'utf8'));
    } catch {
      return {};
    }
  })();
  const progress = {
    pid: process.pid,
    startedAt: Date.now(),
    state: 'building',
    log: path.relative(root, files.log),
    steps: builds.flatMap((target) =>
      target.steps.map(({ name, title }) => ({ target: target.tag, name, title, lastSeconds: lastTimes[name] })),
    ),
  };
  const save = () => {
    writeFileSync(`${files.progress}.partial`, JSON.stringify(progress, null, 1));
    renameSync(`${files.progress}.partial`, files.progress);
  };
  save();
  const log = createWriteStream(files.log);
  for (const target of builds) {
    const steps = progress.steps.filter((step) => step.target === target.tag);
    const begin = (step) => {
      const now = Date.now();
      for (const earlier of steps.slice(0, steps.indexOf(step))) earlier.endedAt ??= now;
      step.startedAt ??= now;
      save();
    };
    begin(steps[0]);
    const matches = new Map();
    const started = Date.now();
    const built = path.relative(root, path.dirname(target.builtPage));
    if (!background) console.log(`[${target.tag}] Building ${built}: ${target.command.join(' ')}`);
    const [program, ...args] = target.command;
    const child = spawn(program, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: background });
    const stop = () => {
      try {
        process.kill(-child.pid);
      } catch {
        // It has finished.
      }
    };
    if (background) process.once('exit', stop);
    let rest = '';
    const read = (chunk) => {
      if (!background) process.stdout.write(chunk);
      log.write(chunk);
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        target.steps.forEach((definition, index) => {
          const step = steps[index];
          if (definition.counts?.test(line)) {
            step.count = (step.count ?? 0) + 1;
            save();
          }
          if (definition.starts?.test(line)) {
            matches.set(index, (matches.get(index) ?? 0) + 1);
            if (matches.get(index) >= (definition.after ?? 1)) begin(step);
          }
        });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    const exit = await new Promise((resolve) => {
      child.on('error', (error) => resolve(error.message));
      child.on('close', (code, signal) => resolve(code ?? signal));
    });
    process.off('exit', stop);
    const now = Date.now();
    // A failed build's steps stay unfinished: the server shows the failure in place of what it would have served.
    if (exit !== 0) {
      progress.state = 'failed';
      progress.failure = `${target.command.join(' ')} failed (exit ${exit}) after ${seconds(now - started)}; its output is in ${progress.log}.`;
      save();
      log.end();
      return false;
    }
    for (const step of steps) {
      step.startedAt ??= now;
      step.endedAt ??= now;
    }
    if (!background) console.log(`[${target.tag}] Built ${built} in ${seconds(now - started)}.`);
  }
  progress.state = 'done';
  save();
  log.end();
  const times = Object.fromEntries(progress.steps.map((step) => [step.name, Math.round((step.endedAt - step.startedAt) / 1000)]));
  writeFileSync(files.times, JSON.stringify({ ...lastTimes, ...times }, null, 1));
  return true;
}
