// The committed types must be what the contract generates today: a contract change without `npm run openapi` fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedDir, typesText } from '../src/generate-types.ts';

describe('the generated types', () => {
  for (const version of ['v3', 'v2'] as const) {
    it(`client/src/generated/${version}.ts is current`, async () => {
      const committed = readFileSync(join(generatedDir, `${version}.ts`), 'utf8');
      const current = await typesText(version);
      expect(committed === current, `client/src/generated/${version}.ts is out of date with the contract: run npm run openapi`).toBe(true);
    });
  }
});
