// The dependency rule of docs/ARCHITECTURE.md: api → representation → modules → platform, warehouse → modules, the API
// plugins are siblings, module areas import each other one way, nothing imports the composition root, no cycles.
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
/** The API plugins, each an encapsulated context of its own. */
const plugins = '(v3|v2|sandbox|auth)';

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
      comment: 'platform/ is the bottom layer: it imports no module, representation, API or simulator code, and no Fastify.',
      from: { path: '^server/src/platform/', pathNot: tests },
      to: { path: ['^server/src/(api|modules|warehouse|representation)/', fastify] },
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
        "Route files read and write through module services and the representation (all SQL of an area is in its module, the documents' SQL in representation/). api/shared and api/auth keep their own tables (metrics, rate limit, sign-in throttle).",
      from: { path: '^server/src/api/(v3|v2|sandbox)/', pathNot: tests },
      to: { path: ['(^|/)node_modules/drizzle-orm/', '^server/src/platform/db/schema/'] },
    },
    {
      name: 'warehouse-calls-modules-only',
      severity: 'error',
      comment: 'The simulator calls module services; it does not go through the APIs or the representation.',
      from: { path: '^server/src/warehouse/', pathNot: tests },
      to: { path: [transport, '^server/src/representation/'] },
    },
    {
      name: 'api-plugins-are-siblings',
      severity: 'error',
      comment:
        'v3, v2, sandbox and auth are contexts of their own: none imports another; what two share is in api/shared or representation/.',
      from: { path: `^server/src/api/${plugins}/`, pathNot: tests },
      to: { path: `^server/src/api/${plugins}/`, pathNot: '^server/src/api/$1/' },
    },
    {
      name: 'api-shared-imports-no-plugin',
      severity: 'error',
      comment: 'api/shared is what the plugins share: it imports none of them.',
      from: { path: '^server/src/api/shared/', pathNot: tests },
      to: { path: `^server/src/api/${plugins}/` },
    },
    {
      name: 'representation-below-the-apis',
      severity: 'error',
      comment:
        'The representation makes the documents every API and the webhook payloads share: it imports modules, platform and the contract, never an API plugin, the warehouse or Fastify.',
      from: { path: '^server/src/representation/', pathNot: tests },
      to: { path: ['^server/src/(api|warehouse)/', fastify] },
    },
    {
      name: 'modules-never-reach-up',
      severity: 'error',
      comment:
        'Modules get what the representation makes through the typed ports of ModuleServices (app.ts hands them down): they never import it.',
      from: { path: domain, pathNot: tests },
      to: { path: '^server/src/representation/' },
    },
    {
      name: 'api-uses-the-representation-through-its-index',
      severity: 'error',
      comment: 'representation/index.ts is its public surface: the APIs import nothing else of it.',
      from: { path: transport, pathNot: tests },
      to: { path: '^server/src/representation/', pathNot: '^server/src/representation/index\\.ts$' },
    },
    {
      name: 'module-areas-one-way',
      severity: 'error',
      scope: 'folder',
      comment: 'Two module areas never import each other, directly or round about.',
      from: { path: '^server/src/modules/[^/]+' },
      to: { path: '^server/src/modules/[^/]+', circular: true },
    },
    {
      name: 'module-tests-run-without-the-app',
      severity: 'error',
      comment:
        'A module is tested alone: its tests run its services on a database (server/test/support/bed/modules.ts), without Fastify, the APIs, the representation or the composition root.',
      from: { path: '^server/src/modules/.+\\.test\\.ts$' },
      to: { path: ['^server/src/(app|cli)\\.ts$', '^server/src/(api|representation)/', '^server/test/support/sandbox\\.ts$', fastify] },
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
    exclude: { path: ['^portal/', '^contract/openapi/', '^server/src/platform/db/migrations/', '^server/dist/'] },
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
