// Command line: start the sandbox, apply migrations, manage API clients. Honours DATA_DIR and DATABASE_URL like the server.
import { parseArgs } from 'node:util';
import { readFileSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { limits } from '@shopapi/contract';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type Database, type Db } from './platform/db/index.ts';
import { buildApp, buildProgressFile, composeServices } from './app.ts';
import { type BuildProgress, buildProgressReader } from './platform/build-progress.ts';
import { createClient, listClients, setClientPassword, UsernameTakenError } from './modules/clients/service.ts';
import { deliveriesChannel, startDispatcher } from './modules/webhooks/dispatcher.ts';
import { DataFolderBusyError, lockDataFolder, runOnDataFolder, type DataFolderLock } from './platform/data-folder-lock.ts';
import { ControlCommandError, type ControlRequest } from './platform/control-socket.ts';
import { serializeError } from './platform/log-serializers.ts';
import { createDemoProducts } from './modules/demo/service.ts';
import type { ModuleServices } from './modules/services.ts';
import { settingsFromDocument } from './api/sandbox/settings.ts';
import { locating } from './api/shared/problem-pointers.ts';
import { DomainError } from './platform/errors.ts';
import { dropAbandonedStages } from './platform/file-parts.ts';

const usage = `Usage:
  npm start                                   start the sandbox (PORT, HOST, DATA_DIR, DATABASE_URL)
  npm run cli -- migrate                      apply database migrations and exit
  npm run cli -- client create --username U --password P [--settings FILE]
                                              FILE: JSON settings as PUT /sandbox/settings takes them
  npm run cli -- client list
  npm run cli -- client password --username U  give the client a new random password (revokes its tokens)

While the sandbox runs on its embedded database, the client commands go to it through DATA_DIR/sandbox.sock.`;

const lostCredentialsHint =
  'Lost the API credentials? Make a client with `npm run cli -- client create --username NAME --password PASSWORD`, ' +
  'or give demo a new password with `npm run cli -- client password --username demo`.';

const newPassword = () => randomBytes(9).toString('base64url');

/**
 * The commands that work on the database. Each runs in the process that has the database open: this one, or the
 * running sandbox, which receives them through its control socket; so they take and return plain JSON.
 */
const commands = {
  migrate: async () => ({ pid: process.pid }),
  'client create': async (db: Db, _services: ModuleServices, args: Record<string, string>) => {
    try {
      const settings = args.settings === undefined ? undefined : settingsFromDocument(JSON.parse(args.settings));
      const creation = createClient(db, { username: args.username, password: args.password, settings: settings?.input });
      const client = settings ? await locating(settings.locate, creation) : await creation;
      return { id: client.id, username: client.username };
    } catch (error) {
      if (error instanceof DomainError)
        throw new SettingsFileError(
          `The settings in ${args.settingsFile} are not valid, so no client was created:\n${problemLines(error)}`,
        );
      throw error;
    }
  },
  'client list': async (db: Db) =>
    (await listClients(db)).map((row) => ({ id: row.id, username: row.username, createdAt: row.createdAt.toISOString() })),
  'client password': async (db: Db, services: ModuleServices, args: Record<string, string>) => {
    const password = newPassword();
    if (!(await setClientPassword(db, services.tokenCache, { username: args.username, password })))
      throw new Error(`No client has the username "${args.username}".`);
    return { username: args.username, password };
  },
};
type CommandName = keyof typeof commands;
type CommandResult<N extends CommandName> = Awaited<ReturnType<(typeof commands)[N]>>;

function runCommandOn(db: Db, services: ModuleServices, request: ControlRequest): Promise<unknown> {
  if (!Object.hasOwn(commands, request.command)) return Promise.reject(new Error(`Unknown command: ${request.command}`));
  return commands[request.command as CommandName](db, services, request.args);
}

/** Runs a command on the configured database: PostgreSQL directly (several processes share it), the data folder through its owner. */
async function runCommand<N extends CommandName>(command: N, args: Record<string, string> = {}): Promise<CommandResult<N>> {
  const config = loadConfig();
  const services = composeServices(config);
  const here = async (): Promise<CommandResult<N>> => {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
    try {
      return (await runCommandOn(database.db, services, { command, args })) as CommandResult<N>;
    } finally {
      await database.close();
    }
  };
  if (config.databaseUrl) return here();
  return runOnDataFolder(config.dataDir, { command, args }, here);
}

async function start() {
  const started = Date.now();
  const config = loadConfig();
  // The embedded database belongs to this process until it exits: a second sandbox or a CLI command on the same folder
  // would write behind its back (platform/data-folder-lock.ts). CLI commands reach it through the control socket.
  const lock = config.databaseUrl ? undefined : await lockDataFolder(config.dataDir, 'server');
  let database: Database | undefined;
  try {
    database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.databasePoolSize });
    await serve(config, database, lock, started);
  } catch (error) {
    await database?.close();
    await lock?.release();
    throw error;
  }
}

async function serve(config: Config, database: Database, lock: DataFolderLock | undefined, started: number) {
  // One set of services for everything this process serves: a password changed through the control socket is
  // forgotten by the cache of the app that answers the requests.
  const services = composeServices(config);
  const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  lock?.serve((request) => runCommandOn(database.db, services, request));
  let demoCredentials: string | undefined;
  if ((await listClients(database.db)).length === 0) {
    const password = newPassword();
    try {
      const demo = await createClient(database.db, { username: 'demo', password });
      // Products with stock, so the reference's examples (Create an order) work as sent on a fresh sandbox.
      await createDemoProducts(database.db, services.eventPayloads, demo);
      demoCredentials = `Created the demo API client (id ${demo.id}). Keep these credentials:\n  username: demo\n  password: ${password}`;
      console.log(`\n${demoCredentials}\n`);
    } catch (error) {
      // Several processes starting together on an empty database: one of them made the demo client, the others go on.
      if (!(error instanceof UsernameTakenError)) throw error;
      console.log("Another process created the demo API client; its credentials are in that process's output.");
    }
  }
  // Uploads a stopped process left half-written (platform/file-parts.ts): all of them on the embedded database, which
  // this process alone serves; those over an hour old on PostgreSQL, where other processes' uploads may be under way.
  const dropped = await dropAbandonedStages(database.db, database.kind === 'postgres' ? 3_600_000 : 0);
  if (dropped) console.log(`Deleted the parts of ${dropped} upload${dropped === 1 ? '' : 's'} a stopped process left unfinished.`);
  const app = await buildApp({ db: database.db, config, services, paceWarehouse: true });
  database.reportLostConnections((error) =>
    app.log.warn({ err: error }, 'PostgreSQL ended an idle connection of the pool; the pool opens another when needed'),
  );
  const dispatcher = startDispatcher(database.db, {
    allowPrivateTargets: config.webhookAllowPrivateTargets,
    concurrency: config.webhookConcurrency,
    perClientConcurrency: config.webhookConcurrencyPerClient,
    intervalMs: 1000,
    onAttempt: app.metrics.recordDeliveryAttempt,
    onClaim: app.metrics.recordDeliveryClaim,
    onError: (error) => app.log.error({ err: error }, 'webhook dispatch failed'),
  });
  // Woken when deliveries commit (from any process on PostgreSQL); the interval stays as the fallback.
  const stopListening = await database.listen(deliveriesChannel, dispatcher.notified, (error) =>
    app.log.warn({ err: error }, 'webhook wake-ups lost; deliveries go out on the 1 s interval'),
  );
  // The embedded database's vacuum and checkpoints (PostgreSQL runs its own).
  const upkeep = database.startUpkeep((error) => app.log.warn({ err: error }, 'database upkeep failed; it runs again in a few seconds'));
  app.addHook('onClose', () => Promise.all([stopListening(), dispatcher.stop(), upkeep.stop()]).then(() => undefined));
  // CLI commands that are running finish first (new ones wait for the folder and run on their own once this process
  // has gone). app.close() stops accepting connections, closes idle keep-alive ones, waits for requests in flight, then
  // runs the onClose hooks: the dispatcher sends what it holds (within two attempt deadlines) and the warehouse finishes
  // its slice. The database closes next, and the data folder is released last.
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down: finishing in-flight requests and deliveries');
    try {
      await lock?.stopServing();
      await app.close();
      await database.close();
      await lock?.release();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await lock?.stopServing();
    await app.close();
    throw error;
  }
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const credentials = demoCredentials ?? lostCredentialsHint;
  const buildProgress = buildProgressReader(buildProgressFile);
  const building = buildProgress()?.state === 'building';
  // One write, so the credentials made in this start are the last lines of the start-up output, where they stay in view.
  console.log(
    [
      `Sandbox ready in ${seconds(Date.now() - started)} on ${where}`,
      `  API:     ${url}/v3/orders (token: POST ${url}/token)`,
      `  portal:  ${url}/docs/${building ? ' (being built: the page shows how far)' : ''}`,
      `  console: ${url}/console/`,
      '',
      credentials,
    ].join('\n'),
  );
  // The builds `npm start` runs beside the server: a line as each step starts, and the credentials again at the end.
  if (building) followBuilds(buildProgress, `${url}/docs/`, demoCredentials);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Prints the builds' steps as they start, then how they ended; polls the progress file each second until then. */
function followBuilds(read: () => BuildProgress | undefined, portalUrl: string, demoCredentials: string | undefined) {
  const announced = new Set<string>();
  const timer = setInterval(() => {
    const progress = read();
    if (!progress) return clearInterval(timer);
    const elapsed = (at: number) => seconds(at - progress.startedAt);
    progress.steps.forEach((step, index) => {
      if (!step.startedAt || announced.has(step.name)) return;
      announced.add(step.name);
      const last = step.lastSeconds === undefined ? '' : ` (${step.lastSeconds} s the last time)`;
      console.log(`[build ${elapsed(step.startedAt)}] ${index + 1}/${progress.steps.length} ${step.title}${last}`);
    });
    if (progress.state === 'building') return;
    clearInterval(timer);
    const ended = Math.max(...progress.steps.map((step) => step.endedAt ?? step.startedAt ?? progress.startedAt));
    if (progress.state === 'failed') console.error(`[build ${elapsed(Date.now())}] ${progress.failure} The API keeps running.`);
    else console.log(`[build ${elapsed(ended)}] Done: the portal is at ${portalUrl}`);
    if (demoCredentials) console.log(`\n${demoCredentials}`);
  }, 1000);
  timer.unref();
}

async function main(argv: string[]) {
  const [command, sub, ...rest] = argv;
  if (command === 'start') return start();
  if (command === 'migrate') {
    const { pid } = await runCommand('migrate');
    console.log(
      pid === process.pid
        ? 'Migrations applied.'
        : `The running sandbox (process ${pid}) applied the migrations when it started; restart it to apply newer ones.`,
    );
    return;
  }
  if (command === 'client' && sub === 'create') {
    const { values } = parseArgs({
      args: rest,
      options: { username: { type: 'string' }, password: { type: 'string' }, settings: { type: 'string' } },
    });
    if (!values.username || !values.password) throw new UsageError('client create needs --username and --password.');
    const settings: Record<string, string> =
      values.settings === undefined ? {} : { settings: readSettingsFile(values.settings), settingsFile: values.settings };
    const client = await runCommand('client create', { username: values.username, password: values.password, ...settings });
    console.log(`Created client ${client.id} (${client.username}).`);
    return;
  }
  if (command === 'client' && sub === 'list') {
    const rows = await runCommand('client list');
    for (const row of rows) console.log(`${row.id}\t${row.username}\t${row.createdAt}`);
    if (!rows.length) console.log('No clients yet: `npm start` creates a demo client, or use `client create`.');
    return;
  }
  if (command === 'client' && sub === 'password') {
    const { values } = parseArgs({ args: rest, options: { username: { type: 'string' } } });
    if (!values.username) throw new UsageError('client password needs --username.');
    const { username, password } = await runCommand('client password', { username: values.username });
    console.log(`New password for ${username}; its earlier tokens are revoked:\n  username: ${username}\n  password: ${password}`);
    return;
  }
  throw new UsageError(command ? `Unknown command: ${argv.join(' ')}` : 'No command given.');
}

class UsageError extends Error {}

/** Each problem on a line: where in the file, and what (a schema problem starts with its place: said once). */
const problemLines = (error: DomainError) => error.items.map((i) => `  ${i.pointer ?? '/'}: ${i.detail.replace(/^\/\S* /, '')}`).join('\n');

/** A settings file that cannot be read or is not valid: the message names the file and every problem. */
class SettingsFileError extends Error {}

/** The file's JSON, compacted: the command may run in the running sandbox, which gets it through the control socket. */
function readSettingsFile(file: string): string {
  let text: string;
  try {
    if (statSync(file).size > limits.requestBodyMaxBytes) throw new Error(`larger than ${limits.requestBodyMaxBytes / 1024 / 1024} MiB`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SettingsFileError(`Cannot read the settings file ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.stringify(JSON.parse(text));
  } catch (error) {
    throw new SettingsFileError(`The settings file ${file} is not JSON: ${(error as Error).message}`);
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`);
  else if (
    error instanceof ConfigError ||
    error instanceof DataFolderBusyError ||
    error instanceof ControlCommandError ||
    error instanceof UsernameTakenError ||
    error instanceof SettingsFileError
  )
    console.error(error.message);
  else if (error instanceof Error && /username|password/.test(error.message)) console.error(error.message);
  // Through the log serializer: a failed statement's bound values (customers' data, passwords) stay out of the output.
  else console.error(serializeError(error));
  process.exit(1);
});
