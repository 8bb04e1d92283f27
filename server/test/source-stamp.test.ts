// `npm start` rebuilds the server bundle and the OpenAPI documents only when their sources changed
// (scripts/source-stamp.mjs): unchanged sizes and times skip reading the sources, and the contents decide otherwise.
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { sourcesStamp } from '../../scripts/source-stamp.mjs';

const folder = mkdtempSync(join(tmpdir(), 'source-stamp-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const sources = [join(folder, 'a.ts'), join(folder, 'b.ts')];
const stampFile = join(folder, '.sources-hash');
const stamp = (salt: string[] = []) => sourcesStamp(folder, sources, salt);
/** Sets a file's modification time `seconds` from a fixed instant, so each step sees a time of its own. */
const touch = (file: string, seconds: number) => utimesSync(file, 1_700_000_000 + seconds, 1_700_000_000 + seconds);

it('is out of date without a stamp, and up to date once the build is recorded', () => {
  writeFileSync(sources[0]!, 'export const a = 1;\n');
  writeFileSync(sources[1]!, 'export const b = 2;\n');
  touch(sources[0]!, 0);
  touch(sources[1]!, 0);
  const first = stamp();
  expect(first.upToDate(stampFile)).toBe(false);
  first.record(stampFile);
  expect(stamp().upToDate(stampFile)).toBe(true);
  expect(stamp(['another checkout']).upToDate(stampFile)).toBe(false);
});

it('takes a touched file with the same contents as up to date, and renews the times it records', () => {
  const [contents, times] = readFileSync(stampFile, 'utf8').split('\n');
  touch(sources[1]!, 60);
  expect(stamp().upToDate(stampFile)).toBe(true);
  const [renewedContents, renewedTimes] = readFileSync(stampFile, 'utf8').split('\n');
  expect(renewedContents).toBe(contents);
  expect(renewedTimes).not.toBe(times);
});

it('sees a changed file, also one of the same size', () => {
  writeFileSync(sources[0]!, 'export const a = 3;\n');
  touch(sources[0]!, 120);
  expect(stamp().upToDate(stampFile)).toBe(false);
});

it('records the sources as they were when the build started: an edit made during the build is seen by the next start', () => {
  // As on a first build, where there is no stamp to compare with.
  rmSync(stampFile);
  const building = stamp();
  expect(building.upToDate(stampFile)).toBe(false);
  writeFileSync(sources[1]!, 'export const b = 4;\n');
  touch(sources[1]!, 180);
  building.record(stampFile);
  expect(stamp().upToDate(stampFile)).toBe(false);
});
