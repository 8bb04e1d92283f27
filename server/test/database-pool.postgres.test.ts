// The server's pool of PostgreSQL connections: DATABASE_POOL_SIZE bounds what one process holds, however many calls come
// at once, and a pool of none is refused at start with a message, not a stack. (PostgreSQL only: the embedded database
// has one connection.)
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultPoolSize } from '../src/platform/db/index.ts';
import { demoCredentials, serverEnv, startServerProcess, tokenFor, type ServerProcess } from './support/server-process.ts';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A server process on a fresh database, with the given environment. */
async function startServer(extra: NodeJS.ProcessEnv): Promise<{ server: ServerProcess; databaseUrl: string }> {
  const env = await serverEnv(extra);
  cleanups.push(env.cleanup);
  const server = await startServerProcess(env.env);
  cleanups.push(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });
  return { server, databaseUrl: env.env.DATABASE_URL! };
}

/**
 * The server's connections to its database: the dispatcher's listener, a connection outside the pool, is not counted.
 * In a transaction the statistics are read once and kept: each count clears them first.
 */
async function serverConnections(database: pg.Client): Promise<number> {
  await database.query('select pg_stat_clear_snapshot()');
  const { rows } = await database.query(
    `select count(*)::int as connections from pg_stat_activity
     where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()
       and query not ilike 'listen %'`,
  );
  return rows[0].connections;
}

/**
 * The most connections the server opens while `calls` calls wait for the database at once: the test holds the orders'
 * stored JSON locked, so every call's page statement waits on a connection of its own until the lock goes (the fair
 * share admits ten calls at once on PostgreSQL). Every call is then answered.
 */
async function connectionsWhileCallsWait(server: ServerProcess, databaseUrl: string, calls: number, expected: number): Promise<number> {
  const token = await tokenFor(server.url, demoCredentials(server));
  const database = new pg.Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    await database.query('begin');
    await database.query('lock table order_json in access exclusive mode');
    const answers = Array.from({ length: calls }, async () => {
      const answer = await fetch(`${server.url}/v3/orders?page[size]=5`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' },
      });
      await answer.arrayBuffer();
      return answer.status;
    });
    // Bounded: until the pool has opened what it may, and a moment longer in case it would open more.
    for (let waited = 0; waited < 5000 && (await serverConnections(database)) < expected; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const connections = await serverConnections(database);
    await database.query('commit');
    expect(await Promise.all(answers)).toEqual(Array(calls).fill(200));
    return connections;
  } finally {
    await database.end();
  }
}

describe('the pool of PostgreSQL connections', () => {
  it('holds DATABASE_POOL_SIZE connections at most while 30 calls wait for the database', async () => {
    const { server, databaseUrl } = await startServer({ DATABASE_POOL_SIZE: '2' });
    expect(await connectionsWhileCallsWait(server, databaseUrl, 30, 2)).toBe(2);
  });

  it(`holds at most ${defaultPoolSize} by default`, async () => {
    const { server, databaseUrl } = await startServer({ DATABASE_POOL_SIZE: '' });
    expect(await connectionsWhileCallsWait(server, databaseUrl, 30, defaultPoolSize)).toBe(defaultPoolSize);
  });

  it('refuses to start with a pool of none, and says why in a line', async () => {
    const env = await serverEnv({ DATABASE_POOL_SIZE: '0' });
    cleanups.push(env.cleanup);
    const refusal = await startServerProcess(env.env).then(
      async (started) => {
        started.child.kill('SIGTERM');
        await started.exited;
        return 'started';
      },
      (error: Error) => error.message,
    );
    expect(refusal).toMatch(/^server exited with 1: DATABASE_POOL_SIZE must be at least 1, got "0"\n$/);
  });
});
