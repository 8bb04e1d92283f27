// The Host header is client input: a malformed one is a 400 in the API's format (never a 500), links come from
// PUBLIC_URL when it is set, and X-Forwarded-Host / X-Forwarded-Proto count only behind a trusted proxy (TRUST_PROXY).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidHost } from '../../src/api/shared/host.ts';
import { startSandbox, type TestClient, type TestSandbox } from '../support/sandbox.ts';

const malformedHosts = [
  'a b',
  'evil.example/path',
  'evil.example?x',
  'user@evil.example',
  'evil.example:0',
  'evil.example:65536',
  'evil.example:http',
  ':8080',
  '[::1',
  '[zz::1]',
  '[::1]x',
  '::1',
  '999.1.1.1',
  'shop.example.123',
  'a..b',
  '-shop.example',
  'shop\u00e9.example',
  `${'a'.repeat(64)}.example`,
  `${'abcdefghi.'.repeat(26)}example`,
  '%65vil.example',
  'evil.example:80:80',
];
const validHosts = [
  'localhost',
  'localhost:8080',
  'shop.example',
  'shop.example.',
  'shop_api:8080',
  '127.0.0.1:8080',
  '[::1]:8080',
  '[2001:db8::1]',
  'xn--bcher-kva.example',
];

const selfLink = (answer: { body: { links: { self: string } } }) => answer.body.links.self;

describe('Host header syntax', () => {
  it('accepts host names, IPv4 and [IPv6] addresses with an optional port', () => {
    for (const host of validHosts) expect(isValidHost(host), host).toBe(true);
  });
  it('refuses anything else', () => {
    for (const host of malformedHosts) expect(isValidHost(host), host).toBe(false);
  });
});

describe('without PUBLIC_URL (a sandbox on a developer machine)', () => {
  let sb: TestSandbox;
  let client: TestClient;
  beforeAll(async () => {
    sb = await startSandbox({ publicUrl: undefined });
    client = await sb.newClient();
  });
  afterAll(() => sb.close());

  it('builds links from a valid Host', async () => {
    for (const host of ['shop.example:8443', '[::1]:8080', '127.0.0.1']) {
      const answer = await sb.call('GET', '/v3/orders', { token: client.token, headers: { host } });
      expect(answer.status).toBe(200);
      expect(selfLink(answer)).toMatch(new RegExp(`^http://${host.replace(/[[\].]/g, '\\$&')}/v3/orders`));
    }
  });

  it('answers a malformed Host with 400 in the format of each API, never 500', async () => {
    for (const host of malformedHosts) {
      const v3 = await sb.call('GET', '/v3/orders', { token: client.token, headers: { host } });
      expect(v3.status, host).toBe(400);
      expect(v3.body.errors[0], host).toMatchObject({ code: '400', status: '400', detail: 'The Host header is malformed.' });
      const sandbox = await sb.call('POST', '/sandbox/clock/advance', { token: client.token, body: { seconds: 60 }, headers: { host } });
      expect(sandbox.status, host).toBe(400);
      expect(sandbox.body.errors[0].code).toBe('400');
      const v2 = await sb.call('GET', '/v2/order/search', { token: client.token, headers: { host } });
      expect(v2.status, host).toBe(400);
      expect(v2.body).toMatchObject({ messageCode: 'NOK', message: 'The Host header is malformed.' });
      const token = await sb.call('POST', '/token', {
        form: { grant_type: 'password', username: client.username, password: client.password },
        headers: { host },
      });
      expect(token.status, host).toBe(400);
      expect(token.body).toEqual({ error: 'invalid_request', error_description: 'The Host header is malformed.' });
    }
    const page = await sb.app.inject({ method: 'GET', url: '/docs/', headers: { host: 'a b' } });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('ignores X-Forwarded-Host and X-Forwarded-Proto from a client that is not a trusted proxy', async () => {
    const answer = await sb.call('GET', '/v3/orders', {
      token: client.token,
      headers: { host: 'shop.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(answer.status).toBe(200);
    expect(selfLink(answer)).toMatch(/^http:\/\/shop\.example\/v3\/orders/);
    const junk = await sb.call('GET', '/v3/orders', {
      token: client.token,
      headers: { host: 'shop.example', 'x-forwarded-host': 'a b', 'x-forwarded-proto': 'javascript' },
    });
    expect(junk.status).toBe(200);
  });

  it('builds links from the listening address for a request without Host (HTTP/1.0)', async () => {
    await sb.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = sb.app.server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`GET /v3/orders HTTP/1.0\r\nAuthorization: Bearer ${client.token}\r\nAccept: application/vnd.api+json\r\n\r\n`),
      );
      let data = '';
      socket.on('data', (chunk) => (data += chunk));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw).toContain(`"self":"http://${sb.config.host}:${sb.config.port}/v3/orders`);
  });
});

describe('with PUBLIC_URL', () => {
  let sb: TestSandbox;
  let client: TestClient;
  beforeAll(async () => {
    sb = await startSandbox({ publicUrl: 'https://api.shop.example' });
    client = await sb.newClient();
  });
  afterAll(() => sb.close());

  it('builds links from PUBLIC_URL whatever the Host says', async () => {
    const answer = await sb.call('GET', '/v3/orders', { token: client.token, headers: { host: 'evil.example' } });
    expect(answer.status).toBe(200);
    expect(selfLink(answer)).toMatch(/^https:\/\/api\.shop\.example\/v3\/orders/);
  });

  it('still refuses a malformed Host', async () => {
    const answer = await sb.call('GET', '/v3/orders', { token: client.token, headers: { host: 'a b' } });
    expect(answer.status).toBe(400);
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  let sb: TestSandbox;
  let client: TestClient;
  beforeAll(async () => {
    sb = await startSandbox({ publicUrl: undefined, trustProxy: 'loopback' });
    client = await sb.newClient();
  });
  afterAll(() => sb.close());

  it('builds links from X-Forwarded-Host and X-Forwarded-Proto', async () => {
    const answer = await sb.call('GET', '/v3/orders', {
      token: client.token,
      headers: { host: '127.0.0.1:8080', 'x-forwarded-host': 'api.shop.example', 'x-forwarded-proto': 'https' },
    });
    expect(answer.status).toBe(200);
    expect(selfLink(answer)).toMatch(/^https:\/\/api\.shop\.example\/v3\/orders/);
  });

  it('refuses a malformed X-Forwarded-Host or X-Forwarded-Proto with 400', async () => {
    const host = await sb.call('GET', '/v3/orders', { token: client.token, headers: { host: 'shop.example', 'x-forwarded-host': 'a b' } });
    expect(host.status).toBe(400);
    expect(host.body.errors[0].detail).toBe('The X-Forwarded-Host header is malformed.');
    const proto = await sb.call('GET', '/v3/orders', {
      token: client.token,
      headers: { host: 'shop.example', 'x-forwarded-proto': 'javascript' },
    });
    expect(proto.status).toBe(400);
    expect(proto.body.errors[0].detail).toBe('The X-Forwarded-Proto header must be http or https.');
  });

  it('trusts the headers only from the configured proxies', async () => {
    const answer = await sb.app.inject({
      method: 'GET',
      url: '/v3/orders',
      remoteAddress: '203.0.113.9',
      headers: { authorization: `Bearer ${client.token}`, host: 'shop.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().links.self).toMatch(/^http:\/\/shop\.example\/v3\/orders/);
  });
});
