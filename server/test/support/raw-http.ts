// Requests over one raw TCP connection, the way a proxy's kept upstream connection carries them one after another: the
// answers as the server wrote them, and how the connection ended (the server's FIN, a reset, or still open).
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  answers: RawAnswer[];
  /** closed: the server ended the connection (FIN); reset: it was reset (ECONNRESET, EPIPE); open: neither. */
  ended: 'closed' | 'reset' | 'open';
}

/** One HTTP/1.1 request as bytes: Content-Length from the body unless the headers name one (or Transfer-Encoding). */
export function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Buffer {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  const all: Record<string, string> = { host: '127.0.0.1', ...headers };
  const named = Object.keys(all).map((name) => name.toLowerCase());
  if (body !== undefined && !named.includes('content-length') && !named.includes('transfer-encoding'))
    all['content-length'] = String(payload.length);
  const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/** The complete answers at the start of `buffer`, and the bytes after them. Every answer here has a Content-Length or no body. */
function parseAnswers(buffer: Buffer): { answers: RawAnswer[]; rest: Buffer } {
  const answers: RawAnswer[] = [];
  let rest = buffer;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) break;
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.subarray(end + 4, end + 4 + length).toString('utf8') });
    rest = rest.subarray(end + 4 + length);
  }
  return { answers, rest };
}

/**
 * Sends the requests on one connection, one after another without waiting for answers, and collects the answers until
 * `expected` of them have come (and, with `untilClosed`, the connection has ended), the connection ends, or `waitMs`
 * pass. The client side stays open for writing after the server's FIN, as a client still sending its body does.
 */
export function exchange(
  port: number,
  requests: Buffer[],
  opts: { expected: number; waitMs: number; untilClosed?: boolean },
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const answers: RawAnswer[] = [];
    let pending: Buffer = Buffer.alloc(0);
    let ended: RawExchange['ended'] = 'open';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers, ended });
    };
    const timer = setTimeout(finish, opts.waitMs);
    const maybeDone = () => {
      if (answers.length >= opts.expected && (!opts.untilClosed || ended !== 'open')) finish();
    };
    socket.on('data', (chunk) => {
      const parsed = parseAnswers(Buffer.concat([pending, chunk]));
      answers.push(...parsed.answers);
      pending = parsed.rest;
      maybeDone();
    });
    // Large bodies are queued by the socket and leave as the server reads them; the last callback comes once all
    // have left, or with the error that stopped them.
    let written = false;
    requests.forEach((request, index) => {
      socket.write(request, (error) => {
        if (!error && index === requests.length - 1) written = true;
        if (written && ended === 'closed') finish();
      });
    });
    // A server that ends the connection gracefully reads what the client still sends (a lingering close): the writes
    // finish, and then it is closed. One that closes without reading resets the connection under the writes.
    socket.on('end', () => {
      if (ended === 'open') ended = 'closed';
      if (written) finish();
    });
    socket.on('error', () => {
      ended = 'reset';
      finish();
    });
  });
}
