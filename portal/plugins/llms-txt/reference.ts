// An API reference for machine readers: the operations of its OpenAPI document, each with the page
// docusaurus-plugin-openapi-docs generated for it, and each as Markdown: its page's twin at the page's URL + `.md`, and its
// section of llms-full.txt.
import path from 'node:path';
import type {DocMetadata} from '@docusaurus/plugin-content-docs';
import {operationsByTag, readOpenApiDocument, type Operation, type Parameter} from '../../reference/openapi';
import {bodyFieldLines, typeAndFacts} from './fields';

/** One reference as docusaurus-plugin-openapi-docs is configured with it. */
export interface ReferenceConfig {
  specPath: string;
  outputDir: string;
  downloadUrl: string;
}

export interface OperationPage {
  /** The operation's page. */
  permalink: string;
  /** Its Markdown twin. */
  markdownUrl: string;
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Its own and its path's parameters. */
  parameters: Parameter[];
  requestBody?: Operation['requestBody'];
  responses: NonNullable<Operation['responses']>;
  /** The contract's curl sample. */
  curl?: string;
}

export interface Reference {
  title: string;
  description: string;
  /** The reference's introduction page. */
  permalink: string;
  /** Where the portal offers the OpenAPI document for download. */
  documentUrl: string;
  /** The operations by tag, in the order of the reference's sidebar. */
  tags: {name: string; description: string; operations: OperationPage[]}[];
  operations: OperationPage[];
}

/** The reference whose generated pages are among `docs` (the pages of the docs plugin that renders the references). */
export function loadReference(config: ReferenceConfig, docs: DocMetadata[], siteDir: string): Reference {
  const document = readOpenApiDocument(config.specPath);
  const folder = path.resolve(siteDir, config.outputDir) + path.sep;
  const pages = docs.filter((doc) => path.resolve(siteDir, doc.source.replace(/^@site\//, '')).startsWith(folder));
  const introduction = pages.find((doc) => doc.source.endsWith('.info.mdx'));
  if (!introduction) throw new Error(`llms-txt: no introduction page generated from ${config.specPath} in ${config.outputDir}`);
  const pageOf = new Map<string, string>();
  for (const page of pages) {
    const api = page.frontMatter.api as PageOperation | string | undefined;
    if (api) pageOf.set(endpointOf(api), page.permalink);
  }
  const tags = operationsByTag(document).map(({tag, operations}) => ({
    name: tag.name,
    description: tag.description ?? '',
    operations: operations.flatMap(({method, path: operationPath, operation, parameters}): OperationPage[] => {
      const permalink = pageOf.get(`${method} ${operationPath}`);
      if (!permalink) return [];
      return [
        {
          permalink,
          markdownUrl: `${permalink}.md`,
          method: method.toUpperCase(),
          path: operationPath,
          operationId: operation.operationId ?? '',
          summary: operation.summary ?? operation.operationId ?? `${method.toUpperCase()} ${operationPath}`,
          description: operation.description ?? '',
          parameters,
          requestBody: operation.requestBody,
          responses: operation.responses ?? {},
          curl: operation['x-codeSamples']?.find((sample) => sample.lang === 'bash')?.source,
        },
      ];
    }),
  }));
  return {
    title: document.info.title,
    description: document.info.description ?? introduction.description,
    permalink: introduction.permalink,
    documentUrl: config.downloadUrl,
    tags,
    operations: tags.flatMap((tag) => tag.operations),
  };
}

/** The part of the operation in a page's front matter that tells which operation it is. */
interface PageOperation {
  method: string;
  path: string;
}

/**
 * The method and path of the operation docusaurus-plugin-openapi-docs gave a page in its front matter (`api`: the
 * operation itself, since the portal turns the plugin's compression off).
 */
function endpointOf(api: PageOperation | string): string {
  if (typeof api === 'string') throw new Error('llms-txt: an operation page carries its operation compressed; set disableCompression in its reference');
  return `${api.method} ${api.path}`;
}

/** A fenced code block, its fence longer than any run of backticks in the code. */
function fenced(language: string, text: string): string {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map(([run]) => run.length + 1)));
  return `${fence}${language}\n${text.trimEnd()}\n${fence}`;
}

/**
 * A response's description without the status it is listed under: the contract's descriptions start with it
 * ("400: Bad Request."), which a list keyed by status would otherwise say twice.
 */
function responseDescription(status: string, description: string | undefined): string {
  return oneLine(description?.startsWith(`${status}: `) ? description.slice(status.length + 2) : (description ?? ''), Infinity);
}

/**
 * An operation as Markdown, its title at heading level `depth` (1 for its twin, 2 in llms-full.txt): method and path,
 * description, parameters, request body fields, the curl sample and the responses.
 */
export function operationMarkdown(operation: OperationPage, depth = 2): string {
  const heading = (level: number, text: string) => `${'#'.repeat(depth + level)} ${text}`;
  const lines = [
    heading(0, operation.summary),
    '',
    `\`${operation.method} ${operation.path}\` (operationId \`${operation.operationId}\`, [reference page](${operation.permalink}), [as Markdown](${operation.markdownUrl}))`,
  ];
  if (operation.description) lines.push('', operation.description.trim());
  if (operation.parameters.length > 0) {
    lines.push('', heading(1, 'Parameters'), '');
    for (const parameter of operation.parameters) {
      const facts = [parameter.in, parameter.required ? 'required' : 'optional', ...typeAndFacts(parameter.schema)].join(', ');
      lines.push(`- \`${parameter.name}\` (${facts})${parameter.description ? `: ${oneLine(parameter.description, Infinity)}` : ''}`);
    }
  }
  for (const [mediaType, media] of Object.entries(operation.requestBody?.content ?? {})) {
    lines.push('', heading(1, `Request body: \`${mediaType}\`${operation.requestBody?.required ? ' (required)' : ''}`), '');
    if (media.schema) lines.push(...bodyFieldLines(media.schema));
  }
  if (operation.curl) lines.push('', heading(1, 'Example request'), '', fenced('bash', operation.curl));
  lines.push('', heading(1, 'Responses'), '');
  for (const [status, response] of Object.entries(operation.responses)) {
    const description = responseDescription(status, response.description);
    lines.push(`- \`${status}\`${description ? `: ${description}` : ''}`);
  }
  return lines.join('\n');
}

/** The reference's introduction as Markdown: its description, then its operations by tag, each linking to its twin. */
export function referenceMarkdown(reference: Reference, link: (title: string, url: string, summary?: string) => string): string {
  return [
    `# ${reference.title}`,
    '',
    `Page: [${reference.permalink}](${reference.permalink}), OpenAPI document: [${reference.documentUrl}](${reference.documentUrl})`,
    '',
    reference.description.trim(),
    ...reference.tags.flatMap((tag) => [
      '',
      `## ${tag.name}`,
      ...(tag.description ? ['', oneLine(tag.description)] : []),
      '',
      ...tag.operations.map((operation) => link(operation.summary, operation.markdownUrl, `\`${operation.method} ${operation.path}\``)),
    ]),
  ].join('\n');
}

/**
 * A text on one line: whitespace collapsed; longer than `limit` characters, its first sentence, or failing that its
 * first words, never cutting a code span in two.
 */
export function oneLine(text: string, limit = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= limit) return line;
  const sentence = /^.*?[.!?](?=\s)/.exec(line)?.[0];
  if (sentence && sentence.length <= limit && (sentence.split('`').length - 1) % 2 === 0) return sentence;
  let cut = line.slice(0, line.lastIndexOf(' ', limit - 1));
  if ((cut.split('`').length - 1) % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('`')).trimEnd();
  return `${cut}…`;
}
