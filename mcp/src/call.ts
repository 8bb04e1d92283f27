// Runs an operation tool: its arguments become one request through @shopapi/client, the answer becomes the tool result.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ParameterError, type ShopApiClient, TokenError } from '@shopapi/client';
import { limits } from '@shopapi/contract';
import type { OperationTool } from './tools.ts';

/** The longest answer text a tool returns; a longer one is cut, with a note on asking for less. */
export const answerTextMax = 100_000;

export interface CallContext {
  client: ShopApiClient;
  baseUrl: string;
  username: string;
}

interface ToolArguments {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** openapi-fetch's `request` with the path and init of any operation: the tools are generated, not typed per path. */
type UntypedRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

class InputError extends Error {}

const failure = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a JSON value is, in words, for a message that says what was expected instead. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * What fits each type a path parameter is declared with: one scalar, so no value can lead the call to another route
 * (the client encodes it as one segment besides). An object was sent as `a,b` with its keys unencoded, so
 * `{"../webhooks/1#": ""}` as an order's id reached DELETE /v3/webhooks/1. The sandbox checks the rest (bounds, pattern).
 */
const pathValueFits: Record<string, { fits: (value: unknown) => boolean; expected: string }> = {
  integer: { fits: (value) => Number.isSafeInteger(value), expected: 'an integer' },
  string: { fits: (value) => typeof value === 'string', expected: 'a string' },
};

/** The path parameters: those the operation declares, each a scalar of its declared type. */
function readPath(tool: OperationTool, path: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const declared = (tool.operation.params?.properties ?? {}) as Record<string, { type?: string }>;
  const unknown = Object.keys(path ?? {}).filter((name) => !Object.hasOwn(declared, name));
  if (unknown.length)
    throw new InputError(
      `Unknown path parameter ${unknown.join(', ')}: ${tool.operation.path} has ${Object.keys(declared).join(', ') || 'none'}.`,
    );
  for (const [name, schema] of Object.entries(declared)) {
    const value = path?.[name];
    if (value === undefined) throw new InputError(`path.${name} is required (${tool.operation.path}).`);
    const type = pathValueFits[schema.type ?? ''];
    if (!type?.fits(value))
      throw new InputError(
        `path.${name} must be ${type?.expected ?? `of type ${schema.type}`}, not ${kindOf(value)} (${tool.operation.path}).`,
      );
  }
  return path;
}

/** The query parameters: those the operation declares, each a string, number or boolean; the sandbox checks the values. */
function readQuery(tool: OperationTool, query: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const declared = Object.keys(tool.operation.query?.properties ?? {});
  const unknown = Object.keys(query ?? {}).filter((name) => !declared.includes(name));
  if (unknown.length)
    throw new InputError(`Unknown query parameter ${unknown.join(', ')}: this tool takes ${declared.join(', ') || 'none'}.`);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (!['string', 'number', 'boolean'].includes(typeof value))
      throw new InputError(`query.${name} must be a string, a number or a boolean, not ${kindOf(value)}.`);
  }
  return query;
}

/** The shape the input schema promises, checked before anything is sent: the sandbox validates the values themselves. */
function readArguments(tool: OperationTool, args: unknown): ToolArguments {
  const input = args ?? {};
  const accepted = Object.keys(tool.tool.inputSchema.properties ?? {});
  if (!isRecord(input)) throw new InputError(`The arguments must be an object (${accepted.join(', ') || 'empty'}).`);
  const unknown = Object.keys(input).filter((key) => !accepted.includes(key));
  if (unknown.length)
    throw new InputError(`Unknown argument ${unknown.join(', ')}: this tool takes ${accepted.join(', ') || 'no arguments'}.`);
  for (const key of ['path', 'query'] as const) {
    if (input[key] !== undefined && !isRecord(input[key])) throw new InputError(`${key} must be an object.`);
  }
  return {
    path: readPath(tool, input.path as Record<string, unknown> | undefined),
    query: readQuery(tool, input.query as Record<string, unknown> | undefined),
    body: input.body,
  };
}

function decodeBase64(value: unknown, where: string): Uint8Array<ArrayBuffer> {
  const text = typeof value === 'string' ? value.replace(/\s+/g, '') : '';
  if (!text || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new InputError(`${where} must be the file's contents, base64-encoded.`);
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/** The file name the attachment document gives (as JSON text or as an object, the resource or the whole document). */
function filenameIn(data: unknown): string {
  try {
    const document = typeof data === 'string' ? JSON.parse(data) : data;
    const filename = (document?.data ?? document)?.attributes?.filename;
    return typeof filename === 'string' && filename ? filename : 'file';
  } catch {
    return 'file';
  }
}

/** The multipart parts: files from base64, named after the document's filename; other parts as text (objects as JSON). */
function multipartBody(tool: OperationTool, body: unknown): FormData {
  if (!isRecord(body)) throw new InputError('body must be an object with the multipart parts.');
  const properties = (tool.tool.inputSchema.properties?.body as { properties?: Record<string, { contentEncoding?: string }> })?.properties;
  const form = new FormData();
  const filename = filenameIn(body.data);
  for (const [name, value] of Object.entries(body)) {
    if (properties?.[name]?.contentEncoding === 'base64') {
      form.append(name, new File([decodeBase64(value, `body.${name}`)], filename, { type: 'application/octet-stream' }));
    } else {
      form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  return form;
}

/** The init of openapi-fetch's request: parameters, and the body in the operation's encoding. */
function requestInit(tool: OperationTool, args: ToolArguments): Record<string, unknown> {
  const init: Record<string, unknown> = { params: { path: args.path, query: args.query }, parseAs: 'text' };
  if (args.body === undefined) return init;
  if (tool.bodyEncoding === 'multipart') return { ...init, body: multipartBody(tool, args.body) };
  if (tool.bodyEncoding === 'bytes') {
    const bytes = decodeBase64(args.body, 'body');
    return { ...init, body: bytes, bodySerializer: () => bytes, headers: { 'content-type': tool.bytesContentType } };
  }
  return { ...init, body: args.body };
}

/** The answer as text: pretty JSON where it is JSON, cut at `answerTextMax` characters. */
function answerText(raw: unknown): string {
  if (raw === undefined || raw === '') return '(no body)';
  let text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  try {
    text = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: shown as it came
  }
  if (text.length <= answerTextMax) return text;
  return `${text.slice(0, answerTextMax)}\n… cut: the answer has ${text.length} characters, ${answerTextMax} are shown. Ask for less: a smaller query.page[size] (1 to ${limits.pageSizeMax}), fewer include paths, or a filter.`;
}

function networkFailure(error: unknown, context: CallContext): CallToolResult {
  if (error instanceof TokenError) {
    return failure(
      `The sandbox at ${context.baseUrl} refused to sign in ${context.username}: ${error.message}. Check SHOPAPI_USERNAME and SHOPAPI_PASSWORD in the MCP server's environment.`,
    );
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (error instanceof TypeError && cause) {
    return failure(
      `The sandbox is not reachable at ${context.baseUrl} (${cause.code ?? cause.message}). Start it with npm start in the repository, or point SHOPAPI_URL at the one that runs.`,
    );
  }
  return failure(`The call failed before the sandbox answered: ${error instanceof Error ? error.message : String(error)}`);
}

export async function callOperation(tool: OperationTool, args: unknown, context: CallContext): Promise<CallToolResult> {
  const { method, path } = tool.operation;
  let init: Record<string, unknown>;
  try {
    init = requestInit(tool, readArguments(tool, args));
  } catch (error) {
    if (error instanceof InputError) return failure(`${error.message} Nothing was sent.`);
    throw error;
  }
  let answer: Awaited<ReturnType<UntypedRequest>>;
  try {
    answer = await (context.client.request as unknown as UntypedRequest)(method, path, init);
  } catch (error) {
    // A path value the client would not send as one segment ('..', '.', ''): refused before the request was made.
    if (error instanceof ParameterError) return failure(error.message);
    return networkFailure(error, context);
  }
  const { response } = answer;
  const sentPath = response.url ? new URL(response.url).pathname : path;
  const head = [`${method} ${sentPath} → ${response.status} ${response.statusText}`.trimEnd()];
  const requestId = response.headers.get('request-id');
  if (requestId) head.push(`Request-Id: ${requestId}`);
  const warnings = response.headers.get('sandbox-warning');
  if (warnings) head.push(`Sandbox-Warning: ${warnings}`);
  return {
    content: [{ type: 'text', text: `${head.join('\n')}\n\n${answerText(answer.data ?? answer.error)}` }],
    ...(response.ok ? {} : { isError: true }),
  };
}
