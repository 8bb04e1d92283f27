// Writes the OpenAPI documents (contract/openapi/v3.json and v2.json) when the contract changed since they were last
// written, or when they are missing. `npm start` runs this: generating them compiles the whole contract (about 2 s),
// which a start on an unchanged contract does not need. The stamp of the contract's sources and package.json
// (scripts/source-stamp.mjs) is kept beside the documents in contract/openapi/.sources-hash.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourcesStamp } from './source-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contract = path.join(root, 'contract');
const outDir = path.join(contract, 'openapi');
const stampFile = path.join(outDir, '.sources-hash');

function sources(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(folder, entry.name);
      return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [full] : [];
    })
    .sort();
}

const stamp = sourcesStamp(contract, [...sources(path.join(contract, 'src')), path.join(contract, 'package.json')]);
const documents = ['v3.json', 'v2.json'].map((name) => path.join(outDir, name));
const current = stamp.upToDate(stampFile) && documents.every(existsSync);
if (current && !process.argv.includes('--force')) {
  console.log('OpenAPI documents are up to date with the contract');
} else {
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(contract, 'src', 'generate-openapi.ts')], {
    cwd: contract,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`Generating the OpenAPI documents failed (exit ${result.status ?? result.signal}); fix the error above and run again.`);
    process.exit(1);
  }
  stamp.record(stampFile);
}
