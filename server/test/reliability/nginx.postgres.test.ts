// The reverse-proxy example of docs/OPERATIONS.md, exactly as written there, in front of two server processes
// on one PostgreSQL database, with Debian's nginx on loopback. (PostgreSQL only: an embedded database has one process.)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCredentials, serverEnv, startServerProcess, tokenFor, type ServerEnv, type ServerProcess } from '../support/server-process.ts';
import { freePort } from '../support/ports.ts';
import { orderDocument } from '../support/fixtures.ts';

const repository = join(import.meta.dirname, '..', '..', '..');
const nginxBinary = '/usr/sbin/nginx';

let env: ServerEnv;
const servers: ServerProcess[] = [];
let nginx: ChildProcess | undefined;
let proxy: string;
let folder: string;

/** The nginx block of the operations guide, pointed at this test's processes and port. */
function documentedConfig(backendPorts: number[], listenPort: number): string {
  const guide = readFileSync(join(repository, 'docs', 'OPERATIONS.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('docs/OPERATIONS.md has no nginx example');
  let backend = 0;
  return block
    .replace(/server 127\.0\.0\.1:\d+;/g, () => `server 127.0.0.1:${backendPorts[backend++]};`)
    .replace(/listen \d+;/, `listen 127.0.0.1:${listenPort};`);
}

async function requestsSeenBy(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('http_requests_total{') && line.includes('route="/status"'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

beforeAll(async () => {
  execFileSync('bash', [join(repository, 'scripts', 'ensure-nginx.sh')], { stdio: 'inherit' });
  if (!existsSync(nginxBinary)) throw new Error('nginx is not installed and could not be installed with apt-get');
  env = await serverEnv();
  servers.push(await startServerProcess(env.env));
  servers.push(await startServerProcess(env.env));
  folder = mkdtempSync(join(tmpdir(), 'nginx-'));
  const listenPort = await freePort();
  const ports = servers.map((s) => Number(new URL(s.url).port));
  writeFileSync(
    join(folder, 'nginx.conf'),
    `
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  ${documentedConfig(ports, listenPort)}
}
`,
  );
  nginx = spawn(nginxBinary, ['-p', folder, '-c', join(folder, 'nginx.conf'), '-g', 'daemon off; master_process off;'], {
    stdio: 'inherit',
  });
  proxy = `http://127.0.0.1:${listenPort}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (
      await fetch(`${proxy}/status`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not answer: ${existsSync(join(folder, 'error.log')) ? readFileSync(join(folder, 'error.log'), 'utf8') : ''}`);
}, 120_000);

afterAll(async () => {
  nginx?.kill('SIGTERM');
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  env?.cleanup();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('two processes behind the documented nginx configuration', () => {
  it('spreads requests over both processes', async () => {
    const before = await Promise.all(servers.map(requestsSeenBy));
    for (let i = 0; i < 20; i++) expect((await fetch(`${proxy}/status`)).status).toBe(200);
    const after = await Promise.all(servers.map(requestsSeenBy));
    const served = after.map((count, i) => count - before[i]);
    expect(served.reduce((a, b) => a + b, 0)).toBe(20);
    expect(served.every((count) => count > 0)).toBe(true);
  });

  it('a client works through the proxy, and each process sees what the other wrote', async () => {
    const token = await tokenFor(proxy, demoCredentials(servers[0]));
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' };
    const product = await fetch(`${proxy}/v3/products`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: { type: 'product', attributes: { sku: 'PROXY-1', name: 'Through nginx' } } }),
    });
    expect(product.status).toBe(201);
    const settings = (await (await fetch(`${proxy}/settings/get`, { headers })).json()) as { result: { orderTypes: { id: number }[] } };
    const created = await fetch(`${proxy}/v3/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify(
        orderDocument({ orderTypeIds: settings.result.orderTypes.map((t) => t.id) }, { items: [{ sku: 'PROXY-1', quantity: 1 }] }),
      ),
    });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { id: number } };
    for (const server of servers) {
      expect((await fetch(`${server.url}/v3/orders/${data.id}`, { headers })).status).toBe(200);
    }
  });

  it("keeps /metrics to the proxy's own machine and passes bodies up to the image limit", async () => {
    expect((await fetch(`${proxy}/metrics`)).status).toBe(200);
    const big = await fetch(`${proxy}/v3/products/1/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.alloc(2 * 1024 * 1024),
    });
    expect(big.status).toBe(401);
  });
});
