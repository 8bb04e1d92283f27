// The reference index's list of every operation, by tag: method, path and summary, each a link to the operation's page.
// Appended at `npm run gen-api-docs` to the introduction page docusaurus-plugin-openapi-docs generates from the OpenAPI
// document (its markdownGenerators.createInfoPageMD), so that a reader can scan the whole API on one page while the
// sidebar's categories stay collapsed. The headings are Markdown (they have ids and a place in the table of contents);
// each tag's list is HTML made here, which src/components/OperationIndex puts in the page as it is, with no React
// element per entry. Its links are the pages' URLs as the plugin names them (below); the portal's browser tests open
// every one.
import {createRequire} from 'node:module';
import {clean} from 'docusaurus-plugin-openapi-docs/lib/markdown/utils';
import {operationsByTag, type DocumentOperation, type OpenApiDocument} from './openapi';

// The plugin names an operation's page after its operationId (or summary) through lodash's kebabCase: the same
// function from the plugin's own dependencies names the links' targets here.
const kebabCase = createRequire(require.resolve('docusaurus-plugin-openapi-docs'))('lodash/kebabCase') as (text: string) => string;

/** The class of the list (src/css/custom.css gives it its layout). */
const operationIndexClass = 'operation-index';

const htmlEntities: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => htmlEntities[character]);

/** The first paragraph of a description, for a compact list (a tag's description may hold whole sections). */
function firstParagraph(text: string): string {
  return text.trim().split(/\n\s*\n/)[0].replace(/\s+/g, ' ');
}

function entry({method, path, operation}: DocumentOperation, pagesUrl: string): string {
  const href = `${pagesUrl}${kebabCase(operation.operationId ?? operation.summary ?? '')}`;
  const summary = operation.summary ?? operation.operationId ?? '';
  return (
    `<li><a href="${escapeHtml(href)}"><span class="${operationIndexClass}__method ${operationIndexClass}__method--${method}">` +
    `${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> <span class="${operationIndexClass}__summary">${escapeHtml(summary)}</span></a></li>`
  );
}

/**
 * The MDX of the list: a section per tag, in the document's order, with its first paragraph and its operations.
 * `pagesUrl` is where the reference's pages are served, with a trailing slash (/specs/v3/).
 */
export function operationIndex(document: OpenApiDocument, pagesUrl: string): string {
  const sections = operationsByTag(document).map(({tag, operations}) =>
    [
      `### ${clean(tag.name)} {#tag-${kebabCase(tag.name)}}`,
      ...(tag.description ? ['', clean(firstParagraph(tag.description))] : []),
      '',
      `<OperationIndex html={${JSON.stringify(`<ul>${operations.map((operation) => entry(operation, pagesUrl)).join('')}</ul>`)}} />`,
    ].join('\n'),
  );
  return [
    'import OperationIndex from "@site/src/components/OperationIndex";',
    '',
    '## Operations',
    '',
    'Every operation of this reference, by tag.',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}
