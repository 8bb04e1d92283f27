// Builds the server into one ES module, server/dist/cli.mjs, when its sources changed since the last build or the
// bundle is missing; `npm start` runs this and then the bundle with plain node. Compiling the TypeScript on the fly
// with tsx costs every start about 1.5 s; esbuild bundles the same code in about a second, once.
// What is bundled: the server's and the contract's own sources (workspace packages are TypeScript, which plain node
// cannot load), and the packages from node_modules they import, but for those that find files next to their own at run
// time or load optional native modules (`runTimePackages`): loading fastify, drizzle, ajv and the rest file by file
// (hundreds of files, each resolved, read and compiled on its own) took about a quarter of a second of every start.
// The bundle is not portable: each module's import.meta.url and import.meta.dirname are replaced by the path of its
// source file, so the files it finds next to its sources (migrations, the file-check worker, portal/build) are the
// ones in this checkout. The fingerprint includes that path, so a moved checkout rebuilds.
// Development and the tests keep running the sources through tsx; only `npm start` uses the bundle.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'server', 'dist');
const bundle = path.join(outDir, 'cli.mjs');
const stampFile = path.join(outDir, '.sources-hash');
const sourceFolders = ['server/src', 'contract/src'].map((folder) => path.join(root, folder));
// This script too: how it bundles is part of what it builds.
const manifests = ['package-lock.json', 'server/package.json', 'contract/package.json', 'scripts/ensure-server-build.mjs'].map((file) =>
  path.join(root, file),
);

function sources(folder) {
  return readdirSync(folder, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return sources(full);
      return /\.(ts|mjs|json)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
    })
    .sort();
}

function fingerprint() {
  const hash = createHash('sha256').update(root).update('\0').update(process.version).update('\0');
  for (const file of [...sourceFolders.flatMap(sources), ...manifests]) {
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
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
 * module, pino starts its transport workers from files next to its own, and pg loads pg-native when it is installed.
 */
const runTimePackages = ['@electric-sql/pglite', 'pg', 'pino'];
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
    entryPoints: [path.join(root, 'server', 'src', 'cli.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [ownLocation, externalPackages],
    // The CommonJS packages bundled into this ES module require node's own modules (and the run-time packages).
    banner: { js: "import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(import.meta.url);" },
    write: false,
  });
  // esbuild's service process would otherwise outlive the build (`npm start` goes on to run the server here).
  await esbuild.stop();
  // Each file is written beside its place and renamed into it: a server starting meanwhile (another test run, another
  // terminal) reads the old bundle or the new one, never half of one.
  mkdirSync(outDir, { recursive: true });
  for (const file of result.outputFiles) {
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
}

const wanted = fingerprint();
const current = existsSync(bundle) && existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === wanted;
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
  writeFileSync(stampFile, `${wanted}\n`);
  console.log(`[server] Built server/dist/cli.mjs in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
