// The documentation for machines that the portal build writes, as the sandbox serves it: every guide and every operation
// page as Markdown at its URL + `.md`, /llms.txt (the index, https://llmstxt.org) and /llms-full.txt (everything in one
// file). The guides are the docs pages the build produced (its sitemap), the operations those of the contract's OpenAPI
// documents.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { limits } from '../contract/src/limits.ts';
import { scenarioMarkerPrefix, scenarios } from '../contract/src/scenarios.ts';
import { startPortalSandbox, type PortalSandbox } from './portal-sandbox.ts';

const repository = path.resolve(import.meta.dirname, '..');
const versions = ['v3', 'v2'] as const;

interface Schema {
  type?: string | string[];
  format?: string;
  contentMediaType?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  maxLength?: number;
  maximum?: number;
  maxItems?: number;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

interface OperationObject {
  operationId: string;
  summary: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string }>;
}

interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  parameters: Parameter[];
  requestBody?: OperationObject['requestBody'];
  responses: OperationObject['responses'];
}

interface Guide {
  url: string;
  title: string;
  html: string;
}

let sandbox: PortalSandbox;
let site: string;
let guides: Guide[];

/** Each version's operations, as the contract's OpenAPI document lists them. */
const operations = Object.fromEntries(
  versions.map((version) => {
    const document = JSON.parse(readFileSync(path.join(repository, 'contract', 'openapi', `${version}.json`), 'utf8')) as {
      paths: Record<string, Record<string, OperationObject>>;
    };
    const list = Object.entries(document.paths).flatMap(([operationPath, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: operationPath,
        operationId: operation.operationId,
        summary: operation.summary,
        parameters: operation.parameters ?? [],
        requestBody: operation.requestBody,
        responses: operation.responses,
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

/** A schema and the alternatives it stands for (anyOf, oneOf, nested). */
function variantsOf(schema: Schema): Schema[] {
  return [schema, ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap(variantsOf)];
}

/** A count of things in words: 1 item, 50 characters. */
function counted(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** The limits a reader must find on a field's line: its maximum length (characters, or bytes of a file), value, items. */
function limitsOf(schema: Schema): string[] {
  return variantsOf(schema).flatMap((variant) => [
    ...(variant.maxLength !== undefined
      ? [counted(variant.maxLength, variant.format === 'binary' || variant.contentMediaType ? 'byte' : 'character')]
      : []),
    ...(variant.maximum !== undefined ? [String(variant.maximum)] : []),
    ...(variant.maxItems !== undefined ? [counted(variant.maxItems, 'item')] : []),
  ]);
}

/** Every field a body schema has, at any depth: its name, whether it is required, and its limits. */
function fieldsOf(schema: Schema): { name: string; required: boolean; limits: string[] }[] {
  return variantsOf(schema).flatMap((variant) => [
    ...Object.entries(variant.properties ?? {}).flatMap(([name, property]) => [
      { name, required: variant.required?.includes(name) ?? false, limits: limitsOf(property) },
      ...fieldsOf(property),
    ]),
    ...(variant.items ? fieldsOf(variant.items) : []),
  ]);
}

/** The Markdown's list items for a field or parameter called `name`. */
function linesNaming(markdown: string, name: string): string[] {
  return markdown.split('\n').filter((line) => line.trimStart().startsWith(`- \`${name}\` (`));
}

beforeAll(async () => {
  sandbox = await startPortalSandbox();
  site = sandbox.url;
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
  await sandbox?.close();
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

describe('the test scenarios as Markdown', () => {
  test("the Test scenarios page's Markdown holds the contract's catalogue: each scenario, its trigger and a table row per step", async () => {
    const markdown = await (await get('/docs/test-scenarios.md')).text();
    // Markdown escapes some characters of the descriptions (`_`, `*`); the text is what counts.
    const plain = markdown.replace(/\\(.)/g, '$1');
    for (const scenario of scenarios) {
      const start = plain.indexOf(`\n### ${scenario.title}\n`);
      expect(start, scenario.name).toBeGreaterThan(0);
      const section = plain.slice(start + 1).split(/\n### /)[0];
      expect(section, scenario.name).toContain(scenario.description);
      if (scenario.trigger.marker) expect(section, scenario.name).toContain(`\`${scenarioMarkerPrefix}${scenario.name}\``);
      // The header row, its delimiter row, then a row per step with its description.
      const rows = section.split('\n').filter((line) => line.startsWith('|'));
      expect(rows.slice(2).map((row) => scenario.steps.find((step) => row.includes(step.description)) !== undefined)).toEqual(
        scenario.steps.map(() => true),
      );
      expect(rows.length - 2, scenario.name).toBe(scenario.steps.length);
    }
  });

  test('llms.txt lists the Test scenarios and Test every road guides and the operations that list and start scenarios', async () => {
    const text = await (await get('/llms.txt')).text();
    expect(text).toMatch(/^- \[Test scenarios\]\(\/docs\/test-scenarios\.md\): \S/m);
    expect(text).toMatch(/^- \[Test every road\]\(\/docs\/test-every-road\.md\): \S/m);
    for (const call of ['GET /sandbox/scenarios', 'PUT /sandbox/orders/{id}/scenario', 'GET /sandbox/orders/{id}/scenario']) {
      expect(text).toContain(`\`${call}\``);
    }
  });
});

describe('every operation page as Markdown', () => {
  /** Each operation's page, as the reference's index links it. */
  async function pageOf(version: string, operation: Operation): Promise<string> {
    const index = await (await get(`/specs/${version}/index.md`)).text();
    const entry = entries(index).find((link) => link.summary === `\`${operation.method} ${operation.path}\``);
    expect(entry, `${version} ${operation.operationId}`).toBeDefined();
    return (entry?.url ?? '').replace(/\.md$/, '');
  }

  test('answers at its URL + .md with its title, method and path, parameters, body fields with their limits, an example and its responses', async () => {
    for (const version of versions) {
      for (const operation of operations[version]) {
        const url = `${await pageOf(version, operation)}.md`;
        const response = await get(url);
        expect(response.status, url).toBe(200);
        expect(response.headers.get('content-type'), url).toBe('text/markdown; charset=utf-8');
        const markdown = await response.text();
        expect(markdown.split('\n')[0], url).toBe(`# ${operation.summary}`);
        expect(markdown, url).toContain(`\`${operation.method} ${operation.path}\` (operationId \`${operation.operationId}\``);
        for (const parameter of operation.parameters) {
          const [line] = linesNaming(markdown, parameter.name);
          expect(line, `${url}: ${parameter.name}`).toContain(`(${parameter.in}, ${parameter.required ? 'required' : 'optional'}, `);
          for (const limit of limitsOf(parameter.schema ?? {})) expect(line, `${url}: ${parameter.name}`).toContain(limit);
        }
        for (const [mediaType, { schema }] of Object.entries(operation.requestBody?.content ?? {})) {
          expect(markdown, url).toContain(`Request body: \`${mediaType}\``);
          for (const field of fieldsOf(schema)) {
            const lines = linesNaming(markdown, field.name).filter((line) => line.includes(field.required ? ', required' : ', optional'));
            expect(
              lines.some((line) => field.limits.every((limit) => line.includes(limit))),
              `${url}: ${field.name} ${JSON.stringify(field)}`,
            ).toBe(true);
          }
        }
        expect(markdown, url).toMatch(/## Example request\n\n```bash\ncurl /);
        for (const [status, { description }] of Object.entries(operation.responses)) {
          const line = markdown.split('\n').find((candidate) => candidate.startsWith(`- \`${status}\``));
          expect(line, `${url}: ${status}`).toBeDefined();
          expect(line, `${url}: ${status} said twice`).not.toMatch(new RegExp(`^- \`${status}\`: ${status}:`));
          expect(description.replace(/\s+/g, ' '), `${url}: ${status}`).toContain(line?.replace(/^- `\d{3}`: /, '') ?? '');
        }
      }
    }
  });

  test("the order's Markdown gives the contract's limits on its fields", async () => {
    const createOrder = operations.v3.find((operation) => operation.operationId === 'createOrder');
    if (!createOrder) throw new Error('no createOrder in the v3 document');
    const markdown = await (await get(`${await pageOf('v3', createOrder)}.md`)).text();
    expect(markdown).toContain(`- \`externalOrderNumber\` (string, required, 1 to ${limits.externalOrderNumberMax} characters)`);
    expect(markdown).toContain(`- \`sku\` (string, required, ${limits.skuMin} to ${limits.skuMax} characters`);
    expect(markdown).toContain(`- \`data\` (array of objects, required, at most ${limits.orderItemsMax} items)`);
    expect(markdown).toMatch(/- when `type` is `"orderItem"`:/);
  });

  test("each reference's introduction answers as Markdown too, with every operation by tag", async () => {
    for (const version of versions) {
      const markdown = await (await get(`/specs/${version}/index.md`)).text();
      expect(markdown).toMatch(/^# \S/);
      for (const operation of operations[version]) {
        expect(
          entries(markdown).some((link) => link.summary === `\`${operation.method} ${operation.path}\``),
          operation.operationId,
        ).toBe(true);
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

  test("lists both references, their OpenAPI documents and each operation's Markdown with its method and path", async () => {
    const urls = links.map((link) => link.url);
    for (const version of versions) {
      expect(urls).toContain(`/specs/${version}/index.md`);
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
        expect(entry?.url).toMatch(/\.md$/);
        pages.add(entry?.url ?? '');
      }
      expect(pages.size).toBe(operations[version].length);
    }
  });

  test("every link resolves, an operation link to that operation's Markdown, beside its page", async () => {
    expect(links.length).toBeGreaterThan(guides.length);
    for (const link of links) {
      const response = await get(link.url);
      expect(response.status, link.url).toBe(200);
      if (link.url.startsWith('/specs/') && link.summary.startsWith('`')) {
        expect((await response.text()).split('\n')[0], link.url).toBe(`# ${link.title}`);
        const page = await get(link.url.replace(/\.md$/, ''));
        expect(textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(await page.text())?.[1] ?? ''), link.url).toBe(link.title);
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

  test("holds each operation's Markdown, body fields included, and says no response's status twice", async () => {
    for (const version of versions) {
      const index = await (await get(`/specs/${version}/index.md`)).text();
      for (const link of entries(index)) {
        const markdown = await (await get(link.url)).text();
        // The twin one heading level down: its title and its parts become a section of this file and its subsections.
        const section = markdown
          .trimEnd()
          .replace(/^# /, '## ')
          .replace(/^## (Parameters|Request body: .*|Example request|Responses)$/gm, '### $1');
        expect(text, link.url).toContain(section);
      }
    }
    expect(text).not.toMatch(/^- `(\d{3})`: \1:/m);
  });
});
