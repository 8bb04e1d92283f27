// Slowloris: many connections, each sending its request a byte at a time. Headers must come within HEADERS_TIMEOUT_MS,
// and one address holds at most MAX_CONNECTIONS_PER_ADDRESS connections, so the others are still served meanwhile.
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestSandbox } from '../support/sandbox.ts';

async function listening(overrides: Parameters<typeof startSandbox>[0]): Promise<{ sb: TestSandbox; port: number }> {
  const sb = await startSandbox(overrides);
  await sb.app.listen({ port: 0, host: '127.0.0.1' });
  return { sb, port: (sb.app.server.address() as { port: number }).port };
}

interface Slow {
  socket: Socket;
  closed: Promise<{ data: string; at: number }>;
  isClosed(): boolean;
  stop(): void;
}

/** A connection that sends a request line and then one header byte every 200 ms, never finishing. */
function slowClient(port: number, localAddress: string): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => {
      socket.write('GET /status HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
      const drip = setInterval(() => !socket.destroyed && socket.write('a'), 200);
      resolve({
        socket,
        closed,
        isClosed: () => done,
        stop: () => {
          clearInterval(drip);
          socket.destroy();
        },
      });
      void closed.then(() => clearInterval(drip));
    });
    let data = '';
    let done = false;
    const closed = new Promise<{ data: string; at: number }>((resolveClosed) => {
      socket.on('data', (chunk) => (data += chunk));
      socket.on('close', () => {
        done = true;
        resolveClosed({ data, at: Date.now() });
      });
    });
    socket.on('error', reject); // after the connection, a no-op: a refused one ends in 'close'
  });
}

/** A normal request from the given address: its status, or 'closed' when the server drops the connection unanswered. */
function statusFrom(port: number, localAddress: string): Promise<number | 'closed'> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', localAddress, path: '/status', agent: false, timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode!));
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve('closed') : reject(error),
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.end();
  });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connections per address (MAX_CONNECTIONS_PER_ADDRESS)', () => {
  const cap = 5;
  let sb: TestSandbox;
  let port: number;
  const slow: Slow[] = [];
  beforeAll(async () => {
    // Long timeouts, so the slow clients hang for the whole test; a global cap far above the per-address one.
    ({ sb, port } = await listening({
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 60_000,
      maxConnections: 100,
      maxConnectionsPerAddress: cap,
    }));
  });
  afterEach(() => {
    for (const s of slow.splice(0)) s.stop();
  });
  afterAll(() => sb.close());

  it("closes an address's connections beyond the cap at once, and serves another address meanwhile", async () => {
    for (let i = 0; i < cap + 3; i++) slow.push(await slowClient(port, '127.0.0.1'));
    await Promise.race([Promise.all(slow.slice(cap).map((s) => s.closed)), settle(5000)]);
    await settle(500);
    // The first `cap` hang on; the ones beyond were closed unanswered.
    expect(slow.map((s) => s.isClosed())).toEqual([...Array(cap).fill(false), true, true, true]);
    for (const extra of slow.slice(cap)) expect((await extra.closed).data).toBe('');

    const started = Date.now();
    expect(await statusFrom(port, '127.0.0.2')).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await statusFrom(port, '127.0.0.1')).toBe('closed');
    expect(slow.slice(0, cap).every((s) => !s.isClosed())).toBe(true);

    // One slow client gone: its address is under the cap again.
    slow[0].stop();
    await slow[0].closed;
    await settle(200);
    expect(await statusFrom(port, '127.0.0.1')).toBe(200);
  });

  it('serves many sequential requests from one address: closed connections no longer count', async () => {
    for (let i = 0; i < cap * 3; i++) expect(await statusFrom(port, '127.0.0.1')).toBe(200);
  });
});

describe('headers timeout (HEADERS_TIMEOUT_MS)', () => {
  const headersTimeoutMs = 1000;
  const requestTimeoutMs = 20_000;
  let sb: TestSandbox;
  let port: number;
  beforeAll(async () => {
    ({ sb, port } = await listening({ requestTimeoutMs, headersTimeoutMs }));
  });
  afterAll(() => sb.close());

  it('answers 408 and closes a connection whose headers do not arrive in time, long before the request timeout', async () => {
    const started = Date.now();
    const client = await slowClient(port, '127.0.0.1');
    const { data, at } = await client.closed;
    client.stop();
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    // Node checks the deadlines every second (connectionsCheckingInterval).
    expect(at - started).toBeGreaterThanOrEqual(headersTimeoutMs);
    expect(at - started).toBeLessThan(headersTimeoutMs + 4000);
  });

  it('keeps the headers timeout within the request timeout', async () => {
    const capped = await startSandbox({ requestTimeoutMs: 1500, headersTimeoutMs: 10_000 });
    expect(capped.app.server.headersTimeout).toBe(1500);
    await capped.close();
    expect(sb.app.server.headersTimeout).toBe(headersTimeoutMs);
  });
});
