// An API reference for machine readers: the operations of its OpenAPI document, each with the page
// docusaurus-plugin-openapi-docs generated for it, and each as compact Markdown for llms-full.txt.
import {readFileSync} from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type {DocMetadata} from '@docusaurus/plugin-content-docs';

/** One reference as docusaurus-plugin-openapi-docs is configured with it. */
export interface ReferenceConfig {
  specPath: string;
  outputDir: string;
  downloadUrl: string;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: {required?: boolean; content?: Record<string, unknown>};
  responses?: Record<string, {description?: string}>;
}

interface OpenApiDocument {
  info: {title: string; version: string; description?: string};
  paths: Record<string, Record<string, Operation | Parameter[]> & {parameters?: Parameter[]}>;
}

export interface OperationPage {
  /** The operation's page. */
  permalink: string;
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Its own and its path's parameters. */
  parameters: Parameter[];
  requestBody?: Operation['requestBody'];
  responses: Record<string, {description?: string}>;
}

export interface Reference {
  title: string;
  description: string;
  /** The reference's introduction page. */
  permalink: string;
  /** Where the portal offers the OpenAPI document for download. */
  documentUrl: string;
  operations: OperationPage[];
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The reference whose generated pages are among `docs` (the pages of the docs plugin that renders the references). */
export function loadReference(config: ReferenceConfig, docs: DocMetadata[], siteDir: string): Reference {
  const document = JSON.parse(readFileSync(config.specPath, 'utf8')) as OpenApiDocument;
  const folder = path.resolve(siteDir, config.outputDir) + path.sep;
  const pages = docs.filter((doc) => path.resolve(siteDir, doc.source.replace(/^@site\//, '')).startsWith(folder));
  const introduction = pages.find((doc) => doc.source.endsWith('.info.mdx'));
  if (!introduction) throw new Error(`llms-txt: no introduction page generated from ${config.specPath} in ${config.outputDir}`);
  const pageOf = new Map<string, string>();
  for (const page of pages) {
    if (typeof page.frontMatter.api === 'string') pageOf.set(endpointOf(page.frontMatter.api), page.permalink);
  }
  const operations = Object.entries(document.paths).flatMap(([operationPath, item]) =>
    methods.flatMap((method): OperationPage[] => {
      const operation = item[method] as Operation | undefined;
      const permalink = pageOf.get(`${method} ${operationPath}`);
      if (!operation || !permalink) return [];
      return [
        {
          permalink,
          method: method.toUpperCase(),
          path: operationPath,
          operationId: operation.operationId ?? '',
          summary: operation.summary ?? operation.operationId ?? `${method.toUpperCase()} ${operationPath}`,
          description: operation.description ?? '',
          parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])],
          requestBody: operation.requestBody,
          responses: operation.responses ?? {},
        },
      ];
    }),
  );
  return {
    title: document.info.title,
    description: document.info.description ?? introduction.description,
    permalink: introduction.permalink,
    documentUrl: config.downloadUrl,
    operations,
  };
}

/**
 * The method and path of the operation docusaurus-plugin-openapi-docs gave a page in its front matter (`api`: the
 * operation as JSON, deflated and base64-encoded unless the plugin's compression is off).
 */
function endpointOf(api: string): string {
  const operation = JSON.parse(api.startsWith('{') ? api : zlib.inflateSync(Buffer.from(api, 'base64')).toString()) as {
    method: string;
    path: string;
  };
  return `${operation.method} ${operation.path}`;
}

/** An operation as compact Markdown: method and path, description, parameters, request body and responses. */
export function operationMarkdown(operation: OperationPage): string {
  const lines = [
    `## ${operation.summary}`,
    '',
    `\`${operation.method} ${operation.path}\` (operationId \`${operation.operationId}\`, [reference page](${operation.permalink}))`,
  ];
  if (operation.description) lines.push('', operation.description.trim());
  if (operation.parameters.length > 0) {
    lines.push('', 'Parameters:', '');
    for (const parameter of operation.parameters) {
      const facts = [parameter.in, parameter.required ? 'required' : 'optional', schemaType(parameter.schema)].filter(Boolean).join(', ');
      lines.push(`- \`${parameter.name}\` (${facts})${parameter.description ? `: ${oneLine(parameter.description, 300)}` : ''}`);
    }
  }
  const bodyTypes = Object.keys(operation.requestBody?.content ?? {});
  if (bodyTypes.length > 0) {
    lines.push(
      '',
      `Request body${operation.requestBody?.required ? ' (required)' : ''}: ${bodyTypes.map((type) => `\`${type}\``).join(', ')}.`,
    );
  }
  lines.push('', 'Responses:', '');
  for (const [status, response] of Object.entries(operation.responses)) {
    lines.push(`- \`${status}\`${response.description ? `: ${oneLine(response.description, 300)}` : ''}`);
  }
  return lines.join('\n');
}

function schemaType(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').at(-1) ?? '';
  if (schema.enum) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  if (schema.type === 'array') return `array of ${schemaType(schema.items) || 'values'}`;
  return Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? '');
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
