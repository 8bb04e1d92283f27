// @shopapi/mcp: an MCP server over the Shop API sandbox, a tool per v3 operation and sandbox control, and search_docs.
export { createMcpServer, type McpServerOptions } from './server.ts';
export { annotationsOf, excludedOperations, operationTools, toolOperations, type OperationTool } from './tools.ts';
export { answerTextMax } from './call.ts';
export { DocsIndex, docEntries, operationPageUrl, type DocEntry, type DocHit } from './docs-search.ts';
