// Clients' calls take turns: at most FAIR_SHARE_CONCURRENCY authenticated calls are handled at once, and when every
// place is taken the next free one goes to the waiting client that has used the least time (platform/fair-share.ts),
// not to whoever asked first.
//
// Why: the embedded database runs every statement of every client on the server's one thread, one at a time, and a
// transaction holds it from BEGIN to COMMIT. First come, first served, a client with several calls under way (shipping
// orders that fan out to twenty webhooks, in two loops) had most of the queue, and another client's single read waited
// behind all of it (bench/RESULTS.md, section 8). Turns by call still gave that client eight times the time when its
// calls were eight times as long; turns by time give each busy client its share of the time.
//
// The place is handed over after the requests that arrived meanwhile are read (platform/fair-share.ts,
// afterPendingInput): on the embedded database a call keeps the thread until it ends, so the others are only read then,
// and handed over at once the place went to whichever was read first.
//
// A call takes its place once its body has been read and validated (preHandler), so a slow upload or a slow client
// holds none, and gives it back when its answer is ready (onSend), or when the client goes away. Multipart uploads take
// none: their handler reads the body itself, so a slow sender would hold a place while it sends. A handler that waits
// for something other than its own work (the clock advance's wait for ready, a product image's check) steps out first
// (`stepOutOfFairShare`). An upload's storing, a statement at a time outside any transaction (platform/file-parts.ts),
// takes the client's turns for each (`turnsOf`): its time counts in the client's share like a call's, where outside
// the share it ran between every two of another client's calls.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterPendingInput, FairShare, type Ticket, type Turn, withoutTurns } from '../../platform/fair-share.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The client's fair share, and the call's place among its places once it asked for one (multipart uploads take none). */
    fairShare: { share: FairShare; ticket?: Ticket } | null;
  }
}

/** Gives the call's place back now (again later does nothing): for a handler about to wait for something else than its own work. */
export function stepOutOfFairShare(request: FastifyRequest): void {
  if (request.fairShare?.ticket) request.fairShare.share.give(request.fairShare.ticket);
}

/**
 * What reading and checking an upload's body costs the server per MiB, outside any place (milliseconds of its threads:
 * the socket's chunks, the multipart parser, the file's check in a worker, and the collections all that memory starts).
 * Measured on the bench's 4.5 MiB PDF: the server process's CPU was 54-65 ms an upload, of which about 12 ms are its
 * statements, in places (bench/RESULTS.md, findings).
 */
export const UPLOAD_CHARGE_MS_PER_MIB = 10;

/**
 * The client's turns, for work a call does without a place (an upload's statements after it stepped out, or a
 * multipart upload's): each piece waits for a place and is counted in the client's share. `uploadBytes`: the body the
 * call read and checked without a place, charged to the client with its first turn (UPLOAD_CHARGE_MS_PER_MIB), so an
 * upload counts at what it costs and not only at its statements' time.
 */
export function turnsOf(request: FastifyRequest, uploadBytes = 0): Turn {
  const { fairShare, client } = request;
  // A call that holds its place does its work in it: a turn on top would wait for a place it holds itself.
  if (!fairShare || !client || (fairShare.ticket && fairShare.ticket.state !== 'done')) return withoutTurns;
  return fairShare.share.turnOf(client.id, (uploadBytes / 2 ** 20) * UPLOAD_CHARGE_MS_PER_MIB);
}

export const fairSharePlugin = fp(
  async (app: FastifyInstance, opts: { concurrency: number }) => {
    app.decorateRequest('fairShare', null);
    if (!opts.concurrency) return;
    const share = new FairShare(opts.concurrency, undefined, afterPendingInput);
    app.addHook('preHandler', async (request) => {
      if (!request.client) return;
      if (request.isMultipart()) {
        request.fairShare = { share };
        return;
      }
      const ticket = share.take(request.client.id);
      request.fairShare = { share, ticket };
      await ticket.granted;
    });
    const giveBack = async (request: FastifyRequest) => stepOutOfFairShare(request);
    app.addHook('onSend', giveBack);
    app.addHook('onResponse', giveBack);
    // A client gone while its call waited leaves the queue; one gone while its call ran gives the place back.
    app.addHook('onRequestAbort', giveBack);
  },
  { name: 'shopapi-fair-share', fastify: '5.x', dependencies: ['shopapi-bearer-auth', '@fastify/multipart'] },
);
