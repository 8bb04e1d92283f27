// Builds the portal when portal/build is missing or older than its sources or the OpenAPI documents it renders, and the
// console when console/dist is missing or older than its sources or the typed client it calls the API through (with
// the client's generated types). `npm start` runs this before the server serves both; `--force` builds both anyway.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const openapi = path.join(root, 'contract', 'openapi');
const force = process.argv.includes('--force');

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

function run(tag, command, args, what) {
  console.log(`[${tag}] ${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      `[${tag}] ${what} failed (exit ${result.status ?? result.signal}). The ${tag} cannot be served; fix the error above and run again.`,
    );
    process.exit(1);
  }
}

/** Builds the workspace `tag` when its built page is missing, older than `sourcesChanged`, or `--force` asks. */
function ensureBuilt(tag, builtPage, sourcesChanged) {
  const built = path.relative(root, path.dirname(builtPage));
  if (!force && existsSync(builtPage) && statSync(builtPage).mtimeMs >= sourcesChanged) {
    console.log(`[${tag}] ${built} is up to date.`);
    return;
  }
  const started = Date.now();
  run(tag, 'npm', ['run', 'build', '-w', tag], existsSync(builtPage) ? `Rebuilding the ${tag} (sources changed)` : `Building the ${tag}`);
  console.log(`[${tag}] Built ${built} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

const openapiFiles = ['v3.json', 'v2.json'].map((name) => path.join(openapi, name));
if (!openapiFiles.every(existsSync)) run('portal', 'npm', ['run', 'openapi'], 'Generating the OpenAPI documents');

// specs/ holds the reference pages that the build itself generates from the OpenAPI documents (gen-api-docs).
const portalFolder = path.join(root, 'portal');
ensureBuilt(
  'portal',
  path.join(portalFolder, 'build', 'index.html'),
  Math.max(
    newestSource(portalFolder, new Set(['node_modules', 'build', '.docusaurus', 'specs'])),
    ...openapiFiles.map((file) => statSync(file).mtimeMs),
  ),
);

// The console bundles the typed client (client/src, its generated types among them).
const consoleFolder = path.join(root, 'console');
ensureBuilt(
  'console',
  path.join(consoleFolder, 'dist', 'index.html'),
  Math.max(newestSource(consoleFolder, new Set(['node_modules', 'dist'])), newestSource(path.join(root, 'client', 'src'), new Set())),
);
