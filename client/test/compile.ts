// Type-checks a few files, on disk or in memory, with the repository's compiler options: for tests that assert what
// compiles against @shopapi/client and what does not. Only the named files are checked, so it takes seconds.
import { join, resolve } from 'node:path';
import ts from 'typescript';

const repository = resolve(import.meta.dirname, '../..');

export interface Diagnostic {
  file: string;
  /** 1-based. */
  line: number;
  code: number;
  message: string;
}

/**
 * The diagnostics of `files` (absolute paths) and of `inMemory` (absolute path → source, as if it were on disk), with
 * the repository's compiler options and `overrides`.
 */
export function typeCheck(files: string[], inMemory: Record<string, string> = {}, overrides: ts.CompilerOptions = {}): Diagnostic[] {
  const { config } = ts.readConfigFile(join(repository, 'tsconfig.json'), ts.sys.readFile);
  const options = { ...ts.parseJsonConfigFileContent(config, ts.sys, repository).options, ...overrides };
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => name in inMemory || fileExists(name);
  host.readFile = (name) => inMemory[name] ?? readFile(name);
  host.getSourceFile = (name, language, ...rest) =>
    name in inMemory ? ts.createSourceFile(name, inMemory[name], language) : getSourceFile(name, language, ...rest);
  const roots = [...files, ...Object.keys(inMemory)];
  const program = ts.createProgram(roots, options, host);
  return roots.flatMap((name) => {
    const source = program.getSourceFile(name);
    if (!source) throw new Error(`${name} is not in the program`);
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((diagnostic) => ({
      file: name,
      line: source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1,
      code: diagnostic.code,
      message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    }));
  });
}
