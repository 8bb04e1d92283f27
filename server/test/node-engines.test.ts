// `npm ci` installs nothing that refuses the oldest Node the project supports (package.json engines, the README's
// "Node.js 20"): npm would print an EBADENGINE warning for it. A newer release that needs Node 22 gets pinned to one that
// does not, with an override in package.json.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const repository = join(import.meta.dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(repository, file), 'utf8'));
// npm's own range semantics (it checks engines with semver); the package has no type declarations of its own.
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

it('every package in package-lock.json accepts the oldest Node that package.json allows', () => {
  const oldest = semver.minVersion(read('package.json').engines.node)!.version;
  expect(oldest).toMatch(/^20\./);
  const packages: Record<string, { version?: string; engines?: { node?: string } }> = read('package-lock.json').packages;
  const refusing = Object.entries(packages)
    .filter(([, entry]) => entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
    .map(([place, entry]) => `${place}@${entry.version} wants node ${entry.engines!.node}`);
  expect(refusing).toEqual([]);
});
