// Prometheus metrics at GET /metrics: requests per route and status class, the webhook queue, delivery outcomes.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { and, count, eq, isNull, lte, sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { schema, type Db } from '../../platform/db/index.ts';

const { webhooks, webhookDeliveries } = schema;

export interface Metrics {
  /** Called by the webhook dispatcher after each attempt. */
  recordDeliveryAttempt(delivered: boolean): void;
  /** Called by the webhook dispatcher for each claim statement it runs. */
  recordDeliveryClaim(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

export const metricsPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    // A registry per app rather than prom-client's global one: tests build many apps in one process.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const labelNames = ['method', 'route', 'status_class'] as const;
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route pattern and status class.',
      labelNames,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to answer, by route pattern and status class.',
      labelNames,
      registers: [registry],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    app.addHook('onResponse', async (request, reply) => {
      // The route pattern (/v3/orders/:orderId), never the raw URL: one series per route, not one per id.
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_class: `${Math.floor(reply.statusCode / 100)}xx`,
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
    });

    // Read from the shared database when scraped, so every process reports the same queue (aggregate with max, not sum).
    new Gauge({
      name: 'webhook_deliveries_open',
      help: 'Deliveries of active webhooks neither delivered nor given up; state="due" is sendable now.',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        const [row] = await opts.db
          .select({
            pending: count(),
            due: sql<number>`count(*) filter (where ${lte(webhookDeliveries.nextAttemptAt, new Date())})`.mapWith(Number),
          })
          .from(webhookDeliveries)
          .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
          .where(and(isNull(webhookDeliveries.deliveredAt), isNull(webhookDeliveries.failedAt), eq(webhooks.isActive, true)));
        this.set({ state: 'pending' }, row.pending);
        this.set({ state: 'due' }, row.due);
      },
    });
    const attempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Delivery attempts by this process; outcome="failed" is any answer but 200, or none.',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    const claims = new Counter({
      name: 'webhook_delivery_claims_total',
      help: "Claim statements run by this process's dispatcher: its own load on the database, beside the calls'.",
      registers: [registry],
    });
    app.decorate('metrics', {
      recordDeliveryAttempt: (delivered: boolean) => attempts.inc({ outcome: delivered ? 'delivered' : 'failed' }),
      recordDeliveryClaim: () => claims.inc(),
    });

    // Operational, not part of the Shop API contract: restrict it at the reverse proxy (docs/OPERATIONS.md).
    app.get('/metrics', async (_request, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'shopapi-metrics', fastify: '5.x' },
);
