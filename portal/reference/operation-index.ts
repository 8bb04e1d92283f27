// The reference index's list of every operation, by tag: method, path and summary, each a link to the operation's page.
// Appended at `npm run gen-api-docs` to the introduction page docusaurus-plugin-openapi-docs generates from the OpenAPI
// document (its markdownGenerators.createInfoPageMD), so that a reader can scan the whole API on one page while the
// sidebar's categories stay collapsed. Plain Markdown links to the pages' files: Docusaurus resolves them to the pages'
// URLs, and a link to a file that is not there fails the build.
import {createRequire} from 'node:module';
import {clean} from 'docusaurus-plugin-openapi-docs/lib/markdown/utils';
import {operationsByTag, type DocumentOperation, type OpenApiDocument} from './openapi';

// The plugin names an operation's page file after its operationId (or summary) through lodash's kebabCase: the same
// function from the plugin's own dependencies names the links' targets here.
const kebabCase = createRequire(require.resolve('docusaurus-plugin-openapi-docs'))('lodash/kebabCase') as (text: string) => string;

/** The class of the list (src/css/custom.css gives it its layout). */
const operationIndexClass = 'operation-index';

/** The first paragraph of a description, for a compact list (a tag's description may hold whole sections). */
function firstParagraph(text: string): string {
  return text.trim().split(/\n\s*\n/)[0].replace(/\s+/g, ' ');
}

function entry({method, path, operation}: DocumentOperation): string {
  const file = `./${kebabCase(operation.operationId ?? operation.summary ?? '')}.api.mdx`;
  const summary = clean(operation.summary ?? operation.operationId ?? '').replace(/[[\]]/g, '\\$&');
  return (
    `- [<span className="${operationIndexClass}__method ${operationIndexClass}__method--${method}">${method.toUpperCase()}</span>` +
    ` \`${path}\` <span className="${operationIndexClass}__summary">${summary}</span>](${file})`
  );
}

/** The MDX of the list: a section per tag, in the document's order, with its first paragraph and its operations. */
export function operationIndex(document: OpenApiDocument): string {
  const sections = operationsByTag(document).map(({tag, operations}) =>
    [
      `### ${clean(tag.name)} {#tag-${kebabCase(tag.name)}}`,
      ...(tag.description ? ['', clean(firstParagraph(tag.description))] : []),
      '',
      `<div className="${operationIndexClass}">`,
      '',
      ...operations.map(entry),
      '',
      '</div>',
    ].join('\n'),
  );
  return ['## Operations', '', 'Every operation of this reference, by tag.', '', ...sections.flatMap((section) => [section, ''])].join('\n');
}
