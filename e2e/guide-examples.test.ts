// Runs the curl examples of the guides against a live sandbox, in reading order, and checks each
// answer: its status, the keys of the response shown after it, and the values later examples use.
//
// In the Markdown, a runnable example is a bash code block whose meta has `example`, optionally
// `status=NNN` (expected status, otherwise any 2xx) and `capture=NAME:json.path` (a value of the
// answer that later examples read as $NAME). A following ```json response``` block documents
// the answer; every key it shows must be in the real answer.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const repository = path.resolve(import.meta.dirname, '..');
const docs = path.join(repository, 'portal', 'docs');
const documentedAddress = 'http://127.0.0.1:8080';

/** Reading order: later guides use what earlier ones created (token, order type, order id). */
const guides = [
  'get-started/steps/authenticating.md',
  'get-started/steps/getting-settings.md',
  'get-started/steps/synchronizing-products.md',
  'shopapi/v3/authenticating.md',
  'shopapi/v3/general-concepts/jsonapi.md',
  'shopapi/v3/general-concepts/pagination.md',
  'sandbox.md',
];

interface Example {
  title: string;
  script: string;
  status?: number;
  capture?: [string, string];
  response?: unknown;
}

function examplesOf(file: string): Example[] {
  const blocks = [...readFileSync(path.join(docs, file), 'utf8').matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)];
  const examples: Example[] = [];
  blocks.forEach(([, language, meta, body], index) => {
    if (language !== 'bash' || !/(^|\s)example(\s|$)/.test(meta)) return;
    const next = blocks[index + 1];
    const capture = /capture=(\w+):(\S+)/.exec(meta);
    examples.push({
      title: /title="([^"]+)"/.exec(meta)?.[1] ?? `example ${examples.length + 1}`,
      script: body,
      status: Number(/status=(\d{3})/.exec(meta)?.[1]) || undefined,
      capture: capture ? [capture[1], capture[2]] : undefined,
      response: next && next[1] === 'json' && next[2].trim() === 'response' ? JSON.parse(next[3]) : undefined,
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

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const cli = path.join(repository, 'server', 'src', 'cli.ts');
let sandbox: ChildProcess | undefined;
let sandboxLog = '';
let baseUrl = '';
const dataDir = mkdtempSync(path.join(tmpdir(), 'guide-examples-'));
const variables: Record<string, string> = {};

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '' };
  // The client the guides use, created the way the sandbox guide tells readers to.
  execFileSync('npx', ['tsx', cli, 'client', 'create', '--username', 'my-shop', '--password', 'my-shop-secret'], {
    cwd: repository,
    env,
    stdio: 'pipe',
  });
  sandbox = spawn('npx', ['tsx', cli, 'start'], { cwd: repository, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  sandbox.stdout?.on('data', (chunk) => (sandboxLog += chunk));
  sandbox.stderr?.on('data', (chunk) => (sandboxLog += chunk));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const up = await fetch(`${baseUrl}/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    if (sandbox.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The sandbox did not start on ${baseUrl}:\n${sandboxLog}`);
});

afterAll(() => {
  if (sandbox?.pid) process.kill(-sandbox.pid);
  rmSync(dataDir, { recursive: true, force: true });
});

for (const guide of guides) {
  describe(guide, () => {
    for (const example of examplesOf(guide)) {
      test(example.title, () => {
        const work = mkdtempSync(path.join(tmpdir(), 'guide-example-'));
        // curl as the reader runs it, but recording each status and keeping the last body.
        const wrapper = `curl() { command curl -sS -o "${work}/body" -w '%{http_code}\\n' "$@" >> "${work}/statuses"; }\n`;
        writeFileSync(path.join(work, 'statuses'), '');
        const script = wrapper + example.script.replaceAll(documentedAddress, baseUrl);
        execFileSync('bash', ['-euo', 'pipefail', '-c', script], { env: { ...process.env, ...variables }, stdio: 'pipe' });
        const statuses = readFileSync(path.join(work, 'statuses'), 'utf8').trim().split('\n').map(Number);
        const bodyText = readFileSync(path.join(work, 'body'), 'utf8');
        rmSync(work, { recursive: true, force: true });
        const body: unknown = bodyText ? JSON.parse(bodyText) : undefined;
        for (const status of statuses) {
          if (example.status) expect(status, bodyText).toBe(example.status);
          else expect(status >= 200 && status < 300, `status ${status}: ${bodyText}`).toBe(true);
        }
        if (example.response !== undefined) {
          const missing = keyPaths(example.response).filter((key) => valueAt(body, key) === undefined);
          expect(missing, `keys shown in the guide but missing from the answer ${bodyText}`).toEqual([]);
        }
        if (example.capture) {
          const [name, jsonPath] = example.capture;
          const value = valueAt(body, jsonPath);
          expect(value, `${jsonPath} in ${bodyText}`).toBeDefined();
          variables[name] = String(value);
        }
      });
    }
  });
}
