// `npm run mcp`: the MCP server on stdio, signed in to the sandbox with the API client's credentials from the
// environment. stdout carries the protocol, so everything else goes to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from './server.ts';

const baseUrl = process.env.SHOPAPI_URL || 'http://127.0.0.1:8080';
const username = process.env.SHOPAPI_USERNAME || 'demo';
const password = process.env.SHOPAPI_PASSWORD;

function stop(message: string): never {
  console.error(`shopapi mcp: ${message}`);
  process.exit(2);
}

if (!password) {
  stop(
    `SHOPAPI_PASSWORD is not set. Give the password of the API client "${username}" (npm start prints the demo client's once): SHOPAPI_PASSWORD='...' npm run mcp`,
  );
}
if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
  stop(`SHOPAPI_URL must be the sandbox's http(s) origin, e.g. http://127.0.0.1:8080; it is "${baseUrl}".`);
}

const server = createMcpServer({ baseUrl, username, password });
server.onerror = (error) => console.error('shopapi mcp:', error);
await server.connect(new StdioServerTransport());
console.error(`shopapi mcp: serving the sandbox at ${baseUrl} as ${username} on stdio`);

// The host closes stdin when it is done with the server; the transport does not notice on its own.
process.stdin.on('end', () => {
  void server.close().finally(() => process.exit(0));
});
