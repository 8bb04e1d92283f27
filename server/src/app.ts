// Builds the Fastify application: plugins, API routes, and the portal's static files on the same origin.
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import compress from '@fastify/compress';
import { limits } from '@shopapi/contract';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import { jsonApiPlugin } from './http/jsonapi.ts';
import { authPlugin } from './http/auth.ts';
import { rateLimitPlugin } from './http/rate-limit.ts';
import { validatorCompiler } from './http/validation.ts';
import { inputGuardPlugin } from './http/input-guard.ts';
import { formBodyPlugin } from './http/form-body.ts';
import { portalPlugin } from './http/portal.ts';
import { metricsPlugin } from './http/metrics.ts';
import { requestLogPlugin } from './http/request-log.ts';
import { securityHeadersPlugin } from './http/security-headers.ts';
import { serializeError } from './platform/log-serializers.ts';
import { hostPlugin } from './http/host.ts';
import { limitConnectionsPerAddress } from './http/connection-limits.ts';
import { baseUrl } from './http/query.ts';
import type { AppContext } from './http/context.ts';
import { authRoutes } from './v2/auth.ts';
import { orderRoutes } from './v3/orders.ts';
import { shipmentRoutes } from './v3/shipments.ts';
import { productRoutes } from './v3/products.ts';
import { webhookRoutes } from './v3/webhooks.ts';
import { referenceCollectionRoutes } from './v3/reference-collections.ts';
import { attachmentRoutes } from './v3/attachments.ts';
import { webhookDeliveryRoutes } from './v3/webhook-deliveries.ts';
import { sandboxRoutes } from './v3/sandbox.ts';
import { sandboxSettingsRoutes } from './v3/sandbox-settings.ts';
import { sandboxRequestRoutes } from './v3/sandbox-requests.ts';
import { useEventRepresentation } from './domain/webhooks/payloads.ts';
import { v3EventRepresentation } from './v3/event-representation.ts';
import { stockRoutes } from './v3/stock.ts';
import { inboundRoutes } from './v3/inbound.ts';
import { returnRoutes } from './v3/returns.ts';
import { v2BodyPlugin } from './http/v2-body.ts';
import { v2OrderRoutes } from './v2/orders.ts';
import { v2ShipmentRoutes } from './v2/shipments.ts';
import { v2ReturnRoutes } from './v2/returns.ts';
import { v2ProductRoutes } from './v2/products.ts';
import { v2StockRoutes } from './v2/stock.ts';
import { v2PurchaseOrderRoutes } from './v2/purchase-orders.ts';

export const portalBuildDir = resolve(import.meta.dirname, '..', '..', 'portal', 'build');

export async function buildApp(opts: { db: Db; config: Config; logger?: boolean | object; portalDir?: string }): Promise<FastifyInstance> {
  const { db, config } = opts;
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
  await app.register(formBodyPlugin);
  await app.register(multipart, { limits: { fileSize: limits.attachmentMaxBytes, files: 1, fields: 5, parts: 6 } });
  await app.register(authPlugin, { db });
  await app.register(jsonApiPlugin);
  await app.register(inputGuardPlugin);
  await app.register(rateLimitPlugin, { db, limitPerHour: config.rateLimitPerHour });
  await app.register(v2BodyPlugin);

  const listeningBase = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  useEventRepresentation(v3EventRepresentation(config.publicUrl ?? listeningBase));
  const context: AppContext = { db, config, baseOf: (request) => baseUrl(request, config.publicUrl, listeningBase) };
  authRoutes(app, context);
  orderRoutes(app, context);
  shipmentRoutes(app, context);
  productRoutes(app, context);
  webhookRoutes(app, context);
  referenceCollectionRoutes(app, context);
  attachmentRoutes(app, context);
  webhookDeliveryRoutes(app, context);
  sandboxRoutes(app, context);
  sandboxSettingsRoutes(app, context);
  sandboxRequestRoutes(app, context);
  stockRoutes(app, context);
  inboundRoutes(app, context);
  returnRoutes(app, context);
  v2OrderRoutes(app, context);
  v2ShipmentRoutes(app, context);
  v2ReturnRoutes(app, context);
  v2ProductRoutes(app, context);
  v2StockRoutes(app, context);
  v2PurchaseOrderRoutes(app, context);

  await app.register(portalPlugin, { root: opts.portalDir ?? portalBuildDir });
  return app;
}
