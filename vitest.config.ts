// Every server test (server/test for the APIs end to end, server/src/**/*.test.ts beside the code they test) runs twice: once on embedded PGlite, once on a real PostgreSQL started for the run.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // A worker runs its test files one after another in one process, importing the server once: isolated, every file
    // re-imported it in a fresh fork, and the run spent about 400 of its 1,200 s with no test running (750 s in all
    // now). Test files share no state through modules: each builds its own app on its own database, and none mocks
    // modules, fakes timers or changes the environment.
    isolate: false,
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
          globalSetup: ['server/test/support/global-server-build.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['server/test/**/*.test.ts', 'server/src/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['server/test/support/global-postgres.ts', 'server/test/support/global-server-build.ts'],
        },
      },
    ],
  },
});
