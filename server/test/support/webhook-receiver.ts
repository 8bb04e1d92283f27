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
}

export interface Receiver {
  url(path?: string): string;
  /** Every request, in arrival order (also those answered with an error). */
  requests: Received[];
  /** Requests answered 200, deduplicated by path and webhook-id, in first-arrival order. */
  delivered(): Received[];
  /** How the next requests are answered: a status code, or 'hang' (no answer until closed). */
  answer: number | 'hang';
  /** Secrets by path, for verification. */
  secrets: Map<string, string>;
  /** Resolves at the next request that arrives (at `path`, when given: others' retries may arrive in between). */
  nextRequest(path?: string): Promise<Received>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  const ok: Received[] = [];
  const hanging: ServerResponse[] = [];
  let waiters: { path?: string; resolve(r: Received): void }[] = [];
  const receiver: Receiver = {
    url: (path = '/hook') => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    requests,
    delivered: () => ok.filter((r, i) => ok.findIndex((o) => o.path === r.path && o.id === r.id) === i),
    answer: 200,
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
      };
      requests.push(received);
      const answer = receiver.answer;
      if (answer === 'hang') hanging.push(response);
      else {
        if (answer === 200) ok.push(received);
        response.writeHead(answer).end();
      }
      const due = waiters.filter((w) => !w.path || w.path === path);
      waiters = waiters.filter((w) => !due.includes(w));
      for (const w of due) w.resolve(received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return receiver;
}
