// Builds the portal when portal/build is missing or older than its sources or the OpenAPI
// documents it renders. `npm start` runs this before the server serves portal/build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const portal = path.join(root, 'portal');
const openapi = path.join(root, 'contract', 'openapi');
const builtPage = path.join(portal, 'build', 'index.html');
// specs/ holds the reference pages that the build itself generates from the OpenAPI documents (gen-api-docs).
const generatedFolders = new Set(['node_modules', 'build', '.docusaurus', 'specs']);

function newestSource(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (generatedFolders.has(entry.name)) continue;
    const full = path.join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function run(command, args, what) {
  console.log(`[portal] ${what}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      `[portal] ${what} failed (exit ${result.status ?? result.signal}). The portal cannot be served; fix the error above and run again.`,
    );
    process.exit(1);
  }
}

const openapiFiles = ['v3.json', 'v2.json'].map((name) => path.join(openapi, name));
if (!openapiFiles.every(existsSync)) run('npm', ['run', 'openapi'], 'Generating the OpenAPI documents');

const force = process.argv.includes('--force');
const sourcesChanged = Math.max(newestSource(portal), ...openapiFiles.map((file) => statSync(file).mtimeMs));
if (!force && existsSync(builtPage) && statSync(builtPage).mtimeMs >= sourcesChanged) {
  console.log('[portal] portal/build is up to date.');
} else {
  const started = Date.now();
  run('npm', ['run', 'build', '-w', 'portal'], existsSync(builtPage) ? 'Rebuilding the portal (sources changed)' : 'Building the portal');
  console.log(`[portal] Built portal/build in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
