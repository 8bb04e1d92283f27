// Builds the server into ES modules, server/dist/cli.mjs and the chunks it loads (server/dist/chunks/), when its
// sources changed since the last build or the build is missing; `npm start` runs this and then the bundle with plain
// node. Compiling the TypeScript on the fly with tsx costs every start about 1.5 s; esbuild bundles the same code in
// about a second, once.
// What is bundled: the server's and the contract's own sources (workspace packages are TypeScript, which plain node
// cannot load), and the packages from node_modules they import, but for those that find files next to their own at run
// time or load optional native modules (`runTimePackages`): loading fastify, drizzle, ajv and the rest file by file
// (hundreds of files, each resolved, read and compiled on its own) took about a quarter of a second of every start.
// What a module imports with `import()` is a chunk of its own, loaded when first used: PostgreSQL's driver (pg and
// drizzle's node-postgres, about 30 files that the embedded database never needs), pdf-lib (a fifth of the code,
// for return labels) and file-type. cli.mjs is written last, so a server starting meanwhile finds every chunk it names.
// The bundle is not portable: each module's import.meta.url and import.meta.dirname are replaced by the path of its
// source file, so the files it finds next to its sources (migrations, the file-check worker, portal/build) are the
// ones in this checkout. The stamp includes that path, so a moved checkout rebuilds.
// Development and the tests keep running the sources through tsx; only `npm start` uses the bundle.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourcesStamp } from './source-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'server', 'dist');
const bundle = path.join(outDir, 'cli.mjs');
const chunksDir = path.join(outDir, 'chunks');
const stampFile = path.join(outDir, '.sources-hash');
/** The chunks of the last build, one file name a line: a rebuild keeps them for a server that still runs that build. */
const chunksFile = path.join(outDir, '.chunks');
const sourceFolders = ['server/src', 'contract/src'].map((folder) => path.join(root, folder));
// This script too: how it bundles is part of what it builds.
const manifests = [
  'package-lock.json',
  'server/package.json',
  'contract/package.json',
  'scripts/ensure-server-build.mjs',
  'scripts/source-stamp.mjs',
].map((file) => path.join(root, file));

function sources(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return sources(full);
      return /\.(ts|mjs|json)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
    })
    .sort();
}

/** The source's own location instead of the bundle's, for the few modules that find files next to themselves. */
const ownLocation = {
  name: 'own-location',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      return {
        loader: 'ts',
        contents: text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path)),
      };
    });
  },
};

/**
 * Packages loaded from node_modules at run time, not bundled: PGlite reads its WebAssembly and data files next to its
 * module, and pg loads pg-native when it is installed. pino is bundled: it finds files next to its own only to start
 * transport workers, which the server does not configure (its 30 files loaded one by one took about 50 ms of a start).
 */
const runTimePackages = ['@electric-sql/pglite', 'pg'];
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      runTimePackages.includes(packageOf(args.path)) ? { path: args.path, external: true } : undefined,
    );
  },
};

async function buildServer() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { cli: path.join(root, 'server', 'src', 'cli.ts') },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [ownLocation, externalPackages],
    // The CommonJS packages bundled into these ES modules require node's own modules (and the run-time packages).
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    write: false,
  });
  // esbuild's service process would otherwise outlive the build (`npm start` goes on to run the server here).
  await esbuild.stop();
  // Each file is written beside its place and renamed into it, the entry's last: a server starting meanwhile (another
  // test run, another terminal) reads the old bundle or the new one, never half of one.
  mkdirSync(chunksDir, { recursive: true });
  const entryLast = result.outputFiles.toSorted((a, b) => Number(a.path.startsWith(bundle)) - Number(b.path.startsWith(bundle)));
  for (const file of entryLast) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  // Chunks of neither this build nor the one before go; those of the one before stay for a server still running it,
  // and the files another build is writing (.partial) stay too.
  const chunks = result.outputFiles.map((file) => path.relative(chunksDir, file.path)).filter((name) => !name.startsWith('..'));
  const previous = existsSync(chunksFile) ? readFileSync(chunksFile, 'utf8').split('\n') : [];
  const kept = new Set([...chunks, ...previous]);
  for (const name of readdirSync(chunksDir)) {
    if (!kept.has(name) && !name.endsWith('.partial')) rmSync(path.join(chunksDir, name), { force: true });
  }
  writeFileSync(chunksFile, `${chunks.join('\n')}\n`);
}

const stamp = sourcesStamp(root, [...sourceFolders.flatMap(sources), ...manifests], [root, process.version]);
const current = stamp.upToDate(stampFile) && existsSync(bundle);
if (current && !process.argv.includes('--force')) {
  console.log('[server] server/dist/cli.mjs is up to date.');
} else {
  const started = Date.now();
  try {
    await buildServer();
  } catch (error) {
    console.error(`[server] Building server/dist/cli.mjs failed: ${error.message}`);
    process.exit(1);
  }
  stamp.record(stampFile);
  console.log(`[server] Built server/dist/cli.mjs in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
