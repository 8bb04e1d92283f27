// A real HTTP server on 127.0.0.1 that receives webhook deliveries, verifies their signatures, and answers as told.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  type: string;
  timestamp: string;
  data: any;
  headers: IncomingHttpHeaders;
  /** The body as it arrived, before parsing. */
  raw: string;
  /** Webhook.verify accepted the signature with the secret of the path's webhook. */
  verified: boolean;
  path: string;
  /** Set when the connection of this request closed (the sender ended it, or the answer was complete). */
  closed: boolean;
  /** Bytes of answer body written to the connection before it closed. */
  bodyBytesWritten: number;
}

/**
 * How a request is answered: a status code; 'hang': no answer until closed; 'drip': 200, then one byte of body every
 * 500 ms without end; 'stream': 200, then a body of 'x' without end, as fast as the connection takes it.
 */
export type Answer = number | 'hang' | 'drip' | 'stream';

export interface Receiver {
  url(path?: string): string;
  /** Every request, in arrival order (also those answered with an error). */
  requests: Received[];
  /** Requests answered 200, deduplicated by path and webhook-id, in first-arrival order. */
  delivered(): Received[];
  /** How the next requests are answered (answers by path come first). */
  answer: Answer;
  /** How the next requests at a path are answered. */
  answers: Map<string, Answer>;
  /** Requests at `path` or under it (`/a` counts `/a/x`) whose connection is open now, and the most there were at once. */
  open(path: string): number;
  mostOpen(path: string): number;
  /** Secrets by path, for verification. */
  secrets: Map<string, string>;
  /** Resolves at the next request that arrives (at or under `path`, when given: others' retries may arrive in between). */
  nextRequest(path?: string): Promise<Received>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const ok: Received[] = [];
  const hanging: ServerResponse[] = [];
  const mostOpen = new Map<string, number>();
  let waiters: { path?: string; resolve(r: Received): void }[] = [];
  const receiver: Receiver = {
    url: (path = '/hook') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    requests,
    delivered: () => ok.filter((r, i) => ok.findIndex((o) => o.path === r.path && o.id === r.id) === i),
    answer: 200,
    answers: new Map(),
    open: (path) => requests.filter((r) => !r.closed && (r.path === path || r.path.startsWith(`${path}/`))).length,
    mostOpen: (path) => mostOpen.get(path) ?? 0,
    secrets: new Map(),
    nextRequest: (path) => new Promise((resolve) => waiters.push({ path, resolve })),
    close: async () => {
      for (const response of hanging) response.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const secret = receiver.secrets.get(path);
      let verified = false;
      try {
        if (secret) verified = !!new Webhook(secret).verify(raw, request.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      const body = JSON.parse(raw);
      const received: Received = {
        id: String(request.headers['webhook-id']),
        type: body.type,
        timestamp: body.timestamp,
        data: body.data,
        headers: request.headers,
        raw,
        verified,
        path,
        closed: false,
        bodyBytesWritten: 0,
      };
      requests.push(received);
      // The path and every folder above it: a request at /a/x is open under /a too.
      const scopes = path
        .split('/')
        .slice(1)
        .map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`);
      for (const scope of scopes) mostOpen.set(scope, Math.max(mostOpen.get(scope) ?? 0, receiver.open(scope)));
      response.on('close', () => {
        received.closed = true;
      });
      const answer = receiver.answers.get(path) ?? receiver.answer;
      if (answer === 'hang') hanging.push(response);
      else if (answer === 'drip' || answer === 'stream') {
        ok.push(received);
        hanging.push(response);
        response.writeHead(200, { 'content-type': 'text/plain' });
        answerWithoutEnd(response, received, answer);
      } else {
        if (answer === 200) ok.push(received);
        response.writeHead(answer).end();
      }
      const due = waiters.filter((w) => !w.path || scopes.includes(w.path));
      waiters = waiters.filter((w) => !due.includes(w));
      for (const w of due) w.resolve(received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return receiver;
}

/** Writes a body that never ends, until the other side closes the connection. */
function answerWithoutEnd(response: ServerResponse, received: Received, how: 'drip' | 'stream') {
  const write = (chunk: Buffer) => {
    received.bodyBytesWritten += chunk.length;
    return response.write(chunk);
  };
  if (how === 'drip') {
    const timer = setInterval(() => write(Buffer.from('x')), 500);
    response.on('close', () => clearInterval(timer));
    write(Buffer.from('x'));
    return;
  }
  // A chunk per turn of the event loop, which the dispatcher under test shares.
  const chunk = Buffer.alloc(16 * 1024, 'x');
  const pour = () => {
    if (response.destroyed) return;
    if (write(chunk)) setImmediate(pour);
    else response.once('drain', pour);
  };
  pour();
}
