// The portal and the API on one origin: pages with or without a trailing slash, assets, the 404 page for
// unknown pages, the API's error format for unknown API paths, and nothing outside the build folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/platform/db/index.ts';

let app: FastifyInstance;
let database: Database;
const build = mkdtempSync(join(tmpdir(), 'portal-build-'));

beforeAll(async () => {
  const page = (path: string, text: string) => {
    mkdirSync(join(build, path, '..'), { recursive: true });
    writeFileSync(join(build, path), `<html><body>${text}</body></html>`);
  };
  page('index.html', 'home');
  page('404.html', 'Page Not Found');
  page('docs/index.html', 'documentation');
  page('docs/get-started/index.html', 'get started');
  page('docs/tags/pagination.html', 'tag pagination');
  mkdirSync(join(build, 'assets'));
  writeFileSync(join(build, 'assets', 'main.js'), 'console.log(1)');
  database = await openDatabase({ inMemory: true });
  app = await buildApp({ db: database.db, config: loadConfig({ logLevel: 'silent' }), logger: false, portalDir: build });
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
