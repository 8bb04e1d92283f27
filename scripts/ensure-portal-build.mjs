// Builds the console and the portal when they are out of date (scripts/builds.mjs says when), or both with `--force`,
// showing their output here; `npm run portal:build` and the portal's tests run this. `npm start` runs the same builds
// beside the server instead, so the API answers while they run.
import { buildingElsewhere, progressFile, readProgress, runBuilds, staleBuilds } from './builds.mjs';

if (buildingElsewhere()) {
  console.error(
    `Process ${readProgress().pid} is building the portal or the console right now (${progressFile}); run this again once it is done.`,
  );
  process.exit(1);
}
const builds = staleBuilds({ force: process.argv.includes('--force') });
if (builds.length && !(await runBuilds(builds))) {
  console.error(`${readProgress().failure} Fix the error above and run again.`);
  process.exit(1);
}
