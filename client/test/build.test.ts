// npm run build -w client makes a package plain Node imports: built into a scratch project's node_modules, it runs a
// call (token flow included) from a .mjs file without tsx, and its declarations type-check a consumer's code; the
// guide's pack commands leave the repository as they found it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/build.ts';
import { typeCheck } from './compile.ts';

const repository = resolve(import.meta.dirname, '../..');
const project = mkdtempSync(join(tmpdir(), 'shopapi-client-consumer-'));

beforeAll(() => {
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  build(join(project, 'node_modules', '@shopapi', 'client'));
  // What npm would install for the built package's dependencies.
  for (const dependency of ['openapi-fetch', 'openapi-typescript-helpers']) {
    symlinkSync(join(repository, 'node_modules', dependency), join(project, 'node_modules', dependency), 'dir');
  }
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the built package', () => {
  it('runs under plain node: a token, then the call with it', () => {
    const script = join(project, 'main.mjs');
    writeFileSync(
      script,
      `import { createShopApiClient } from '@shopapi/client';
const seen = [];
const api = createShopApiClient({
  baseUrl: 'http://sandbox.invalid',
  username: 'my-shop',
  password: 'my-shop-secret',
  fetch: async (input, init) => {
    const request = new Request(input, init);
    seen.push(request.method + ' ' + new URL(request.url).pathname + ' ' + (request.headers.get('authorization') ?? '-'));
    if (request.url.endsWith('/token')) return Response.json({ access_token: 'abc', token_type: 'bearer', expires_in: 3600 });
    return new Response(JSON.stringify({ data: [{ type: 'order', id: 7 }] }), { headers: { 'content-type': 'application/vnd.api+json' } });
  },
});
const { data } = await api.GET('/v3/orders');
console.log(JSON.stringify({ ids: data.data.map((order) => order.id), seen }));
`,
    );
    // Plain node: no loader of the test runner's.
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const output = execFileSync(process.execPath, [script], { cwd: project, env, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual({ ids: [7], seen: ['POST /token -', 'GET /v3/orders Bearer abc'] });
  });

  it("types a consumer's calls through its declarations", () => {
    const consumer = join(project, 'consumer.ts');
    const diagnostics = typeCheck(
      [],
      {
        [consumer]: [
          "import { createShopApiClient } from '@shopapi/client';",
          "const api = createShopApiClient({ baseUrl: 'http://127.0.0.1:8080', username: 'my-shop', password: 'my-shop-secret' });",
          "const { data } = await api.GET('/v3/orders');",
          'const externalOrderNumber: string | undefined = data?.data[0]?.attributes.externalOrderNumber;',
          'console.log(externalOrderNumber);',
          "await api.GET('/v3/nothing', {});",
        ].join('\n'),
      },
      // A consumer's own settings: it imports .js, not .ts.
      { allowImportingTsExtensions: false },
    );
    expect(diagnostics.map(({ line, code }) => `${line}: TS${code}`)).toEqual(['6: TS2345']);
  });

  it("packs with the guide's commands into client/dist, and npm pack leaves no file the repository's status shows", {
    timeout: 240_000,
  }, () => {
    const run = (command: string) => execFileSync('sh', ['-c', command], { cwd: repository, encoding: 'utf8', stdio: 'pipe' });
    const status = () => run('git status --porcelain --untracked-files=all');
    const guide = readFileSync(join(repository, 'portal', 'docs', 'tools', 'typescript-client.md'), 'utf8');
    const block = /```bash\n(npm run build -w client[^\n]*\nnpm pack [^\n]*)\n```/.exec(guide)?.[1];
    expect(block).toBeDefined();
    const commands = (block ?? '').split('\n').map((line) => line.replace(/\s+#.*$/, ''));
    const tarball = /# (\S+\.tgz)$/.exec(block ?? '')?.[1] ?? '';
    expect(tarball).toBe('client/dist/shopapi-client-0.1.0.tgz');

    const before = status();
    for (const command of commands) run(command);
    expect(existsSync(join(repository, tarball))).toBe(true);
    // Packed again, the tarball holds the build only, not the tarball beside it.
    const listed = JSON.parse(run(`${commands[1]} --dry-run --json`)) as { files: { path: string }[] }[];
    expect(listed[0].files.map((file) => file.path).filter((path) => !/\.(js|d\.ts)$/.test(path))).toEqual(['package.json']);
    // The workspace package packed as it is writes its tarball in the repository root, which git ignores.
    const rootTarball = join(repository, 'shopapi-client-0.1.0.tgz');
    const rootTarballWasThere = existsSync(rootTarball);
    try {
      run('npm pack -w client');
      expect(existsSync(rootTarball)).toBe(true);
      expect(status()).toBe(before);
    } finally {
      if (!rootTarballWasThere) rmSync(rootTarball, { force: true });
    }
  });
});
