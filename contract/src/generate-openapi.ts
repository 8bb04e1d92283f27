// Writes contract/openapi/v3.json and v2.json (npm run openapi). A document is rewritten only when its content
// changed, so tools that compare modification times (the portal build) do not redo work for nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from './openapi.ts';

const outDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'openapi');
mkdirSync(outDir, { recursive: true });
for (const version of ['v3', 'v2'] as const) {
  const file = join(outDir, `${version}.json`);
  const doc = buildOpenApi(version);
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const operations = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) {
    console.log(`${file} is up to date (${operations} operations)`);
    continue;
  }
  writeFileSync(file, text);
  console.log(`wrote ${file} (${operations} operations)`);
}
