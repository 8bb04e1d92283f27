// Runs the shell examples of the guides against a live sandbox, in reading order, and checks each answer: its status,
// the keys of the response shown after it (for an error, its values too), and the values later examples use.
//
// In the Markdown, a runnable example is a bash code block whose meta has `example`, optionally
// - `status=NNN`: the status of every call in it (otherwise any 2xx);
// - `capture=NAME:json.path`: a value of the last answer that later examples read as $NAME;
// - `expect=json.path:VALUE`: the last answer shows VALUE there; asked again for up to 10 s, since the sandbox does some
//   things a moment after it answers (a webhook delivery), so only for examples that read;
// - `background`: a process the reader leaves running in a second terminal (a webhook receiver), stopped at the end.
// A following ```json response``` block documents the last answer: every key it shows must be in the real answer, and
// an error answer (status 400 and up) must show the documented values, so no guide shows an error the server never gives.
//
// A TypeScript code block whose meta has `example` (```ts client example```, a test file written with node:test) is run
// as the reader runs it, `npx tsx --test`, from a file under the repository's tmp/ so that @shopapi/client resolves; it
// passes when every test in it passes.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  documentedAddress,
  fencedBlocks,
  freePort,
  killGroup,
  type LiveSandbox,
  listening,
  repository,
  runShell,
  startLiveSandbox,
  type ShellRun,
} from './live-sandbox.ts';

const docs = path.join(repository, 'portal', 'docs');
/** Where the guides' webhook receiver listens; the test gives it a free port instead. */
const documentedReceiverPort = 9000;

/** Reading order: later guides use what earlier ones created (the client, token, order type, order id). */
const guides = [
  'get-started/steps/authenticating.md',
  'get-started/steps/getting-settings.md',
  'get-started/steps/synchronizing-products.md',
  'get-started/steps/order-to-delivery.md',
  'shopapi/v3/authenticating.md',
  'shopapi/v3/general-concepts/jsonapi.md',
  'shopapi/v3/general-concepts/pagination.md',
  'sandbox.md',
  'test-every-road.md',
];

interface Example {
  language: 'bash' | 'ts';
  title: string;
  script: string;
  status?: number;
  capture?: [string, string];
  expected?: [string, string];
  background: boolean;
  response?: unknown;
}

function examplesOf(file: string): Example[] {
  const blocks = fencedBlocks(readFileSync(path.join(docs, file), 'utf8'));
  const examples: Example[] = [];
  blocks.forEach(({ language, meta, body }, index) => {
    if ((language !== 'bash' && language !== 'ts') || !/(^|\s)example(\s|$)/.test(meta)) return;
    const next = blocks[index + 1];
    const capture = /capture=(\w+):(\S+)/.exec(meta);
    const expected = /expect=([\w.]+):(\S+)/.exec(meta);
    examples.push({
      language,
      title: /title="([^"]+)"/.exec(meta)?.[1] ?? `example ${examples.length + 1}`,
      script: body,
      status: Number(/status=(\d{3})/.exec(meta)?.[1]) || undefined,
      capture: capture ? [capture[1], capture[2]] : undefined,
      expected: expected ? [expected[1], expected[2]] : undefined,
      background: /(^|\s)background(\s|$)/.test(meta),
      response: next && next.language === 'json' && next.meta.trim() === 'response' ? JSON.parse(next.body) : undefined,
    });
  });
  return examples;
}

function valueAt(value: unknown, jsonPath: string): unknown {
  return jsonPath.split('.').reduce<unknown>((current, key) => (current as Record<string, unknown> | undefined)?.[key], value);
}

/** The key paths a documented answer shows: object keys recursively, arrays through their first item. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.length ? keyPaths(value[0], `${prefix}.0`) : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => [
    `${prefix}${prefix ? '.' : ''}${key}`,
    ...keyPaths(child, `${prefix}${prefix ? '.' : ''}${key}`),
  ]);
}

let sandbox: LiveSandbox;
let receiverPort: number;
const background: ChildProcess[] = [];
const variables: Record<string, string> = {};

beforeAll(async () => {
  sandbox = await startLiveSandbox();
  receiverPort = await freePort();
});

afterAll(async () => {
  for (const child of background) killGroup(child);
  await sandbox?.stop();
});

/** The example as the reader runs it, pointed at this test's sandbox and webhook receiver. */
const scriptOf = (example: Example) =>
  example.script
    .replaceAll(documentedAddress, sandbox.baseUrl)
    .replaceAll(`127.0.0.1:${documentedReceiverPort}`, `127.0.0.1:${receiverPort}`)
    .replaceAll(`listen(${documentedReceiverPort},`, `listen(${receiverPort},`);

async function run(example: Example): Promise<{ run: ShellRun; body: unknown }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = runShell(scriptOf(example), { env: { ...sandbox.env, ...variables }, cwd: repository });
    const body: unknown = run.body ? JSON.parse(run.body) : undefined;
    if (!example.expected || String(valueAt(body, example.expected[0])) === example.expected[1] || Date.now() > deadline)
      return { run, body };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A TypeScript example, a node:test file, run with tsx: its test report when a test fails. */
function runTypeScript(guide: string, example: Example): { status: number | null; report: string } {
  const file = path.join(
    repository,
    'tmp',
    'guide-examples',
    `${path.basename(guide, '.md')}-${example.title.replace(/\W+/g, '-')}.test.ts`,
  );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, scriptOf(example));
  const run = spawnSync('npx', ['tsx', '--test', file], { env: { ...sandbox.env, ...variables }, cwd: repository, encoding: 'utf8' });
  return { status: run.status, report: `${run.stdout}${run.stderr}` };
}

for (const guide of guides) {
  describe(guide, () => {
    for (const example of examplesOf(guide)) {
      if (example.language === 'ts') {
        test(example.title, () => {
          const { status, report } = runTypeScript(guide, example);
          expect(status, report).toBe(0);
        }, 120_000);
        continue;
      }
      test(example.title, async () => {
        if (example.background) {
          background.push(spawn('bash', ['-c', scriptOf(example)], { env: sandbox.env, stdio: 'ignore', detached: true }));
          expect(await listening(receiverPort), 'the example listens on the documented port').toBe(true);
          return;
        }
        const { run: result, body } = await run(example);
        for (const { status, method, url } of result.calls) {
          const call = `${method} ${url} answered ${status}: ${result.body}`;
          if (example.status) expect(status, call).toBe(example.status);
          else expect(status >= 200 && status < 300, call).toBe(true);
        }
        if (example.response !== undefined) {
          const missing = keyPaths(example.response).filter((key) => valueAt(body, key) === undefined);
          expect(missing, `keys shown in the guide but missing from the answer ${result.body}`).toEqual([]);
          if ((example.status ?? 200) >= 400) expect(body, 'the error the guide shows').toMatchObject(example.response as object);
        }
        if (example.expected) expect(String(valueAt(body, example.expected[0])), result.body).toBe(example.expected[1]);
        if (example.capture) {
          const [name, jsonPath] = example.capture;
          const value = valueAt(body, jsonPath);
          expect(value, `${jsonPath} in ${result.body}`).toBeDefined();
          variables[name] = String(value);
        }
      });
    }
  });
}
