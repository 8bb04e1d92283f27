// The portal and the API on one origin: pages with or without a trailing slash, assets, the 404 page for
// unknown pages, the API's error format for unknown API paths, and nothing outside the build folder; and while
// `npm start` builds the portal beside the server, a page with the build's progress, then the portal without a restart.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/platform/db/index.ts';
import type { BuildProgress } from '../src/platform/build-progress.ts';

let app: FastifyInstance;
let database: Database;
const build = mkdtempSync(join(tmpdir(), 'portal-build-'));

/** Writes a small portal build into `root`, as Docusaurus lays it out. */
function writePortalBuild(root: string) {
  const page = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), `<html><body>${text}</body></html>`);
  };
  page('index.html', 'home');
  page('404.html', 'Page Not Found');
  page('docs/index.html', 'documentation');
  page('docs/get-started/index.html', 'get started');
  page('docs/tags/pagination.html', 'tag pagination');
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'assets', 'main.js'), 'console.log(1)');
}

beforeAll(async () => {
  writePortalBuild(build);
  database = await openDatabase({ inMemory: true });
  app = await buildApp({
    db: database.db,
    config: loadConfig({ logLevel: 'silent' }),
    logger: false,
    portalDir: build,
    buildProgressFile: join(build, 'no-build-running.json'),
  });
});
afterAll(async () => {
  await app.close();
  await database.close();
  rmSync(build, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url });

describe('serving the portal', () => {
  it.each([
    ['/', 'home'],
    ['/docs', 'documentation'],
    ['/docs/', 'documentation'],
    ['/docs/get-started/', 'get started'],
    ['/docs/get-started', 'get started'],
    ['/docs/tags/pagination', 'tag pagination'],
  ])('%s answers 200 with its page, without redirects', async (url, text) => {
    const answer = await get(url);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain(text);
  });

  it('serves assets with their type', async () => {
    const answer = await get('/assets/main.js');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/javascript/);
  });

  it("an unknown page is the portal's 404 page with status 404", async () => {
    const answer = await get('/no/such/page');
    expect(answer.statusCode).toBe(404);
    expect(answer.body).toContain('Page Not Found');
  });

  it("an unknown API path answers in the API's error format", async () => {
    const v3 = await get('/v3/nothing');
    expect(v3.statusCode).toBe(404);
    expect(JSON.parse(v3.body).errors[0].code).toBe('404');
    const v2 = await get('/v2/nothing');
    expect(JSON.parse(v2.body)).toEqual({ error: '404 Not Found', error_description: 'The requested resource could not be found' });
  });

  it('never serves a file outside the build folder', async () => {
    for (const url of ['/../package.json', '/%2e%2e/package.json', '/docs/%2e%2e/%2e%2e/package.json']) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.body).not.toContain('"workspaces"');
    }
  });

  it('a path that is not valid percent-encoding is a bad request', async () => {
    expect((await get('/%E0%A4%A')).statusCode).toBe(400);
  });
});

describe('while npm start builds the portal beside the server', () => {
  const folder = mkdtempSync(join(tmpdir(), 'portal-building-'));
  const portal = join(folder, 'build');
  const progressFile = join(folder, 'build-progress.json');
  let building: FastifyInstance;
  const minute = 60_000;
  /** The progress scripts/builds.mjs writes: the console built, the reference pages written, the portal compiling. */
  const progress = (changes: Partial<BuildProgress> = {}, now = Date.now()): BuildProgress => ({
    pid: process.pid,
    startedAt: now - 2 * minute,
    state: 'building',
    log: 'tmp/build.log',
    steps: [
      {
        target: 'console',
        name: 'console',
        title: 'Building the console (Vite)',
        startedAt: now - 2 * minute,
        endedAt: now - 110_000,
        lastSeconds: 12,
      },
      {
        target: 'portal',
        name: 'reference',
        title: 'Writing the API reference pages',
        startedAt: now - 110_000,
        endedAt: now - minute,
        count: 171,
        lastSeconds: 5,
      },
      { target: 'portal', name: 'compile', title: 'Compiling the portal', startedAt: now - minute, lastSeconds: 100 },
      { target: 'portal', name: 'render', title: 'Rendering and compressing the pages', lastSeconds: 30 },
    ],
    ...changes,
  });
  const write = (value: BuildProgress) => writeFileSync(progressFile, JSON.stringify(value));
  const docs = () => building.inject({ method: 'GET', url: '/docs' });

  beforeAll(async () => {
    building = await buildApp({
      db: database.db,
      config: loadConfig({ logLevel: 'silent' }),
      logger: false,
      portalDir: portal,
      buildProgressFile: progressFile,
    });
  });
  afterAll(async () => {
    await building.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("answers the portal's paths with the build's steps and times, a page that reloads itself without a script, and the API at once", async () => {
    write(progress());
    for (const url of ['/', '/docs', '/docs/get-started/']) {
      const answer = await building.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBe(503);
      expect(answer.headers['retry-after']).toBe('3');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
    }
    const page = (await docs()).body;
    expect(page).toContain('<meta http-equiv="refresh" content="3">');
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('<h1>Building the portal</h1>');
    expect(page).toContain('<progress value="2" max="4">');
    expect(page).toContain('✓ Building the console (Vite): 10 s');
    expect(page).toContain('✓ Writing the API reference pages (171 written): 50 s');
    expect(page).toMatch(/Compiling the portal: 6\d s so far; 100 s the last time/);
    expect(page).toContain('Rendering and compressing the pages: waiting; 30 s the last time');
    // 40 s of compiling left and 30 s of rendering, if this build goes as fast as the last.
    expect(page).toMatch(/about (69|70) s left if it goes as fast as the last build/);
    expect((await building.inject({ method: 'GET', url: '/docs' })).headers['content-security-policy']).toMatch(
      /default-src 'none';style-src 'sha256-[\w+/=]+'/,
    );
    expect((await building.inject({ method: 'GET', url: '/status' })).statusCode).toBe(200);
    expect((await building.inject({ method: 'GET', url: '/v3/nothing' })).statusCode).toBe(404);
  });

  it('serves the portal as soon as the build is done, without a restart', async () => {
    writePortalBuild(portal);
    write(progress({ state: 'done', steps: progress().steps.map((step) => ({ ...step, startedAt: Date.now(), endedAt: Date.now() })) }));
    const answer = await docs();
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('documentation');
    expect((await building.inject({ method: 'GET', url: '/no/such/page' })).body).toContain('Page Not Found');
  });

  it('says why when the build failed, and the API keeps answering', async () => {
    write(progress({ state: 'failed', failure: 'npm run build -w portal failed (exit 1) after 61 s; its output is in tmp/build.log.' }));
    const answer = await docs();
    expect(answer.statusCode).toBe(503);
    expect(answer.body).toContain('<h1>The portal could not be built</h1>');
    expect(answer.body).toContain('npm run build -w portal failed (exit 1) after 61 s; its output is in tmp/build.log.');
    expect((await building.inject({ method: 'GET', url: '/status' })).statusCode).toBe(200);
  });

  it('ignores the progress of a build whose process has gone (stopped with its server)', async () => {
    write(progress({ pid: spawnSync(process.execPath, ['-e', '']).pid! }));
    expect((await docs()).statusCode).toBe(200);
  });
});
