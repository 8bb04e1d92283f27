// The parts of the contract's OpenAPI documents (contract/openapi/*.json) that the portal's own generators read: the
// reference index's operation list (./operation-index.ts) and the Markdown for machines (plugins/llms-txt).
import {readFileSync} from 'node:fs';

export interface Schema {
  type?: string | string[];
  description?: string;
  format?: string;
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  deprecated?: boolean;
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  contentEncoding?: string;
  contentMediaType?: string;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface MediaType {
  schema?: Schema;
}

export interface CodeSample {
  lang: string;
  source: string;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: {required?: boolean; content?: Record<string, MediaType>};
  responses?: Record<string, {description?: string; content?: Record<string, MediaType>}>;
  'x-codeSamples'?: CodeSample[];
}

export interface Tag {
  name: string;
  description?: string;
}

export interface OpenApiDocument {
  info: {title: string; description?: string};
  tags?: Tag[];
  paths: Record<string, Record<string, Operation | Parameter[]> & {parameters?: Parameter[]}>;
}

/** An operation where the document puts it: its method (lower case, as in the document) and path. */
export interface DocumentOperation {
  method: string;
  path: string;
  operation: Operation;
  /** Its path's parameters, then its own. */
  parameters: Parameter[];
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function readOpenApiDocument(file: string): OpenApiDocument {
  return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: OpenApiDocument): DocumentOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = item[method] as Operation | undefined;
      return operation ? [{method, path, operation, parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])]}] : [];
    }),
  );
}

/** The operations under each of the document's tags, in the order of its tag list (the references' sidebars' order). */
export function operationsByTag(document: OpenApiDocument): {tag: Tag; operations: DocumentOperation[]}[] {
  const operations = operationsOf(document);
  return (document.tags ?? [])
    .map((tag) => ({tag, operations: operations.filter(({operation}) => operation.tags?.includes(tag.name))}))
    .filter(({operations: tagged}) => tagged.length > 0);
}
