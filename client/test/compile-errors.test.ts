// The typed client turns a wrong request into a compile error: fixtures/wrong-bodies.ts has one error on each line
// marked `expect TSnnnn: text` and no other, and fixtures/right-bodies.ts, the same calls written correctly, has none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Diagnostic, typeCheck } from './compile.ts';

const wrong = join(import.meta.dirname, 'fixtures', 'wrong-bodies.ts');
const right = join(import.meta.dirname, 'fixtures', 'right-bodies.ts');

/** The errors the fixture's markers announce: line, code and a part of the message. */
function announced(file: string): { line: number; code: number; text: string }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, index) => {
      const marker = /\/\/ expect TS(\d+): (.+)$/.exec(line);
      return marker ? [{ line: index + 1, code: Number(marker[1]), text: marker[2] }] : [];
    });
}

let diagnostics: Diagnostic[];
beforeAll(() => {
  diagnostics = typeCheck([wrong, right]);
});

describe('compile errors for wrong requests', () => {
  it('reports each announced error of wrong-bodies.ts at its line, and no other', () => {
    const expected = announced(wrong);
    expect(expected.length).toBeGreaterThanOrEqual(10);
    const found = diagnostics.filter((diagnostic) => diagnostic.file === wrong);
    expect(found.map(({ line, code }) => `${line}: TS${code}`)).toEqual(expected.map(({ line, code }) => `${line}: TS${code}`));
    for (const { line, text } of expected) expect(found.find((diagnostic) => diagnostic.line === line)?.message).toContain(text);
  });

  it('compiles right-bodies.ts clean', () => {
    expect(diagnostics.filter((diagnostic) => diagnostic.file === right)).toEqual([]);
  });
});
