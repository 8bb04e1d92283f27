// search_docs: the portal's guides (portal/docs) and the v3 operations, searched by a simple term score.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { operations } from '@shopapi/contract';

/** The guides, read from the repository this file is in (so a fresh clone needs no build). */
export const guidesDir = join(import.meta.dirname, '..', '..', 'portal', 'docs');

export interface DocEntry {
  kind: 'guide' | 'operation';
  title: string;
  description: string;
  /** Markdown of a guide; method, path and tags of an operation. */
  body: string;
  url: string;
  operationId?: string;
}

export interface DocHit {
  kind: DocEntry['kind'];
  title: string;
  url: string;
  excerpt: string;
  operationId?: string;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** docusaurus-plugin-openapi-docs names an operation's page after its operationId in kebab case (lodash's kebabCase). */
export const operationPageUrl = (portalUrl: string, operationId: string) =>
  `${trimSlash(portalUrl)}/specs/v3/${operationId
    .replace(/([a-z\d])([A-Z])/g, '$1-$2')
    .replace(/([A-Za-z])(\d)/g, '$1-$2')
    .toLowerCase()}`;

/**
 * The flat `key: value` lines of a guide's front matter (title, description, slug, id): all the search reads, so
 * a few lines here rather than a YAML parser as a dependency.
 */
function splitFrontMatter(text: string): { data: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { data: {}, body: text };
  const data: Record<string, string> = {};
  for (const line of match[1].split(/\r?\n/)) {
    const field = /^([A-Za-z_]+):\s*(.*)$/.exec(line);
    if (field) data[field[1]] = field[2].trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return { data, body: text.slice(match[0].length) };
}

/** The page Docusaurus makes of a guide: its path under docs/, an index as its folder, `slug` and `id` as they say. */
function guidePath(file: string, data: Record<string, string>): string {
  if (data.slug?.startsWith('/')) return `/docs${data.slug === '/' ? '/' : data.slug}`;
  const folders = relative(guidesDir, file)
    .split(sep)
    .map((part) => part.replace(/^\d+[-_.]/, ''));
  const name = folders.pop()!.replace(/\.mdx?$/, '');
  if (!data.slug && !data.id && (name === 'index' || name.toLowerCase() === 'readme' || name === folders.at(-1))) {
    return `/docs/${folders.map((folder) => `${folder}/`).join('')}`;
  }
  return `/docs/${[...folders, data.slug ?? data.id ?? name].join('/')}`;
}

function guideFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return guideFiles(path);
    return /\.mdx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every guide and every operation of the v3 document, with the URL of its page on the portal. */
export function docEntries(portalUrl: string): DocEntry[] {
  const guides = guideFiles(guidesDir).map((file): DocEntry => {
    const { data, body } = splitFrontMatter(readFileSync(file, 'utf8'));
    const title = data.title ?? /^#\s+(.+)$/m.exec(body)?.[1] ?? file;
    return { kind: 'guide', title, description: data.description ?? '', body, url: `${trimSlash(portalUrl)}${guidePath(file, data)}` };
  });
  const references = operations
    .filter((op) => op.documents.includes('v3'))
    .map(
      (op): DocEntry => ({
        kind: 'operation',
        title: op.summary,
        description: op.description,
        body: `${op.method} ${op.path} ${op.operationId} ${op.tags.join(' ')}`,
        url: operationPageUrl(portalUrl, op.operationId),
        operationId: op.operationId,
      }),
    );
  return [...guides, ...references];
}

const stopWords = new Set('an and are as by can do does for how in is it my of on or the to what when which with'.split(' '));

/** Words, lower case, camelCase split (so an operationId matches its summary), plurals folded to the singular. */
export function terms(text: string): string[] {
  return text
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !stopWords.has(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

function counts(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const term of terms(text)) map.set(term, (map.get(term) ?? 0) + 1);
  return map;
}

interface IndexedEntry {
  entry: DocEntry;
  title: Map<string, number>;
  description: Map<string, number>;
  body: Map<string, number>;
}

/** Readable text of markdown for excerpts: no code fences, link targets, emphasis or heading marks. */
const readable = (markdown: string) =>
  markdown
    .replace(/```[^\n]*\n?/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#+\s*/gm, '')
    .replace(/-{3,}|[*`>|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

function excerptOf(entry: DocEntry, queryTerms: string[]): string {
  const text = readable(entry.kind === 'guide' ? entry.body : entry.description);
  const lower = text.toLowerCase();
  const at = Math.min(...queryTerms.map((term) => lower.indexOf(term)).filter((index) => index >= 0));
  if (!Number.isFinite(at)) return entry.description.slice(0, 240);
  const start = Math.max(0, text.lastIndexOf(' ', Math.max(0, at - 80)) + 1);
  const end = text.indexOf(' ', Math.min(text.length, at + 200));
  const slice = text.slice(start, end === -1 ? text.length : end);
  return `${start > 0 ? '… ' : ''}${slice}${end === -1 ? '' : ' …'}`;
}

export class DocsIndex {
  readonly #entries: IndexedEntry[];

  constructor(entries: DocEntry[]) {
    this.#entries = entries.map((entry) => ({
      entry,
      title: counts(entry.title),
      description: counts(entry.description),
      body: counts(entry.body),
    }));
  }

  /**
   * Entries ranked by how many of the query's terms they contain, then by a term score: a title hit weighs 5, a
   * description hit 3, a body hit 1, each counted at most a few times so a long page does not win by length alone.
   */
  search(query: string, limit = 5): DocHit[] {
    const queryTerms = [...new Set(terms(query))];
    if (queryTerms.length === 0) return [];
    return this.#entries
      .map((indexed) => {
        let matched = 0;
        let score = 0;
        for (const term of queryTerms) {
          const title = indexed.title.get(term) ?? 0;
          const description = indexed.description.get(term) ?? 0;
          const body = indexed.body.get(term) ?? 0;
          if (title + description + body > 0) matched++;
          score += 5 * Math.min(title, 2) + 3 * Math.min(description, 2) + Math.min(body, 5);
        }
        return { indexed, matched, score };
      })
      .filter((ranked) => ranked.matched > 0)
      .sort((a, b) => b.matched - a.matched || b.score - a.score)
      .slice(0, limit)
      .map(({ indexed: { entry } }) => ({
        kind: entry.kind,
        title: entry.title,
        url: entry.url,
        excerpt: excerptOf(entry, queryTerms),
        ...(entry.operationId ? { operationId: entry.operationId } : {}),
      }));
  }
}
