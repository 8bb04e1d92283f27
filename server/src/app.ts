// Builds the Fastify application: plugins, API routes, and the portal's and the console's files on the same origin.
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import { limits } from '@shopapi/contract';
import type { Config } from './config.ts';
import type { Db } from './platform/db/index.ts';
import { jsonApiPlugin } from './api/shared/jsonapi.ts';
import { fairSharePlugin } from './api/shared/fair-share.ts';
import { authPlugin } from './api/shared/bearer-auth.ts';
import { rateLimitPlugin } from './api/shared/rate-limit.ts';
import { validatorCompiler } from './api/shared/validation.ts';
import { inputGuardPlugin } from './api/shared/input-guard.ts';
import { formBodyPlugin } from './api/shared/form-body.ts';
import { portalPlugin } from './api/shared/portal.ts';
import { lazySerializerFactory } from './api/shared/serialization.ts';
import { consolePlugin } from './api/shared/console.ts';
import { metricsPlugin } from './api/shared/metrics.ts';
import { requestLogPlugin } from './api/shared/request-log.ts';
import { securityHeadersPlugin } from './api/shared/security-headers.ts';
import { serializeError } from './platform/log-serializers.ts';
import { buildProgressReader } from './platform/build-progress.ts';
import { hostPlugin } from './api/shared/host.ts';
import { limitConnectionsPerAddress } from './api/shared/connection-limits.ts';
import { unreadBodiesPlugin } from './api/shared/unread-bodies.ts';
import { baseUrl } from './api/shared/query.ts';
import type { AppContext } from './api/shared/context.ts';
import { uploadPace } from './api/shared/upload-pace.ts';
import { TokenCache } from './modules/clients/token-cache.ts';
import type { ModuleServices } from './modules/services.ts';
import { orderPlacing, placedRelations } from './modules/orders/repository.ts';
import { newOrderShortfall } from './modules/shipments/repository.ts';
import { eventPayloads, installStoredJson, placementJson } from './representation/index.ts';
import { authApiPlugin } from './api/auth/plugin.ts';
import { v3Plugin } from './api/v3/plugin.ts';
import { sandboxPlugin } from './api/sandbox/plugin.ts';
import { v2Plugin } from './api/v2/plugin.ts';
import { startWarehouseWorker } from './warehouse/worker.ts';

export const portalBuildDir = resolve(import.meta.dirname, '..', '..', 'portal', 'build');
export const consoleBuildDir = resolve(import.meta.dirname, '..', '..', 'console', 'dist');
/** Where `npm start` writes the progress of those two builds while it runs them beside the server (scripts/builds.mjs). */
export const buildProgressFile = resolve(import.meta.dirname, '..', '..', 'tmp', 'build-progress.json');

/** The sandbox's own address, for links when neither PUBLIC_URL nor the request names one. */
const listeningBaseOf = (config: Config) => `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;

/**
 * The modules' per-app services: what they need from the outside, built once and handed down (never a global, so two
 * apps in one process keep their own). Webhook events carry the v3 representation, with links to the public address.
 * The CLI composes before it writes (the demo client's stock) and hands the same services to the app it serves.
 */
export function composeServices(config: Config): ModuleServices {
  return {
    tokenCache: new TokenCache(),
    eventPayloads: eventPayloads(config.publicUrl ?? listeningBaseOf(config)),
    // The statement that places an order also writes the order's and its items' stored JSON, and finds what free stock
    // does not cover of its goods (the scenario warning of a create).
    orderPlacing: orderPlacing({ shortfall: newOrderShortfall(placedRelations), hook: placementJson(placedRelations) }),
  };
}

export async function buildApp(opts: {
  db: Db;
  config: Config;
  /** The modules' services; composed here unless the caller composed them first (the CLI, the test sandbox). */
  services?: ModuleServices;
  logger?: boolean | object;
  portalDir?: string;
  consoleDir?: string;
  /** The warehouse moves on real time too (the pacer; `npm start`). Off by default: tests move it by their clock. */
  paceWarehouse?: boolean;
  buildProgressFile?: string;
}): Promise<FastifyInstance> {
  const { db, config } = opts;
  const services = opts.services ?? composeServices(config);
  const app = Fastify({
    // serializers.err keeps bound query parameters (customers' data) out of the log and bounds each line.
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization'],
            serializers: { err: serializeError },
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          },
    bodyLimit: limits.requestBodyMaxBytes,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 200 },
    // Always the server's own id: a client-chosen X-Request-Id must not name (or collide with) another request's log entry.
    requestIdHeader: false,
    genReqId: () => randomUUID(),
    // Off unless configured: X-Forwarded-For/-Host/-Proto from an untrusted client would choose its own address and links.
    trustProxy: config.trustProxy,
    // A client must send its whole request within requestTimeout, and a socket silent that long is closed:
    // slow clients (slowloris) cannot hold connections. Node checks these deadlines every connectionsCheckingInterval
    // (30 s by default), which would let a slow client stay up to twice the timeout: check every second instead.
    connectionTimeout: config.requestTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: { connectionsCheckingInterval: 1000 },
    ajv: { customOptions: { allErrors: true } },
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  });
  // Connections beyond the limit are closed on accept, before they cost a parser or a request.
  app.server.maxConnections = config.maxConnections || Infinity; // 0: no limit, like the timeouts
  // Headers must come sooner than the whole request (slowloris sends them a byte at a time); Node wants them <= requestTimeout.
  const headerDeadlines = [config.headersTimeoutMs, config.requestTimeoutMs].filter((ms) => ms > 0);
  app.server.headersTimeout = headerDeadlines.length ? Math.min(...headerDeadlines) : 0; // 0: none
  limitConnectionsPerAddress(app.server, config.maxConnectionsPerAddress);
  app.setValidatorCompiler(validatorCompiler);

  // First, so its onResponse hook times every request, also those refused by the plugins after it.
  await app.register(metricsPlugin, { db });
  await app.register(requestLogPlugin, {
    db,
    maxPerClient: config.requestLogMaxPerClient,
    maxAgeSeconds: config.requestLogMaxAgeHours * 3600,
    bodyMaxBytes: config.requestLogBodyMaxBytes,
  });
  await app.register(securityHeadersPlugin);
  // Answers in br or gzip when the client accepts them: the portal's scripts shrink to a fifth. Request bodies are read as
  // sent (no inflating of Content-Encoding), as before.
  await app.register(compress, { encodings: ['br', 'gzip'], globalDecompression: false });
  await app.register(hostPlugin);
  // Refusals sent before the body was read keep the connection usable and readable (multipart limits, oversized bodies).
  await app.register(unreadBodiesPlugin);
  await app.register(formBodyPlugin);
  await app.register(multipart, { limits: { fileSize: limits.attachmentMaxBytes, files: 1, fields: 5, parts: 6 } });
  await app.register(authPlugin, { db, tokenCache: services.tokenCache });
  await app.register(rateLimitPlugin, { db, limitPerHour: config.rateLimitPerHour });
  await app.register(fairSharePlugin, { concurrency: config.fairShareConcurrency });
  await app.register(jsonApiPlugin);
  await app.register(inputGuardPlugin);

  const listeningBase = listeningBaseOf(config);
  // The representation's stored JSON (its functions and triggers on the modules' order tables), installed by it before
  // any route answers or the warehouse writes: the order pages of v3 read it, and every write keeps it.
  await installStoredJson(db);
  // This process's share of the warehouse: clock advances, the pacer when asked, and advances other processes left.
  // Calls under way go before its next slice. It stops with the app (its slice under way ends, its leases go back)
  // before the database closes.
  let callsInFlight = 0;
  app.addHook('onRequest', async (_request, reply) => {
    callsInFlight++;
    reply.raw.once('close', () => callsInFlight--);
  });
  const warehouse = startWarehouseWorker(db, services, {
    stepSeconds: config.sandboxStepSeconds,
    pace: opts.paceWarehouse ?? false,
    callsInFlight: () => callsInFlight,
    onError: (error) => app.log.error({ err: error }, 'warehouse step failed'),
  });
  app.addHook('onClose', () => warehouse.stop());
  const context: AppContext = {
    db,
    config,
    warehouse,
    services,
    uploadPace: uploadPace(config.uploadBytesPerSecond),
    baseOf: (request) => baseUrl(request, config.publicUrl, listeningBase),
  };
  // Each API is an encapsulated plugin with its own error format and parsers; what is left for the root (jsonApiPlugin)
  // is the fallback for requests none of them owns.
  await app.register(authApiPlugin, context);
  await app.register(v3Plugin, context);
  await app.register(sandboxPlugin, context);
  await app.register(v2Plugin, context);

  const buildProgress = buildProgressReader(opts.buildProgressFile ?? buildProgressFile);
  await app.register(portalPlugin, { root: opts.portalDir ?? portalBuildDir, buildProgress });
  await app.register(consolePlugin, { root: opts.consoleDir ?? consoleBuildDir, buildProgress });
  return app;
}
