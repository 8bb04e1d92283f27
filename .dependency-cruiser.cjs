// The dependency rule of docs/ARCHITECTURE.md: api → modules → platform, warehouse → modules, nothing imports the
// composition root, no cycles.
// Tests may import anything. Violations that existed when the rule came in are listed in
// .dependency-cruiser-known-violations.json; `npm run lint` fails on any other.

/** A test file, wherever it lives: tests reach into every layer on purpose. */
const tests = '(^server/test/|^contract/test/|^client/test/|^mcp/test/|^e2e/|\\.test\\.ts$)';
/** The HTTP layer: the API plugins and their shared pieces. */
const transport = '^server/src/api/';
/** The domain: one folder per area. */
const domain = '^server/src/modules/';
/** Fastify and its plugins: HTTP, which the domain and the platform know nothing of. */
const fastify = '(^|/)node_modules/(fastify|fastify-plugin|@fastify/[^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle ties its modules into one: none may be read, tested or moved alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-import-of-composition-root',
      severity: 'error',
      comment: 'app.ts and cli.ts compose the server; nothing but tests and benchmarks imports them (cli.ts starts app.ts).',
      from: { pathNot: [tests, '^bench/', '^server/src/(app|cli)\\.ts$'] },
      to: { path: '^server/src/(app|cli)\\.ts$' },
    },
    {
      name: 'platform-imports-only-platform',
      severity: 'error',
      comment: 'platform/ is the bottom layer: it imports no module, API or simulator code, and no Fastify.',
      from: { path: '^server/src/platform/', pathNot: tests },
      to: { path: ['^server/src/(api|modules|warehouse)/', fastify] },
    },
    {
      name: 'domain-knows-no-http',
      severity: 'error',
      comment: 'Modules take and return plain domain values: no API code (errors, query parsing, documents), no Fastify.',
      from: { path: domain, pathNot: tests },
      to: { path: [transport, fastify] },
    },
    {
      name: 'api-routes-go-through-modules',
      severity: 'error',
      comment:
        'Route handlers read and write through module services (all SQL of an area is in its module). The exceptions: the v3 representation (the SQL fast path of the hot lists) and the cross-cutting plugins of api/shared and api/auth (metrics, rate limit, sign-in throttle), whose tables are their own.',
      from: {
        path: ['^server/src/api/(v2|sandbox)/', '^server/src/api/v3/[^/]+\\.ts$'],
        pathNot: [tests, '^server/src/api/v3/event-representation\\.ts$'],
      },
      to: { path: ['(^|/)node_modules/drizzle-orm/', '^server/src/platform/db/schema/'] },
    },
    {
      name: 'warehouse-calls-modules-only',
      severity: 'error',
      comment: 'The simulator calls module services; it does not go through the APIs.',
      from: { path: '^server/src/warehouse/', pathNot: tests },
      to: { path: transport },
    },
    {
      name: 'tools-use-the-public-api',
      severity: 'error',
      comment:
        'The typed client, the MCP server and the console are clients of the public API, generated from the contract: they may import the contract, never the server, so anything they do an integrator can do with curl.',
      from: { path: '^(client|mcp|console)/', pathNot: tests },
      to: { path: '^server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^portal/', '^contract/openapi/', '^server/src/platform/db/migrations/'] },
    // Type-only imports count: a cycle through types is still a cycle for a reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // @shopapi/contract is a workspace link: resolved through its package.json exports to contract/src.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
