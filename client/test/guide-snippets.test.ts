// The guides' TypeScript must compile against @shopapi/client: every ```ts client``` block of portal/docs is
// type-checked. A page's blocks are read as one module in their order (a block may use an earlier block's variables),
// after a prelude that declares `api`, a client, unless the page creates its own.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Diagnostic, typeCheck } from './compile.ts';

const repository = resolve(import.meta.dirname, '../..');
const docs = join(repository, 'portal', 'docs');

/** The pages that show the client next to curl: each must keep at least one checked snippet. */
const pagesWithClient = [
  'get-started/steps/authenticating.md',
  'get-started/steps/getting-settings.md',
  'get-started/steps/synchronizing-products.md',
  'shopapi/v3/general-concepts/pagination.md',
  'test-every-road.md',
  'tools/typescript-client.md',
];

interface Snippet {
  page: string;
  /** 1-based line of the snippet's first code line in the page. */
  line: number;
  code: string;
}

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return /\.mdx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every fenced TypeScript block of the page, with whether its meta marks it `client`. */
function typescriptBlocks(page: string): (Snippet & { checked: boolean })[] {
  const text = readFileSync(join(docs, page), 'utf8');
  return [...text.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)].flatMap((block) => {
    const [, language, meta, code] = block;
    if (!['ts', 'typescript', 'tsx'].includes(language)) return [];
    const line = text.slice(0, block.index).split('\n').length + 1;
    return [{ page, line, code, checked: /(^|\s)client(\s|$)/.test(meta) }];
  });
}

const pages = markdownFiles(docs).map((file) => relative(docs, file));
const blocks = pages.flatMap(typescriptBlocks);

/** The page's snippets as one module, and which page line each of its lines came from. */
function moduleOf(page: string, snippets: Snippet[]): { source: string; origin: (line: number) => string } {
  const declaresApi = snippets.some((snippet) => /\b(const|let|var)\s+api\b/.test(snippet.code));
  const prelude = [
    "import type { ShopApiClient as GuideClient } from '@shopapi/client';",
    declaresApi ? '' : 'declare const api: GuideClient;',
    'export {};',
  ];
  const lines = [...prelude];
  const origins: string[] = prelude.map(() => `${page} (prelude)`);
  for (const snippet of snippets) {
    snippet.code.split('\n').forEach((code, index) => {
      lines.push(code);
      origins.push(`portal/docs/${page}:${snippet.line + index}`);
    });
  }
  return { source: lines.join('\n'), origin: (line) => origins[line - 1] ?? `${page} (line ${line})` };
}

let diagnostics: (Diagnostic & { at: string })[];

beforeAll(() => {
  const modules = new Map<string, ReturnType<typeof moduleOf>>();
  for (const page of pages) {
    const snippets = blocks.filter((block) => block.page === page && block.checked);
    // Beside the client's tests, so its package.json makes them ES modules and @shopapi/client resolves.
    if (snippets.length) modules.set(join(import.meta.dirname, 'guide-snippets', page.replace(/\.mdx?$/, '.ts')), moduleOf(page, snippets));
  }
  const inMemory = Object.fromEntries([...modules].map(([file, module]) => [file, module.source]));
  // A snippet may leave a value unused: it shows the call, not a whole program.
  diagnostics = typeCheck([], inMemory, { noUnusedLocals: false }).map((diagnostic) => ({
    ...diagnostic,
    at: modules.get(diagnostic.file)?.origin(diagnostic.line) ?? diagnostic.file,
  }));
});

describe("the guides' TypeScript snippets", () => {
  it('every TypeScript block of the guides is marked `client`, so it is checked here', () => {
    expect(blocks.filter((block) => !block.checked).map((block) => `portal/docs/${block.page}:${block.line}`)).toEqual([]);
  });

  it.each(pagesWithClient)('%s shows the client', (page) => {
    expect(blocks.filter((block) => block.page === page).length).toBeGreaterThan(0);
  });

  // e2e/guide-examples.test.ts runs each curl example and checks it against the ```json response``` block right after
  // it: in every language tab group the curl tab comes last in the source, so nothing stands between the two. (The
  // Tabs `values` list still shows curl first.)
  it.each(pagesWithClient)('%s keeps its curl tab last in each tab group, next to the answer it documents', (page) => {
    const groups = [...readFileSync(join(docs, page), 'utf8').matchAll(/<Tabs groupId="language"[\s\S]*?<\/Tabs>/g)];
    const lastTabs = groups.map((group) => [...group[0].matchAll(/<TabItem value="([^"]+)"/g)].at(-1)?.[1]);
    expect(lastTabs.filter((value) => value !== 'curl')).toEqual([]);
  });

  it('compile against @shopapi/client', () => {
    expect(diagnostics.map((diagnostic) => `${diagnostic.at}: TS${diagnostic.code} ${diagnostic.message}`)).toEqual([]);
  });
});
