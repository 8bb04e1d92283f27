// The built portal as the sandbox serves it (`npm start`): the app in this process, on an in-memory database of its own,
// on a free port of 127.0.0.1.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { openDatabase, type Database } from '../server/src/platform/db/index.ts';

const repository = path.resolve(import.meta.dirname, '..');

export interface PortalSandbox {
  url: string;
  database: Database;
  close(): Promise<void>;
}

export async function startPortalSandbox(): Promise<PortalSandbox> {
  const database = await openDatabase({ inMemory: true });
  const app: FastifyInstance = await buildApp({
    db: database.db,
    config: loadConfig({ logLevel: 'silent' }),
    logger: false,
    portalDir: path.join(repository, 'portal', 'build'),
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
