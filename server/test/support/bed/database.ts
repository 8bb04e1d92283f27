// The database of a test: PGlite in memory (or in a temporary data folder), or a fresh PostgreSQL database made from the
// migrated template of the run, as the vitest project says (TEST_DB). Used by the app's sandbox and the module test bed.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../../src/platform/db/index.ts';

export const dbKind = () => (process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite');

export async function openTestDatabase(onDisk: boolean): Promise<{ database: Database; dropDatabase?: () => Promise<void>; url?: string }> {
  if (dbKind() === 'pglite' && onDisk) {
    // In a data folder, as `npm start` runs it: its file system behaves unlike the in-memory one under large writes.
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
    const database = await openDatabase({ dataDir });
    return {
      database: {
        ...database,
        close: async () => {
          await database.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      },
    };
  }
  if (dbKind() === 'pglite') return { database: await openDatabase({ inMemory: true }) };
  const adminUrl = inject('postgresUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE sandbox_template`);
  await admin.end();
  const url = adminUrl.replace(/\/[^/]+$/, `/${name}`);
  return { database: await openDatabase({ databaseUrl: url, poolSize: 5 }), url };
}
