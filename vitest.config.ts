// Every server test (server/test for the APIs end to end, server/src/**/*.test.ts beside the code they test) runs twice: once on embedded PGlite, once on a real PostgreSQL started for the run.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // *.postgres.test.ts: several server processes on one database, which an embedded database cannot be.
      {
        extends: true,
        test: {
          name: 'pglite',
          include: [
            'server/test/**/*.test.ts',
            'server/src/**/*.test.ts',
            'contract/test/**/*.test.ts',
            'client/test/**/*.test.ts',
            'mcp/test/**/*.test.ts',
          ],
          exclude: ['server/**/*.postgres.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['server/test/**/*.test.ts', 'server/src/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['server/test/support/global-postgres.ts'],
        },
      },
    ],
  },
});
