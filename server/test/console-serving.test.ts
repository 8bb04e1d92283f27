// The sandbox console at /console/: its built files (hashed assets cached for good, the rest revalidated, compressed),
// its index.html for the app's own routes, a 404 for a missing asset, a strict CSP, a page saying how to build it
// while it is not built, and the build's progress while `npm start` builds it.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/platform/db/index.ts';

const temporary = mkdtempSync(join(tmpdir(), 'console-serving-'));
const portal = join(temporary, 'portal');
const built = join(temporary, 'console');
const inlineScript = 'document.documentElement.dataset.theme = localStorage.getItem("theme") ?? "dark";';
const indexHtml = `<!doctype html><html><head><script>${inlineScript}</script><script type="module" crossorigin src="/console/assets/index-B1a2C3d4.js"></script><link rel="stylesheet" href="/console/assets/index-D5e6F7g8.css"></head><body><div id="root"></div></body></html>`;
const script = `// the console's entry chunk\n${Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n')}\n`;

/** A Vite build as `npm run build -w console` writes it: index.html at the root, hashed files under assets/. */
function writeConsoleBuild(root: string) {
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), indexHtml);
  writeFileSync(join(root, 'assets', 'index-B1a2C3d4.js'), script);
  writeFileSync(join(root, 'assets', 'index-D5e6F7g8.css'), 'body { margin: 0 }');
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
}

let database: Database;
const apps: FastifyInstance[] = [];
const start = async (dirs: { portalDir: string; consoleDir: string; buildProgressFile?: string }) => {
  const app = await buildApp({
    db: database.db,
    config: loadConfig({ logLevel: 'silent' }),
    logger: false,
    buildProgressFile: join(temporary, 'no-build-running.json'),
    ...dirs,
  });
  apps.push(app);
  return app;
};

let app: FastifyInstance;
beforeAll(async () => {
  mkdirSync(portal);
  writeFileSync(join(portal, 'index.html'), '<html><body>portal home</body></html>');
  writeFileSync(join(portal, '404.html'), '<html><body>Page Not Found</body></html>');
  writeFileSync(join(temporary, 'package.json'), '{"workspaces": []}');
  writeConsoleBuild(built);
  database = await openDatabase({ inMemory: true });
  app = await start({ portalDir: portal, consoleDir: built });
});
afterAll(async () => {
  for (const each of apps) await each.close();
  await database.close();
  rmSync(temporary, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

/** The CSP's directives by name. */
const directives = (csp: unknown) =>
  new Map(
    String(csp)
      .split(';')
      .map((d) => {
        const [name, ...sources] = d.trim().split(/\s+/);
        return [name, sources] as const;
      }),
  );

describe('serving the console', () => {
  it('redirects /console to /console/, keeping the query', async () => {
    for (const [url, location] of [
      ['/console', '/console/'],
      ['/console?next=/orders', '/console/?next=/orders'],
    ]) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(301);
      expect(answer.headers.location).toBe(location);
    }
  });

  it('answers /console/ with its index.html, revalidated on every visit', async () => {
    const answer = await get('/console/');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toBe(indexHtml);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers.etag).toBeDefined();
    const again = await get('/console/', { 'if-none-match': String(answer.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it.each(['/console/orders/12', '/console/requests', '/console/webhooks/3/deliveries?x=1', '/console/index'])(
    '%s (a route of the app, not a file) answers index.html with 200',
    async (url) => {
      const answer = await get(url);
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(indexHtml);
      expect(answer.headers['cache-control']).toBe('no-cache');
    },
  );

  it('answers HEAD as GET, without a body', async () => {
    const answer = await app.inject({ method: 'HEAD', url: '/console/orders/12' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toBe('');
  });

  it('serves hashed assets with their type, cached for a year as immutable, compressed', async () => {
    const js = await get('/console/assets/index-B1a2C3d4.js');
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe(script);
    const br = await get('/console/assets/index-B1a2C3d4.js', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(js.rawPayload.length);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const css = await get('/console/assets/index-D5e6F7g8.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('serves other built files, revalidated', async () => {
    const answer = await get('/console/favicon.svg');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(answer.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for a missing asset, never the index.html in its place', async () => {
    for (const url of ['/console/assets/index-0ld0ld00.js', '/console/assets/', '/console/assets/nested/missing.css']) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.body).not.toContain('<div id="root">');
    }
  });

  it('never serves a file outside the build folder', async () => {
    for (const url of ['/console/../package.json', '/console/%2e%2e/package.json', '/console/assets/%2e%2e/%2e%2e/package.json']) {
      const answer = await get(url);
      expect(answer.body, url).not.toContain('"workspaces"');
    }
  });

  it('gives its pages and files a strict CSP: its own files, its inline script by hash, calls to this server only', async () => {
    for (const url of ['/console/', '/console/orders/12', '/console/assets/index-B1a2C3d4.js']) {
      const answer = await get(url);
      const csp = directives(answer.headers['content-security-policy']);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'", `'sha256-${createHash('sha256').update(inlineScript).digest('base64')}'`]);
      expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(String(answer.headers['content-security-policy'])).not.toMatch(/https?:|\*|unsafe-eval/);
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('leaves the portal and the API beside it as they were', async () => {
    expect((await get('/')).body).toContain('portal home');
    expect((await get('/consoles')).statusCode).toBe(404);
    const api = await get('/sandbox/clock');
    expect(api.statusCode).toBe(401);
    expect(directives(api.headers['content-security-policy']).get('default-src')).toEqual(["'none'"]);
  });
});

describe('before the console is built', () => {
  it('starts, answers 503 with how to build it, and serves the build once it is there, without a restart', async () => {
    const later = join(temporary, 'console-later');
    // Neither the portal nor the console built.
    const bare = await start({ portalDir: join(temporary, 'no-portal'), consoleDir: later });
    for (const url of ['/console/', '/console/orders/12', '/console/assets/index-B1a2C3d4.js']) {
      const answer = await bare.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(503);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.body).toContain('npm run build -w console');
    }
    expect((await bare.inject({ method: 'GET', url: '/console' })).statusCode).toBe(301);
    writeConsoleBuild(later);
    const answer = await bare.inject({ method: 'GET', url: '/console/orders/12' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(indexHtml);
    expect((await bare.inject({ method: 'GET', url: '/console/assets/index-B1a2C3d4.js' })).body).toBe(script);
  });

  it("while npm start builds it, answers the build's progress, then the console", async () => {
    const later = join(temporary, 'console-building');
    const progressFile = join(temporary, 'build-progress.json');
    const step = { target: 'console', name: 'console', title: 'Building the console (Vite)', startedAt: Date.now() - 4000 };
    const progress = { pid: process.pid, startedAt: Date.now() - 4000, state: 'building', log: 'tmp/build.log', steps: [step] };
    writeFileSync(progressFile, JSON.stringify(progress));
    const building = await start({ portalDir: join(temporary, 'no-portal'), consoleDir: later, buildProgressFile: progressFile });
    const answer = await building.inject({ method: 'GET', url: '/console/' });
    expect(answer.statusCode).toBe(503);
    expect(answer.body).toContain('<h1>Building the console</h1>');
    expect(answer.body).toMatch(/Building the console \(Vite\): \d s so far/);
    writeConsoleBuild(later);
    writeFileSync(progressFile, JSON.stringify({ ...progress, state: 'done', steps: [{ ...step, endedAt: Date.now() }] }));
    expect((await building.inject({ method: 'GET', url: '/console/' })).body).toBe(indexHtml);
  });
});
