// Limits configured on purpose: body size, include depth, page size, slow clients and open connections.
// The hourly rate limit has its own file: server/test/rate-limit.test.ts.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '@shopapi/contract';
import { orderDocument } from '../support/fixtures.ts';
import { startSandbox, type TestClient, type TestSandbox } from '../support/sandbox.ts';

let sb: TestSandbox;
let client: TestClient;
beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
});
afterAll(() => sb.close());

describe('request limits', () => {
  it('refuses a JSON body over the limit in the documented error format', async () => {
    const answer = await sb.call('POST', '/v3/orders', {
      token: client.token,
      body: { data: { type: 'order', attributes: { note: 'x'.repeat(limits.requestBodyMaxBytes) } } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ status: '400' });
  });

  it('refuses an include path deeper than one relationship', async () => {
    const answer = await sb.call('GET', '/v3/orders?include=orderItems.product', { token: client.token });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ status: '400' });
  });

  it(`caps a page at ${limits.pageSizeMax}`, async () => {
    for (let batch = 0; batch <= limits.pageSizeMax; batch += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          expect((await sb.call('POST', '/v3/orders', { token: client.token, body: orderDocument(client) })).status).toBe(201);
        }),
      );
    }
    const answer = await sb.call('GET', '/v3/orders?page[size]=500', { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(limits.pageSizeMax);
  });
});

describe('connection limits (a real listening server)', () => {
  let server: TestSandbox;
  let port: number;
  const requestTimeoutMs = 1500;
  beforeAll(async () => {
    server = await startSandbox({ requestTimeoutMs, maxConnections: 3 });
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    port = (server.app.server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    });
  const closed = (socket: Socket) =>
    new Promise<{ data: string; at: number }>((resolve) => {
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ data, at: Date.now() }));
    });

  it('disconnects a client that sends its headers too slowly (REQUEST_TIMEOUT_MS)', async () => {
    const socket = await open();
    const started = Date.now();
    const end = closed(socket);
    const request = `GET /status HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(200)}`;
    let i = 0;
    // One byte every 100 ms: never idle, never done.
    const drip = setInterval(() => !socket.destroyed && socket.write(request[i++ % request.length]), 100);
    const { data, at } = await end;
    clearInterval(drip);
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    // Node checks the deadline every second (connectionsCheckingInterval).
    expect(at - started).toBeGreaterThanOrEqual(requestTimeoutMs);
    expect(at - started).toBeLessThan(requestTimeoutMs + 2500);
  });

  it('closes connections beyond MAX_CONNECTIONS at once and keeps serving the others', async () => {
    const held = await Promise.all([open(), open(), open()]);
    const extra = await open();
    const { data } = await closed(extra);
    expect(data).toBe('');
    const answer = closed(held[0]);
    held[0].end('GET /status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect((await answer).data).toMatch(/^HTTP\/1\.1 200/);
    for (const socket of held) socket.destroy();
  });
});
