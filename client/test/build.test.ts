// npm run build -w client makes a package plain Node imports: built into a scratch project's node_modules, it runs a
// call (token flow included) from a .mjs file without tsx, and its declarations type-check a consumer's code.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
});
