// `npm start`: brings the generated parts up to date (the OpenAPI documents and the server bundle, each only when its
// sources changed), starts the console and portal builds that are out of date beside the server, then runs the server
// bundle in this same process. The server answers the API at once and shows the builds' progress at /docs and /console/
// until they are done (scripts/builds.mjs). One node process instead of several saves a few hundred milliseconds of
// start-up; each step still works alone as its own script.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildingElsewhere, runBuilds, staleBuilds } from './builds.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await import('./ensure-openapi.mjs');
await import('./ensure-server-build.mjs');
// Another process building (a second sandbox on this checkout, `npm run portal:build`): the server shows its progress.
const builds = buildingElsewhere() ? [] : staleBuilds();
// The server reports how they end (server/src/platform/build-progress.ts); a failure leaves the API running.
if (builds.length)
  runBuilds(builds, { background: true }).catch((error) => console.error(`Building the portal and console: ${error.message}`));
// The bundle reads its command from the arguments, as `node server/dist/cli.mjs start` would get them.
process.argv = [process.argv[0], path.join(root, 'server', 'dist', 'cli.mjs'), 'start', ...process.argv.slice(2)];
await import(pathToFileURL(path.join(root, 'server', 'dist', 'cli.mjs')).href);
