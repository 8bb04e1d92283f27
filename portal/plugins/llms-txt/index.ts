// Documentation for machines, written by the build next to the pages it describes:
// - every guide, every operation page of the references and each reference's introduction as Markdown at its URL +
//   `.md`; a URL that ends in `/` (a folder's index page) takes `index.md`, and the same file also answers at the URL
//   without the slash + `.md` and at `index.html.md` (llmstxt.org's spelling): /docs/get-started/steps/authenticating.md,
//   /docs/index.md = /docs.md = /docs/index.html.md, /specs/v3/create-order.md, /specs/v3/index.md;
// - /llms.txt, an index in the llms.txt format (https://llmstxt.org): all that Markdown and the OpenAPI documents;
// - /llms-full.txt: every guide and every operation in one file.
// Guides are what the docs plugin published, in its sidebar's order; operations are the pages docusaurus-plugin-openapi-docs
// generated, described from the OpenAPI documents it was configured with.
import fs from 'node:fs/promises';
import path from 'node:path';
import type {DocMetadata, LoadedContent, LoadedVersion} from '@docusaurus/plugin-content-docs';
import type {LoadContext, LoadedPlugin, Plugin} from '@docusaurus/types';
import {resolveMarkdownLinkPathname} from '@docusaurus/utils';
import type {PluggableList} from 'unified';
import {guideMarkdown} from './markdown';
import {loadReference, oneLine, operationMarkdown, referenceMarkdown, type Reference, type ReferenceConfig} from './reference';

export interface Options {
  /** The docs plugin whose pages are the guides. */
  guidesPluginId: string;
  /** The docusaurus-plugin-openapi-docs instance that generates the references. */
  referencesPluginId: string;
}

interface Guide {
  title: string;
  description: string;
  permalink: string;
  /** The Markdown's URL path, and the other paths the same file answers at. */
  markdownUrls: string[];
  markdown: string;
}

interface Site {
  title: string;
  tagline: string;
  baseUrl: string;
}

export default function llmsTxt(context: LoadContext, pluginOptions: unknown): Plugin {
  const options = pluginOptions as Options;
  return {
    name: 'llms-txt',
    async postBuild({outDir, plugins, siteConfig}) {
      const site: Site = {title: siteConfig.title, tagline: siteConfig.tagline, baseUrl: siteConfig.baseUrl};
      const guides = await loadGuides(findPlugin(plugins, 'docusaurus-plugin-content-docs', options.guidesPluginId), context.siteDir);
      const openapi = findPlugin(plugins, 'docusaurus-plugin-openapi-docs', options.referencesPluginId);
      const {config, docsPluginId} = openapi.options as unknown as {config: Record<string, ReferenceConfig>; docsPluginId: string};
      const referenceDocs = (
        findPlugin(plugins, 'docusaurus-plugin-content-docs', docsPluginId).content as LoadedContent
      ).loadedVersions.flatMap((version) => version.docs);
      const references = Object.values(config).map((reference) => loadReference(reference, referenceDocs, context.siteDir));
      // URL paths start with the base URL, which the build folder stands for.
      const write = async (urlPath: string, text: string) => {
        const file = path.join(outDir, decodeURIComponent(urlPath.slice(site.baseUrl.length)));
        await fs.mkdir(path.dirname(file), {recursive: true});
        await fs.writeFile(file, text);
      };
      for (const guide of guides) {
        for (const url of guide.markdownUrls) await write(url, guide.markdown);
      }
      for (const reference of references) {
        for (const url of markdownUrlsOf(reference.permalink)) await write(url, `${referenceMarkdown(reference, link)}\n`);
        for (const operation of reference.operations) await write(operation.markdownUrl, `${operationMarkdown(operation, 1)}\n`);
      }
      await write(`${site.baseUrl}llms.txt`, llmsTxtIndex(site, guides, references));
      await write(`${site.baseUrl}llms-full.txt`, llmsFullTxt(site, guides, references));
    },
  };
}

function findPlugin(plugins: LoadedPlugin[], name: string, id: string): LoadedPlugin {
  const plugin = plugins.find((candidate) => candidate.name === name && (candidate.options.id ?? 'default') === id);
  if (!plugin) throw new Error(`llms-txt: no ${name} plugin with id "${id}"`);
  return plugin;
}

/** The Markdown's URL path of a page, first the one the indexes link, then the other spellings that answer too. */
function markdownUrlsOf(permalink: string): string[] {
  if (!permalink.endsWith('/')) return [`${permalink}.md`];
  return [`${permalink}index.md`, ...(permalink === '/' ? [] : [`${permalink.slice(0, -1)}.md`]), `${permalink}index.html.md`];
}

/** The published guides (no drafts, no unlisted pages), each version's in its sidebars' order, then any outside them. */
async function loadGuides(plugin: LoadedPlugin, siteDir: string): Promise<Guide[]> {
  const {loadedVersions} = plugin.content as LoadedContent;
  const {beforeDefaultRemarkPlugins = []} = plugin.options as {beforeDefaultRemarkPlugins?: PluggableList};
  const sourceToPermalink = new Map(loadedVersions.flatMap((version) => version.docs.map((doc) => [doc.source, doc.permalink] as const)));
  const guides: Guide[] = [];
  for (const version of loadedVersions) {
    for (const doc of inSidebarOrder(version)) {
      const file = path.resolve(siteDir, doc.source.replace(/^@site\//, ''));
      const {title, markdown} = guideMarkdown(
        {permalink: doc.permalink, title: doc.title},
        await fs.readFile(file, 'utf8'),
        (linkPathname) =>
          resolveMarkdownLinkPathname(linkPathname, {sourceFilePath: file, sourceToPermalink, contentPaths: version, siteDir}),
        beforeDefaultRemarkPlugins,
      );
      guides.push({title, description: doc.description, permalink: doc.permalink, markdownUrls: markdownUrlsOf(doc.permalink), markdown});
    }
  }
  return guides;
}

function inSidebarOrder(version: LoadedVersion): DocMetadata[] {
  type Item = LoadedVersion['sidebars'][string][number];
  const ids = (items: Item[]): string[] =>
    items.flatMap((item) => {
      if (item.type === 'doc' || item.type === 'ref') return [item.id];
      if (item.type === 'category') return [...(item.link?.type === 'doc' ? [item.link.id] : []), ...ids(item.items)];
      return [];
    });
  const order = [...new Set(Object.values(version.sidebars).flatMap(ids))];
  const rank = (doc: DocMetadata) => (order.includes(doc.id) ? order.indexOf(doc.id) : order.length);
  return version.docs.filter((doc) => !doc.unlisted).sort((a, b) => rank(a) - rank(b) || a.permalink.localeCompare(b.permalink));
}

function link(title: string, url: string, summary?: string): string {
  const text = title.replace(/[[\]\\]/g, '\\$&');
  return `- [${text}](${url})${summary ? `: ${oneLine(summary)}` : ''}`;
}

/** A site path as a link that shows it. */
function sitePath(url: string): string {
  return `[${url}](${url})`;
}

function llmsTxtIndex(site: Site, guides: Guide[], references: Reference[]): string {
  const lines = [
    `# ${site.title}`,
    '',
    `> ${site.tagline}`,
    '',
    'Each guide and each page of the API references is also served as Markdown at its page URL + `.md` (a page URL ' +
      'that ends in `/` takes `index.md`): an operation with its parameters, request body fields and an example request. ' +
      'Each reference also has its OpenAPI document (JSON), the complete machine-readable contract. ' +
      `All guides and operations in one file: [llms-full.txt](${site.baseUrl}llms-full.txt).`,
    '',
    '## Guides',
    '',
    ...guides.map((guide) => link(guide.title, guide.markdownUrls[0], guide.description)),
  ];
  for (const reference of references) {
    lines.push(
      '',
      `## ${reference.title} reference`,
      '',
      link(reference.title, markdownUrlsOf(reference.permalink)[0], reference.description),
      link(`${reference.title} OpenAPI document`, reference.documentUrl, `The OpenAPI document of ${reference.title}, as JSON.`),
      ...reference.operations.map((operation) =>
        link(
          operation.summary,
          operation.markdownUrl,
          `\`${operation.method} ${operation.path}\`${operation.description ? ` — ${operation.description}` : ''}`,
        ),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

function llmsFullTxt(site: Site, guides: Guide[], references: Reference[]): string {
  const introduction = [
    `# ${site.title}`,
    '',
    `> ${site.tagline}`,
    '',
    `Every guide of the documentation, then every operation of the API references. The index is [llms.txt](${site.baseUrl}llms.txt).`,
  ].join('\n');
  // Each guide's own `# Title` line is followed by where it is published.
  const guideSections = guides.map((guide) =>
    guide.markdown.replace(
      /^.*\n/,
      (heading) => `${heading}\nPage: ${sitePath(guide.permalink)}, as Markdown: ${sitePath(guide.markdownUrls[0])}\n`,
    ),
  );
  const referenceSections = references.map((reference) =>
    [
      `# ${reference.title} reference`,
      '',
      `Page: ${sitePath(reference.permalink)}, OpenAPI document: ${sitePath(reference.documentUrl)}`,
      '',
      reference.description,
      ...reference.operations.map((operation) => `\n${operationMarkdown(operation)}`),
    ].join('\n'),
  );
  return `${[introduction, ...guideSections.map((section) => section.trimEnd()), ...referenceSections].join('\n\n---\n\n')}\n`;
}
