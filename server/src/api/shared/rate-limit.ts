// Per-client hourly request limit on the operations that name a bucket (products, stockLevels).
//
// Written by hand rather than with @fastify/rate-limit: the count must live in the shared database so that every
// server process enforces one limit, and the whole store is one atomic upsert per request. The plugin's store
// interface would wrap that same statement and add a second configuration surface for the error body and headers.
import fp from 'fastify-plugin';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import { domainError } from '../../platform/errors.ts';

const { rateLimitCounters } = schema;
const HOUR_MS = 3_600_000;

/** Counts one request in the client's current window (fixed, by the hour) and returns the count so far. */
async function countRequest(db: Db, clientId: number, bucket: string, windowStart: Date): Promise<number> {
  // INSERT ... ON CONFLICT DO UPDATE SET count = count + 1 RETURNING count: atomic across processes, no lost updates.
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ clientId, bucket, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.clientId, rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
    })
    .returning({ count: rateLimitCounters.count });
  // The first request of a window clears the client's past windows, so the table holds one row per client and bucket.
  if (row.count === 1) {
    await db
      .delete(rateLimitCounters)
      .where(
        and(ownedBy(rateLimitCounters, clientId), eq(rateLimitCounters.bucket, bucket), lt(rateLimitCounters.windowStart, windowStart)),
      );
  }
  return row.count;
}

/**
 * Attaches the limit to each route whose operation names a bucket, as the route's own onRequest hook (as
 * @fastify/rate-limit does): a route's hooks run after every plugin's, so the client is known (bearer-auth) and the
 * media types negotiated, wherever this plugin is registered among them. Register it before the API plugins.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, opts: { db: Db; limitPerHour: number }) => {
    const limit = async (request: FastifyRequest, reply: FastifyReply) => {
      const bucket = request.routeOptions.config.rateLimit;
      if (!bucket || !request.client) return;
      const now = Date.now();
      const windowStart = new Date(now - (now % HOUR_MS));
      const resetSeconds = Math.ceil((windowStart.getTime() + HOUR_MS - now) / 1000);
      const count = await countRequest(opts.db, request.client.id, bucket, windowStart);
      reply.header('x-ratelimit-limit', opts.limitPerHour);
      reply.header('x-ratelimit-remaining', Math.max(0, opts.limitPerHour - count));
      reply.header('x-ratelimit-reset', resetSeconds);
      if (count > opts.limitPerHour) {
        reply.header('retry-after', resetSeconds);
        throw domainError(
          '429',
          `At most ${opts.limitPerHour} requests per hour to the ${bucket} endpoints; try again in ${resetSeconds} seconds.`,
        );
      }
    };
    app.addHook('onRoute', (routeOptions) => {
      if (!routeOptions.config?.rateLimit) return;
      const own = routeOptions.onRequest;
      routeOptions.onRequest = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), limit];
    });
  },
  { name: 'shopapi-rate-limit', fastify: '5.x', dependencies: ['shopapi-bearer-auth'] },
);
