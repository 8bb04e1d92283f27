// The MCP tools, generated from the contract: one per operation of the v3 document, its own JSON Schemas as the input.
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { operations, type Operation } from '@shopapi/contract';
import { operationPageUrl } from './docs-search.ts';

/**
 * Operations of the v3 document that get no tool, because the MCP server does their job itself:
 * it signs in with the credentials from its environment and renews the token (a token in a tool answer would put a
 * credential into the conversation), and whether the sandbox is up shows in every tool answer, or in the
 * "not reachable" error of any call.
 */
export const excludedOperations: Readonly<Record<string, string>> = {
  requestToken: 'The server requests and renews the token itself, with SHOPAPI_USERNAME and SHOPAPI_PASSWORD.',
  getStatus: 'A health check: every tool call shows whether the sandbox answers.',
  getReadiness: 'A readiness probe for load balancers: every tool call shows whether the sandbox answers.',
};

/** How a tool sends its `body`: as JSON (JSON:API on v3 and sandbox paths), as multipart form data, or as raw bytes. */
export type BodyEncoding = 'json' | 'multipart' | 'bytes';

export interface OperationTool {
  tool: Tool;
  operation: Operation;
  bodyEncoding?: BodyEncoding;
  /** The Content-Type a `bytes` body is sent with: the operation's first that names one type (no wildcard). */
  bytesContentType?: string;
}

type JsonSchema = Record<string, unknown>;

/** A plain JSON copy: drops TypeBox's symbol markers. */
const plain = (schema: unknown): JsonSchema => JSON.parse(JSON.stringify(schema));

/** Tool arguments are JSON text, so file contents travel base64-encoded; the string grows by a third. */
function base64Schema(node: JsonSchema): JsonSchema {
  const { format: _format, contentMediaType, maxLength, description, ...rest } = node;
  return {
    ...rest,
    type: 'string',
    contentEncoding: 'base64',
    ...(typeof maxLength === 'number' ? { maxLength: Math.ceil(maxLength / 3) * 4 } : {}),
    description: `${description ?? 'The file.'} Base64-encoded${typeof contentMediaType === 'string' ? ` (${contentMediaType})` : ''}.`,
  };
}

const isFile = (node: JsonSchema) => node.type === 'string' && (node.format === 'binary' || node.contentMediaType !== undefined);

/** The operation's body schema with every file (the whole body, or a multipart part) as a base64 string. */
function bodySchema(op: Operation): JsonSchema | undefined {
  if (!op.body) return undefined;
  const schema = plain(op.body);
  if (isFile(schema)) return base64Schema(schema);
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties) {
    for (const [name, property] of Object.entries(properties)) if (isFile(property)) properties[name] = base64Schema(property);
  }
  if (op.requestExample !== undefined) schema.examples = [op.requestExample];
  return schema;
}

function bodyEncodingOf(op: Operation): BodyEncoding | undefined {
  if (!op.body) return undefined;
  const contentType = op.bodyContentTypes?.[0];
  if (contentType === undefined || contentType.includes('json')) return 'json';
  return contentType === 'multipart/form-data' ? 'multipart' : 'bytes';
}

/** The tool's input: `path`, `query` and `body`, each the operation's own schema; required where the call needs it. */
function inputSchemaOf(op: Operation): Tool['inputSchema'] {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  if (op.params) {
    properties.path = { ...plain(op.params), description: `Path parameters of ${op.path}.` };
    required.push('path');
  }
  if (op.query && Object.keys(op.query.properties).length > 0) {
    properties.query = { ...plain(op.query), description: 'Query parameters.' };
    if (op.query.required?.length) required.push('query');
  }
  const body = bodySchema(op);
  if (body) {
    properties.body = body;
    // A body whose every field is optional may be left out (receiving a packing slip without one receives everything).
    const optional = body.type === 'object' && !(body.required as string[] | undefined)?.length;
    if (!optional) required.push('body');
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/**
 * GET only reads. PUT and DELETE overwrite or remove, and repeating them changes nothing more. A POST that answers
 * 201 outside /sandbox/ adds a new resource and touches nothing else; every other POST moves something on for good: the
 * sandbox controls (ship, receive, advance, error, return, clock, redeliver) and the product image upload, which
 * replaces the image.
 */
export function annotationsOf(op: Operation): ToolAnnotations {
  const common = { title: op.summary, openWorldHint: false };
  if (op.method === 'GET') return { ...common, readOnlyHint: true, idempotentHint: true };
  if (op.method === 'PUT' || op.method === 'DELETE') return { ...common, readOnlyHint: false, destructiveHint: true, idempotentHint: true };
  const creates = op.success === 201 && !op.path.startsWith('/sandbox/');
  return { ...common, readOnlyHint: false, destructiveHint: !creates, idempotentHint: false };
}

/** The operations that become tools: those of the v3 document, less the excluded ones. */
export const toolOperations = (): Operation[] =>
  operations.filter((op) => op.documents.includes('v3') && !Object.hasOwn(excludedOperations, op.operationId));

export function operationTools(portalUrl: string): OperationTool[] {
  return toolOperations().map((op) => {
    const bodyEncoding = bodyEncodingOf(op);
    return {
      operation: op,
      bodyEncoding,
      bytesContentType:
        bodyEncoding === 'bytes' ? (op.bodyContentTypes?.find((type) => !type.includes('*')) ?? 'application/octet-stream') : undefined,
      tool: {
        name: op.operationId,
        title: op.summary,
        description: `${op.summary}: ${op.method} ${op.path}.\n\n${op.description}\n\nReference: ${operationPageUrl(portalUrl, op.operationId)}`,
        inputSchema: inputSchemaOf(op),
        annotations: annotationsOf(op),
      },
    };
  });
}
