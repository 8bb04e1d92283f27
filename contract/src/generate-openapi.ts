// Writes contract/openapi/v3.json and v2.json (npm run openapi).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from './openapi.ts';

const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'openapi');
mkdirSync(outDir, { recursive: true });
for (const version of ['v3', 'v2'] as const) {
  const file = join(outDir, `${version}.json`);
  const doc = buildOpenApi(version);
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote ${file} (${Object.keys(doc.paths).length} paths)`);
}
