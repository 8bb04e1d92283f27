// The documentation for machines that the portal build writes, as the sandbox serves it: every guide as Markdown at its
// URL + `.md`, /llms.txt (the index, https://llmstxt.org) and /llms-full.txt (everything in one file). The guides are
// the docs pages the build produced (its sitemap), the operations those of the contract's OpenAPI documents.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase, type Database } from '../server/src/platform/db/index.ts';

const repository = path.resolve(import.meta.dirname, '..');
const versions = ['v3', 'v2'] as const;

interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
}

interface Guide {
  url: string;
  title: string;
  html: string;
}

let database: Database;
let app: FastifyInstance;
let site: string;
let guides: Guide[];

/** Each version's operations, as the contract's OpenAPI document lists them. */
const operations = Object.fromEntries(
  versions.map((version) => {
    const document = JSON.parse(readFileSync(path.join(repository, 'contract', 'openapi', `${version}.json`), 'utf8')) as {
      paths: Record<string, Record<string, { operationId: string; summary: string }>>;
    };
    const list = Object.entries(document.paths).flatMap(([operationPath, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: operationPath,
        operationId: operation.operationId,
        summary: operation.summary,
      })),
    );
    return [version, list];
  }),
) as Record<(typeof versions)[number], Operation[]>;

function get(url: string): Promise<Response> {
  return fetch(new URL(url, site));
}

/** Text of an HTML fragment: tags dropped, entities and zero-width spaces of heading anchors resolved. */
function textOf(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&(#?\w+);/g, (entity, name: string) => entities[name] ?? entity)
    .replace(/\u200b/g, '')
    .trim();
}

/** A Markdown heading line as the text its HTML heading shows: no code, emphasis or link syntax, no escapes. */
function plainHeading(line: string): string {
  return line
    .replace(/^#+ /, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(?<!\\)[*`]/g, '')
    .replace(/\\(.)/g, '$1');
}

/** Where a page's Markdown answers: first the URL the indexes link, then the other spellings of a folder page. */
function markdownUrls(url: string): string[] {
  return url.endsWith('/') ? [`${url}index.md`, `${url.slice(0, -1)}.md`, `${url}index.html.md`] : [`${url}.md`];
}

/** Markdown without its fenced code blocks, whose contents may look like anything. */
function prose(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
}

/** The `- [title](url): summary` entries of llms.txt. */
function entries(text: string): { title: string; url: string; summary: string }[] {
  return [...text.matchAll(/^- \[((?:\\.|[^\]])+)\]\(([^)\s]+)\)(?:: (.*))?$/gm)].map(([, title, url, summary]) => ({
    title: title.replace(/\\(.)/g, '$1'),
    url,
    summary: summary ?? '',
  }));
}

beforeAll(async () => {
  database = await openDatabase({ inMemory: true });
  app = await buildApp({
    db: database.db,
    config: loadConfig({ logLevel: 'silent' }),
    logger: false,
    portalDir: path.join(repository, 'portal', 'build'),
  });
  site = await app.listen({ port: 0, host: '127.0.0.1' });
  // The guides: pages of the docs plugin's own documents (not its tag lists or generated category indexes).
  const sitemap = await (await get('/sitemap.xml')).text();
  const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc).pathname);
  guides = [];
  for (const url of urls) {
    const html = await (await get(url)).text();
    const classes = /<html[^>]*class="([^"]*)"/.exec(html)?.[1].split(' ') ?? [];
    if (!classes.includes('plugin-id-default') || !classes.some((name) => name.startsWith('docs-doc-id-'))) continue;
    guides.push({ url, title: textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? ''), html });
  }
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('every guide as Markdown', () => {
  test('the build has guides to check', () => {
    expect(guides.length).toBeGreaterThan(5);
    expect(guides.map((guide) => guide.url)).toContain('/docs/get-started/steps/authenticating');
    for (const guide of guides) expect(guide.title, guide.url).not.toBe('');
  });

  test('answers at its URL + .md as clean Markdown with the page title, the headings and the tabs of its page', async () => {
    for (const guide of guides) {
      const [url] = markdownUrls(guide.url);
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type'), url).toBe('text/markdown; charset=utf-8');
      const markdown = await response.text();
      expect(markdown.split('\n')[0], url).toBe(`# ${guide.title}`);
      expect(markdown, url).not.toMatch(/^---\n/);
      expect(prose(markdown), url).not.toMatch(/^(import|export) /m);
      expect(markdown, url).not.toMatch(/<\/?(Tabs|TabItem)\b/);
      expect(prose(markdown), url).not.toMatch(/^:::/m);
      // Links point at site paths or other sites, never relative to a page the reader does not have.
      const links = [...prose(markdown).matchAll(/\]\(([^)\s]+)/g)].map(([, target]) => target);
      for (const target of links) expect(target, url).toMatch(/^(\/|[a-z][a-z\d+.-]*:)/i);
      const headings = new Set(
        prose(markdown)
          .split('\n')
          .filter((line) => /^#{2,6} /.test(line))
          .map((line) => plainHeading(line)),
      );
      for (const [, , heading] of guide.html.matchAll(/<h([2-6])[^>]*class="anchor[^"]*"[^>]*>([\s\S]*?)<\/h\1>/g)) {
        expect(headings, `${url}: heading`).toContain(textOf(heading));
      }
      // A <TabItem> becomes a bold line with its label before its content.
      for (const [, label] of guide.html.matchAll(/<li[^>]*role="tab"[^>]*>([\s\S]*?)<\/li>/g)) {
        expect(markdown, `${url}: tab ${label}`).toContain(`**${textOf(label)}**`);
      }
    }
  });

  test('a page whose URL ends in / answers at index.md, without the slash + .md and at index.html.md alike', async () => {
    const folders = guides.filter((guide) => guide.url.endsWith('/'));
    expect(folders.length).toBeGreaterThan(0);
    for (const guide of folders) {
      const [first, ...others] = markdownUrls(guide.url);
      const expected = await (await get(first)).text();
      for (const url of others) {
        const response = await get(url);
        expect(response.status, url).toBe(200);
        expect(await response.text(), url).toBe(expected);
      }
    }
  });
});

describe('llms.txt', () => {
  let text: string;
  let links: ReturnType<typeof entries>;

  beforeAll(async () => {
    const response = await get('/llms.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    text = await response.text();
    links = entries(text);
  });

  test('has the format of llmstxt.org: an H1, a summary quote, then sections of link lists', () => {
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines[2]).toMatch(/^> \S/);
    expect(text).toMatch(/^## Guides$/m);
    for (const line of lines.filter((line) => line.startsWith('- '))) expect(entries(line), line).toHaveLength(1);
  });

  test("lists every guide's Markdown with its title and a one-line summary", () => {
    for (const guide of guides) {
      const entry = links.find((link) => link.url === markdownUrls(guide.url)[0]);
      expect(entry, guide.url).toBeDefined();
      expect(entry?.title).toBe(guide.title);
      expect(entry?.summary, guide.url).not.toBe('');
    }
  });

  test('lists both references, their OpenAPI documents and a page per operation with its method and path', async () => {
    const urls = links.map((link) => link.url);
    for (const version of versions) {
      expect(urls).toContain(`/specs/${version}/`);
      expect(urls).toContain(`/specs/${version}/openapi.json`);
      const document = JSON.parse(readFileSync(path.join(repository, 'contract', 'openapi', `${version}.json`), 'utf8'));
      expect(await (await get(`/specs/${version}/openapi.json`)).json()).toEqual(document);
      expect(operations[version].length).toBeGreaterThan(0);
      const pages = new Set<string>();
      for (const operation of operations[version]) {
        const entry = links.find(
          (link) => link.url.startsWith(`/specs/${version}/`) && link.summary.startsWith(`\`${operation.method} ${operation.path}\``),
        );
        expect(entry, `${version} ${operation.operationId}`).toBeDefined();
        expect(entry?.title).toBe(operation.summary);
        pages.add(entry?.url ?? '');
      }
      expect(pages.size).toBe(operations[version].length);
    }
  });

  test('every link resolves, an operation link to the page of that operation', async () => {
    expect(links.length).toBeGreaterThan(guides.length);
    for (const link of links) {
      const response = await get(link.url);
      expect(response.status, link.url).toBe(200);
      if (link.url.startsWith('/specs/') && link.summary.startsWith('`')) {
        expect(textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(await response.text())?.[1] ?? ''), link.url).toBe(link.title);
      } else {
        await response.arrayBuffer();
      }
    }
  });
});

describe('llms-full.txt', () => {
  let text: string;

  beforeAll(async () => {
    const response = await get('/llms-full.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    text = await response.text();
  });

  test("holds every guide's Markdown under its title, with its page and Markdown URLs", async () => {
    for (const guide of guides) {
      const [url] = markdownUrls(guide.url);
      const markdown = await (await get(url)).text();
      const body = markdown.slice(markdown.indexOf('\n') + 1).trimEnd();
      expect(text, guide.url).toContain(`# ${guide.title}\n\nPage: [${guide.url}](${guide.url}), as Markdown: [${url}](${url})\n${body}`);
    }
  });

  test('holds every operation of both references under its summary, and links the OpenAPI documents', () => {
    for (const version of versions) {
      expect(text).toContain(`(/specs/${version}/openapi.json)`);
      for (const operation of operations[version]) {
        expect(text, `${version} ${operation.operationId}`).toContain(
          `## ${operation.summary}\n\n\`${operation.method} ${operation.path}\` (operationId \`${operation.operationId}\``,
        );
      }
    }
  });
});
