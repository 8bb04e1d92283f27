// npm start writes the OpenAPI documents only when the contract changed (scripts/ensure-openapi.mjs).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const stamp = join(root, 'contract', 'openapi', '.sources-hash');
const ensure = () => execFileSync(process.execPath, [join(root, 'scripts', 'ensure-openapi.mjs')], { cwd: root, encoding: 'utf8' });

it('generates the documents when the contract changed since the last time, and skips the work when it did not', () => {
  ensure();
  const fingerprint = readFileSync(stamp, 'utf8');
  // As after an edit of the contract: the recorded fingerprint no longer matches.
  writeFileSync(stamp, 'an older contract\n');
  const regenerated = ensure();
  expect(regenerated).toMatch(/v3\.json .*\(\d+ operations\)/);
  expect(regenerated).not.toContain('up to date with the contract');
  expect(readFileSync(stamp, 'utf8')).toBe(fingerprint);
  expect(ensure()).toContain('OpenAPI documents are up to date with the contract');
});
