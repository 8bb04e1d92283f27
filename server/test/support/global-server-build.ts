// Vitest global setup: the server bundle that `npm start` runs (scripts/ensure-server-build.mjs), built when the sources
// changed, so the tests that start the server as a process (crash, operations, data folder) test that very artefact.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function setup() {
  const root = join(import.meta.dirname, '..', '..', '..');
  execFileSync(process.execPath, [join(root, 'scripts', 'ensure-server-build.mjs')], { cwd: root, stdio: 'inherit' });
}
