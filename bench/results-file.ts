// bench/RESULTS.md is written by several benchmarks, each between its own markers; what is outside them
// (the findings written by hand) stays as it is.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const resultsFile = path.resolve(import.meta.dirname, 'RESULTS.md');

/**
 * Puts `section` (which starts with `begin` and ends with `end`) in place of the text between those markers, or,
 * when they are not there yet, where `whereMissing` puts it (at the end by default).
 */
export function writeSection(
  begin: string,
  end: string,
  section: string,
  whereMissing = (text: string) => `${text.trimEnd()}\n\n${section}\n`,
): void {
  const text = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '# Benchmark results\n';
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  writeFileSync(resultsFile, a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + end.length) : whereMissing(text));
}
