// The MCP server: the operation tools and search_docs, signed in to one sandbox as one API client.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { createShopApiClient } from '@shopapi/client';
import { limits, scenarioMarkerPrefix } from '@shopapi/contract';
import packageJson from '../package.json' with { type: 'json' };
import { callOperation } from './call.ts';
import { DocsIndex, docEntries } from './docs-search.ts';
import { type OperationTool, operationTools } from './tools.ts';

export interface McpServerOptions {
  /** Origin of the sandbox, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  username: string;
  password: string;
  /** Origin of the portal that search_docs links to; the sandbox serves it (npm start), so by default baseUrl. */
  portalUrl?: string;
  fetch?: typeof fetch;
}

const searchDocsLimitDefault = 5;
const searchDocsLimitMax = 20;

const searchDocsTool: Tool = {
  name: 'search_docs',
  title: 'Search the documentation',
  description:
    "Searches the portal's guides and the v3 reference (every operation's summary and description) and answers the best matches: title, URL on the portal and an excerpt. A hit on an operation names its tool.",
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'Words to look for, e.g. "cursor pagination" or "advance clock".',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: searchDocsLimitMax,
        default: searchDocsLimitDefault,
        description: 'How many results at most.',
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { title: 'Search the documentation', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

function instructions(baseUrl: string, username: string): string {
  return [
    `This server drives a Shop API sandbox at ${baseUrl}, signed in as the API client "${username}": a live test copy of a fulfilment provider's API with a simulated warehouse. Every change stays in that sandbox.`,
    'Each tool is one call of the Shop API v3 or a sandbox control, named after its operationId; its input has `path` (path parameters such as the id), `query` and `body`. The server handles the token.',
    'Ids are integers the sandbox assigns, and a client sees only its own resources (another id answers 404). Order type, shipping method and return reason ids differ per client: read them with getSettings.',
    `Bodies are JSON:API documents: {"data": {"type", "attributes", "relationships"}}; new related resources (an order's addresses and items) go in "included" with a provisional string id that relationships point to. Lists are cursor-paged: query.page[size] is 1 to ${limits.pageSizeMax}, query.page[cursor] the id of the last resource seen; follow links.next. Errors answer a JSON:API "errors" list with catalogue codes (404-1 unknown sku, 409-1 the externalOrderNumber exists, ...).`,
    "The warehouse runs on the client's own clock: sandboxAdvanceClock moves it on (orders with stock ship step by step), sandboxShipOrder ships an order at once, sandboxReceiveInboundPackingSlip puts goods in stock. Tools with the destructive hint change or move things irreversibly.",
    `Test scenarios make the warehouse take a given road on purpose (waits for stock, split shipment, warehouse problem, failed first delivery, pick-up point, customs, refused or damaged return, inbound short or over): sandboxListScenarios lists each with its steps (statuses, tracking, webhook events). Start one with "${scenarioMarkerPrefix}<name>" as the whole value of metadata.extra1 of a new order or packing slip, or with sandboxSetOrderScenario on an order until it ships; sandboxGetOrderScenario says which road an order follows, what it waits for and how far its shipments got.`,
    'search_docs finds guides and reference pages.',
  ].join('\n\n');
}

function searchDocs(index: DocsIndex, tools: Map<string, OperationTool>, args: unknown): CallToolResult {
  const { query, limit } = (args ?? {}) as { query?: unknown; limit?: unknown };
  if (typeof query !== 'string' || !query.trim())
    return { content: [{ type: 'text', text: 'query must be a non-empty string.' }], isError: true };
  const count =
    typeof limit === 'number' && Number.isInteger(limit) ? Math.min(Math.max(limit, 1), searchDocsLimitMax) : searchDocsLimitDefault;
  const hits = index.search(query, count);
  if (hits.length === 0) return { content: [{ type: 'text', text: `Nothing in the guides or the reference matches "${query}".` }] };
  const text = hits
    .map((hit, i) => {
      const what = !hit.operationId
        ? 'guide'
        : tools.has(hit.operationId)
          ? `tool ${hit.operationId}`
          : `operation ${hit.operationId}: no tool, this server does it itself`;
      return `${i + 1}. ${hit.title} (${what})\n   ${hit.url}\n   ${hit.excerpt}`;
    })
    .join('\n\n');
  return { content: [{ type: 'text', text }] };
}

/** A server not yet connected: connect it to a stdio transport (cli.ts) or to an in-memory one in tests. */
export function createMcpServer(options: McpServerOptions): Server {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const portalUrl = options.portalUrl ?? baseUrl;
  const client = createShopApiClient({ baseUrl, username: options.username, password: options.password, fetch: options.fetch });
  const tools = new Map(operationTools(portalUrl).map((tool) => [tool.tool.name, tool]));
  const docs = new DocsIndex(docEntries(portalUrl));

  // The low-level Server rather than McpServer: McpServer takes Zod schemas, and these tools come with the
  // contract's JSON Schemas, listed as they are.
  const server = new Server(
    { name: 'shopapi-sandbox', title: 'Shop API sandbox', version: packageJson.version },
    { capabilities: { tools: {} }, instructions: instructions(baseUrl, options.username) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...[...tools.values()].map((tool) => tool.tool), searchDocsTool],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    if (name === searchDocsTool.name) return searchDocs(docs, tools, args);
    const tool = tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}.`);
    return callOperation(tool, args, { client, baseUrl, username: options.username });
  });
  return server;
}
