// Configuration from the environment, with the defaults the README documents.
import { limits } from '@shopapi/contract';
import { dispatcherDefaults } from './modules/webhooks/dispatcher.ts';
import { defaultPoolSize } from './platform/db/index.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections to PostgreSQL one process holds at most (DATABASE_POOL_SIZE), at least 1; the embedded database has one. */
  databasePoolSize: number;
  tokenLifetimeSeconds: number;
  rateLimitPerHour: number;
  logLevel: string;
  publicUrl: string | undefined;
  webhookAllowPrivateTargets: boolean;
  sandboxStepSeconds: number;
  /** How long POST /sandbox/clock/advance waits for the warehouse to catch up before it answers 202 (advancing). */
  sandboxAdvanceWaitMs: number;
  /** Longest a client may take to send a whole request (headers and body), and longest a socket may stay silent. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open for the next request. */
  keepAliveTimeoutMs: number;
  /** Open connections beyond this are closed at once: one process's share of file descriptors and memory. */
  maxConnections: number;
  /** Longest a client may take to send its request headers; never more than requestTimeoutMs. */
  headersTimeoutMs: number;
  /** Open connections one remote address may hold; beyond it, new ones are closed at once. 0: no cap. */
  maxConnectionsPerAddress: number;
  /**
   * Fastify's trustProxy: false (default) ignores X-Forwarded-For/-Host/-Proto; true trusts any sender; text is a
   * comma-separated list of the proxies' addresses or CIDRs (or loopback, linklocal, uniquelocal) to trust.
   */
  trustProxy: boolean | string;
  /** Failed POST /token attempts are counted in fixed windows of this many seconds. */
  tokenThrottleWindowSeconds: number;
  /** Failed attempts per window for one username from one address (0: no limit). */
  tokenFailuresPerUsernameAndAddress: number;
  /** Failed attempts per window from one address, whatever the username (0: no limit). */
  tokenFailuresPerAddress: number;
  /** Failed attempts per window for one username from all addresses together (0: no limit). */
  tokenFailuresPerUsername: number;
  /** Request log entries each client keeps (newest first); 0 turns the log off. */
  requestLogMaxPerClient: number;
  /** Request log entries older than this are deleted. */
  requestLogMaxAgeHours: number;
  /** Of each request and answer body, the log keeps this many bytes. */
  requestLogBodyMaxBytes: number;
  /** What one client's attachments and product images may take together, in bytes (STORAGE_QUOTA_MIB); 0: no quota. */
  storageQuotaBytes: number;
  /** The bytes of attachments and images one client may send per second (UPLOAD_MIB_PER_SECOND); 0: no pace. */
  uploadBytesPerSecond: number;
  /** Webhook deliveries one process holds at once: being sent, or claimed and waiting for a place of their client. */
  webhookConcurrency: number;
  /** Webhook deliveries of one client one process sends at once (it holds twice as many): its share, whatever its receivers do. */
  webhookConcurrencyPerClient: number;
  /**
   * Authenticated calls handled at once (FAIR_SHARE_CONCURRENCY); beyond it they wait, and a place that frees goes to
   * the waiting client that has used the least time (api/shared/fair-share.ts). 0: no limit, first come first served.
   */
  fairShareConcurrency: number;
}

/** A setting in the environment that cannot be used: the server does not start, and says which one and why, in a line. */
export class ConfigError extends Error {}

function intFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** A setting that must be 1 or more: 0 would leave nothing to work with. */
function atLeastOneFrom(name: string, fallback: number): number {
  const value = intFrom(name, fallback);
  if (value < 1) throw new ConfigError(`${name} must be at least 1, got "${process.env[name]}"`);
  return value;
}

function trustProxyFrom(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  return raw === 'true' ? true : raw;
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  return {
    port: intFrom('PORT', 8080),
    host: process.env.HOST || '127.0.0.1',
    dataDir: process.env.DATA_DIR || './.data',
    databaseUrl,
    databasePoolSize: atLeastOneFrom('DATABASE_POOL_SIZE', defaultPoolSize),
    tokenLifetimeSeconds: intFrom('TOKEN_LIFETIME_SECONDS', limits.tokenLifetimeSecondsDefault),
    rateLimitPerHour: intFrom('RATE_LIMIT_PER_HOUR', limits.rateLimitPerHour),
    logLevel: process.env.LOG_LEVEL || 'info',
    publicUrl: process.env.PUBLIC_URL || undefined,
    // Embedded sandbox: a developer receives webhooks on their own machine. Production-like (DATABASE_URL): refused unless allowed.
    webhookAllowPrivateTargets: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS
      ? process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true'
      : !databaseUrl,
    sandboxStepSeconds: intFrom('SANDBOX_STEP_SECONDS', 30),
    sandboxAdvanceWaitMs: intFrom('SANDBOX_ADVANCE_WAIT_MS', limits.clockAdvanceWaitMsDefault),
    requestTimeoutMs: intFrom('REQUEST_TIMEOUT_MS', 30_000),
    // Longer than a reverse proxy's upstream keep-alive (nginx: 60 s), so the proxy closes first and never reuses a closed socket.
    keepAliveTimeoutMs: intFrom('KEEP_ALIVE_TIMEOUT_MS', 72_000),
    maxConnections: intFrom('MAX_CONNECTIONS', 1024),
    headersTimeoutMs: intFrom('HEADERS_TIMEOUT_MS', 10_000),
    maxConnectionsPerAddress: intFrom('MAX_CONNECTIONS_PER_ADDRESS', 128),
    trustProxy: trustProxyFrom(process.env.TRUST_PROXY),
    tokenThrottleWindowSeconds: intFrom('TOKEN_THROTTLE_WINDOW_SECONDS', 900),
    tokenFailuresPerUsernameAndAddress: intFrom('TOKEN_FAILURES_PER_USERNAME_AND_ADDRESS', 10),
    tokenFailuresPerAddress: intFrom('TOKEN_FAILURES_PER_ADDRESS', 100),
    tokenFailuresPerUsername: intFrom('TOKEN_FAILURES_PER_USERNAME', 1000),
    requestLogMaxPerClient: intFrom('REQUEST_LOG_MAX_PER_CLIENT', 1000),
    requestLogMaxAgeHours: intFrom('REQUEST_LOG_MAX_AGE_HOURS', 168),
    requestLogBodyMaxBytes: intFrom('REQUEST_LOG_BODY_MAX_BYTES', 65_536),
    storageQuotaBytes: intFrom('STORAGE_QUOTA_MIB', limits.storageQuotaMibDefault) * 1024 * 1024,
    uploadBytesPerSecond: intFrom('UPLOAD_MIB_PER_SECOND', limits.uploadMibPerSecondDefault) * 1024 * 1024,
    webhookConcurrency: intFrom('WEBHOOK_CONCURRENCY', dispatcherDefaults.concurrency),
    webhookConcurrencyPerClient: intFrom('WEBHOOK_CONCURRENCY_PER_CLIENT', dispatcherDefaults.perClientConcurrency),
    // One on the embedded database: its statements and the calls' own work all run on the server's thread, so a second
    // call would only wait for the first one's transaction, and be charged that time as its own. Ten on PostgreSQL, more
    // than the pool's connections: the calls admitted wait for a connection in the order they asked, and with as many
    // places as connections every call's end would hand its place over (two turns of the event loop) while others wait,
    // work that the pool's own queue does without.
    fairShareConcurrency: intFrom('FAIR_SHARE_CONCURRENCY', databaseUrl ? 10 : 1),
    ...overrides,
  };
}
