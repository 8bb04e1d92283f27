// Command line: start the sandbox, apply migrations, manage API clients. Honours DATA_DIR and DATABASE_URL like the server.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/index.ts';
import { buildApp } from './app.ts';
import { createClient, listClients, UsernameTakenError } from './domain/clients/service.ts';
import { startDispatcher } from './domain/webhooks/dispatcher.ts';
import { startPacer } from './warehouse/simulator.ts';

const usage = `Usage:
  npm start                                   start the sandbox (PORT, HOST, DATA_DIR, DATABASE_URL)
  npm run cli -- migrate                      apply database migrations and exit
  npm run cli -- client create --username U --password P
  npm run cli -- client list`;

async function open() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  return { config, database };
}

async function start() {
  const started = Date.now();
  const { config, database } = await open();
  const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  if ((await listClients(database.db)).length === 0) {
    const password = randomBytes(9).toString('base64url');
    try {
      const demo = await createClient(database.db, { username: 'demo', password });
      console.log(`\nCreated the demo API client (id ${demo.id}). Keep these credentials:\n  username: demo\n  password: ${password}\n`);
    } catch (error) {
      // Several processes starting together on an empty database: one of them made the demo client, the others go on.
      if (!(error instanceof UsernameTakenError)) throw error;
      console.log('Another process created the demo API client; its credentials are in that process\'s output.');
    }
  }
  const app = await buildApp({ db: database.db, config });
  const dispatcher = startDispatcher(database.db, {
    allowPrivateTargets: config.webhookAllowPrivateTargets,
    intervalMs: 1000,
    onAttempt: app.metrics.recordDeliveryAttempt,
    onError: (error) => app.log.error({ err: error }, 'webhook dispatch round failed'),
  });
  const pacer = startPacer(database.db, {
    stepSeconds: config.sandboxStepSeconds,
    onError: (error) => app.log.error({ err: error }, 'warehouse step failed'),
  });
  app.addHook('onClose', () => Promise.all([dispatcher.stop(), pacer.stop()]).then(() => undefined));
  // app.close() stops accepting connections, closes idle keep-alive ones, waits for requests in flight, then runs the
  // onClose hook above: the dispatcher finishes the batch it holds and the pacer its step. The database closes last.
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down: finishing in-flight requests and deliveries');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  console.log(`Sandbox ready in ${((Date.now() - started) / 1000).toFixed(1)} s on ${where}\n  portal: ${url}/\n  API:    ${url}/v3/orders (token: POST ${url}/token)`);
}

async function main(argv: string[]) {
  const [command, sub, ...rest] = argv;
  if (command === 'start') return start();
  if (command === 'migrate') {
    const { database } = await open();
    await database.close();
    console.log('Migrations applied.');
    return;
  }
  if (command === 'client' && sub === 'create') {
    const { values } = parseArgs({ args: rest, options: { username: { type: 'string' }, password: { type: 'string' } } });
    if (!values.username || !values.password) throw new UsageError('client create needs --username and --password.');
    const { database } = await open();
    try {
      const client = await createClient(database.db, { username: values.username, password: values.password });
      console.log(`Created client ${client.id} (${client.username}).`);
      console.log(client.id);
    } finally {
      await database.close();
    }
    return;
  }
  if (command === 'client' && sub === 'list') {
    const { database } = await open();
    try {
      const rows = await listClients(database.db);
      for (const row of rows) console.log(`${row.id}\t${row.username}\t${row.createdAt.toISOString()}`);
      if (!rows.length) console.log('No clients yet: `npm start` creates a demo client, or use `client create`.');
    } finally {
      await database.close();
    }
    return;
  }
  throw new UsageError(command ? `Unknown command: ${argv.join(' ')}` : 'No command given.');
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`);
  else if (error instanceof UsernameTakenError || (error instanceof Error && /username|password/.test(error.message))) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
