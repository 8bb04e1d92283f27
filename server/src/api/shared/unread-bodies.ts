// Answers sent before the request body was read to its end (refusals: a body over the limit, too many multipart parts,
// a misnamed part, a missing token): the client reads the answer, and a kept connection serves the next request at once.
//
// Left to Node, such a body stays where the refusal left it. A body the handler started reading and dropped (the
// multipart parser stops at its limits or at a misnamed part) is never read further, so the next request on that
// keep-alive connection waits behind it and gets 408 after REQUEST_TIMEOUT_MS (behind a proxy, another client's request
// can be that next one). And when the answer says `Connection: close` (Fastify's, for a body over a route's limit),
// Node destroys the socket as soon as the answer is written while the client is still sending: the kernel resets the
// connection, and the reset can reach the client before it has read the answer (fetch: EPIPE). So:
// - a body of at most DRAIN_MAX_BYTES is read to its end and dropped; the connection stays open for the next request;
// - a larger one, or one of unknown length (chunked), is answered with `Connection: close`, and after the answer the
//   server half-closes (FIN) and drops what still comes until the client closes or LINGER_MS have passed (a lingering
//   close, as nginx and Apache do), then closes.
// Written by hand: neither Node nor Fastify has a lingering close, and the choice needs the socket under the answer.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * The longest unread body that is read and dropped to keep the connection: above every body a route accepts (product
 * images, 10 MiB) and what the nginx example of docs/OPERATIONS.md lets through (11 MiB), so refusals never cost a
 * proxy its upstream connection. Reading is the cheapest thing the server does; REQUEST_TIMEOUT_MS bounds the time.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** How long, after the answer to a larger body, the server keeps reading and dropping before it closes (nginx: 5 s). */
export const LINGER_MS = 5000;

/** A request whose body has not all arrived yet: Node's own requests only (injected ones have no `complete`). */
function bodyPending(raw: IncomingMessage): boolean {
  const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length']) > 0;
  return hasBody && raw.complete === false;
}

/** Instead of Node's destroySoon (FIN, then destroy once written): FIN, then destroy when the client closes or after LINGER_MS. */
function lingerWhenClosing(socket: Socket) {
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  };
}

export const unreadBodiesPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply, payload) => {
      const raw = request.raw;
      if (!bodyPending(raw)) return payload;
      // A chunked body (no Content-Length) has no known end: it is not drained. Within the bound, Fastify's Connection:
      // close (a body parser gave up) goes, since the rest is drained.
      const drained = Number(raw.headers['content-length'] ?? Number.NaN) <= DRAIN_MAX_BYTES;
      if (!drained) reply.header('connection', 'close');
      else if (reply.hasHeader('connection')) reply.removeHeader('connection');
      // Node closes a connection after an answer with Connection: close, and after any answer the client asked to close.
      lingerWhenClosing(raw.socket);
      // Whoever was reading (the multipart parser, a body parser that gave up) lets go; the rest flows and is dropped.
      raw.unpipe();
      raw.resume();
      return payload;
    });
  },
  { name: 'shopapi-unread-bodies', fastify: '5.x' },
);
