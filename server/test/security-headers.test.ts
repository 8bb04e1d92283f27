// Security headers: every API answer (v3, v2, errors) forbids sniffing, referrers, framing and loading anything; the
// portal's pages get a CSP that allows the portal's own files and exactly its inline scripts, by hash.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;
let client: TestClient;
beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
});
afterAll(() => sb.close());

type Headers = Record<string, unknown>;

/** The CSP's directives by name. */
const directives = (headers: Headers) =>
  new Map(
    String(headers['content-security-policy'])
      .split(';')
      .map((d) => {
        const [name, ...sources] = d.trim().split(/\s+/);
        return [name, sources] as const;
      }),
  );

function expectApiHeaders(headers: Headers) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(directives(headers)).toEqual(
    new Map([
      ['default-src', ["'none'"]],
      ['frame-ancestors', ["'none'"]],
    ]),
  );
  // HSTS belongs to the TLS terminator in front; the sandbox speaks plain HTTP.
  expect(headers).not.toHaveProperty('strict-transport-security');
}

describe('API answers', () => {
  it('a v3 answer', async () => {
    const answer = await sb.call('GET', '/v3/webhooks', { token: client.token });
    expect(answer.status).toBe(200);
    expectApiHeaders(answer.headers);
  });

  it('a v2 answer', async () => {
    const answer = await sb.call('GET', '/settings/get', { token: client.token });
    expect(answer.status).toBe(200);
    expectApiHeaders(answer.headers);
  });

  it('error answers: 401, 400, and 404 for an unknown path', async () => {
    const unauthorized = await sb.call('GET', '/v3/webhooks');
    expect(unauthorized.status).toBe(401);
    expectApiHeaders(unauthorized.headers);
    const invalid = await sb.call('POST', '/v3/webhooks', { token: client.token, body: { data: { type: 'webhook', attributes: {} } } });
    expect(invalid.status).toBe(400);
    expectApiHeaders(invalid.headers);
    const unknown = await sb.call('GET', '/v3/no-such-thing', { token: client.token });
    expect(unknown.status).toBe(404);
    expectApiHeaders(unknown.headers);
  });
});

describe('portal pages', () => {
  let app: FastifyInstance;
  const build = mkdtempSync(join(tmpdir(), 'portal-build-'));
  const bootstrap = 'document.documentElement.setAttribute("data-theme","dark")';
  const banner = 'function insertBanner(){}';
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  beforeAll(async () => {
    // Shaped like Docusaurus's output: an inline script on every page, another on one page, JSON-LD data blocks.
    const page = (path: string, body: string, extra = '') => {
      mkdirSync(join(build, path, '..'), { recursive: true });
      writeFileSync(
        join(build, path),
        `<html><head><script data-rh="true" type="application/ld+json">{"@type":"${path}"}</script>${extra}` +
          `<script src="/assets/main.js" defer="defer"></script></head><body><script>${bootstrap}</script>${body}</body></html>`,
      );
    };
    page('index.html', 'home', `<script data-rh="true">${banner}</script>`);
    page('404.html', 'Page Not Found');
    page('docs/index.html', 'documentation');
    mkdirSync(join(build, 'assets'));
    writeFileSync(join(build, 'assets', 'main.js'), 'console.log(1)');
    app = await buildApp({ db: sb.database.db, config: sb.config, logger: false, portalDir: build });
  });
  afterAll(async () => {
    await app.close();
    rmSync(build, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it.each([
    ['/', 200],
    ['/docs/', 200],
    ['/no/such/page', 404],
  ])("%s answers %i with the portal's CSP", async (url, status) => {
    const answer = await get(url);
    expect(answer.statusCode).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    const csp = directives(answer.headers);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    // Exactly the two inline scripts of the build, in every page's policy (client-side navigation keeps the first one).
    expect(csp.get('script-src')).toEqual(["'self'", ...[sha256(bootstrap), sha256(banner)].sort()]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(String(answer.headers['content-security-policy'])).not.toMatch(/https?:|\*/);
  });

  it('assets get nosniff too', async () => {
    const answer = await get('/assets/main.js');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it("API paths beside the portal keep the API's CSP, also when unknown", async () => {
    const unknown = await get('/v3/no-such-thing');
    expect(unknown.statusCode).toBe(404);
    expectApiHeaders(unknown.headers);
    const status = await get('/status');
    expect(status.statusCode).toBe(200);
    expectApiHeaders(status.headers);
  });
});
