// Configuration from the environment, with the defaults the README documents.
import { limits } from '@shopapi/contract';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  tokenLifetimeSeconds: number;
  rateLimitPerHour: number;
  logLevel: string;
  publicUrl: string | undefined;
  webhookAllowPrivateTargets: boolean;
  sandboxStepSeconds: number;
  /** Longest a client may take to send a whole request (headers and body), and longest a socket may stay silent. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open for the next request. */
  keepAliveTimeoutMs: number;
  /** Open connections beyond this are closed at once: one process's share of file descriptors and memory. */
  maxConnections: number;
}

function intFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  return {
    port: intFrom('PORT', 8080),
    host: process.env.HOST || '127.0.0.1',
    dataDir: process.env.DATA_DIR || './.data',
    databaseUrl,
    tokenLifetimeSeconds: intFrom('TOKEN_LIFETIME_SECONDS', limits.tokenLifetimeSecondsDefault),
    rateLimitPerHour: intFrom('RATE_LIMIT_PER_HOUR', limits.rateLimitPerHour),
    logLevel: process.env.LOG_LEVEL || 'info',
    publicUrl: process.env.PUBLIC_URL || undefined,
    // Embedded sandbox: a developer receives webhooks on their own machine. Production-like (DATABASE_URL): refused unless allowed.
    webhookAllowPrivateTargets: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ? process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true' : !databaseUrl,
    sandboxStepSeconds: intFrom('SANDBOX_STEP_SECONDS', 30),
    requestTimeoutMs: intFrom('REQUEST_TIMEOUT_MS', 30_000),
    // Longer than a reverse proxy's upstream keep-alive (nginx: 60 s), so the proxy closes first and never reuses a closed socket.
    keepAliveTimeoutMs: intFrom('KEEP_ALIVE_TIMEOUT_MS', 72_000),
    maxConnections: intFrom('MAX_CONNECTIONS', 1024),
    ...overrides,
  };
}
