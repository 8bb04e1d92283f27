// Builds the client for projects that run plain JavaScript (the workspace itself imports the TypeScript sources):
// dist/ (gitignored) gets the JavaScript and declarations of src/index.ts and a package.json of its own, so
// `npm pack ./client/dist --pack-destination client/dist` makes a package that Node imports without tsx, and leaves it
// in dist. npm run build -w client runs it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const packageDir = join(import.meta.dirname, '..');

export function build(outDir = join(packageDir, 'dist')): void {
  rmSync(outDir, { recursive: true, force: true });
  const program = ts.createProgram([join(import.meta.dirname, 'index.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    declaration: true,
    // The sources import './client.ts'; the built files import './client.js'.
    rewriteRelativeImportExtensions: true,
    rootDir: import.meta.dirname,
    outDir,
  });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length) {
    const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => packageDir, getNewLine: () => '\n' };
    throw new Error(ts.formatDiagnostics(diagnostics, host));
  }
  const source = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const built = {
    name: source.name,
    version: source.version,
    description: source.description,
    type: 'module',
    exports: { '.': { types: './index.d.ts', default: './index.js' } },
    // The build and nothing else: the guide packs into dist, and a tarball packed there before stays out of the next.
    files: ['**/*.js', '**/*.d.ts'],
    dependencies: source.dependencies,
  };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(built, null, 2)}\n`);
}

if (process.argv[1] === import.meta.filename) {
  build();
  console.log(`built ${join(packageDir, 'dist')}`);
}
