// Each API is its own Fastify plugin and answers in its own format, also for refusals before a handler runs (no token,
// a body that is not JSON); paths that no API owns answer in the format their path suggests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2BadRequest, v2Messages } from '@shopapi/contract';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
});
afterAll(() => sb.close());

describe('the API plugins', () => {
  it('refuse a call without a token, each in its own format and with WWW-Authenticate', async () => {
    for (const url of ['/v3/orders', '/sandbox/settings']) {
      const answer = await sb.call('GET', url);
      expect(answer.status, url).toBe(401);
      expect(answer.headers['www-authenticate'], url).toBe('Bearer');
      expect(answer.body.errors[0].code, url).toBe('401');
    }
    const v2 = await sb.call('GET', '/settings/get');
    expect(v2.status).toBe(401);
    expect(v2.body).toEqual({ message: v2Messages.unauthorized });
  });

  it('answer a body that is not JSON each in its own format', async () => {
    const broken = { payload: '{"data": ', headers: { 'content-type': 'application/json' } };
    const v3 = await sb.call('POST', '/v3/orders', { token: client.token, ...broken });
    expect(v3.status).toBe(400);
    expect(v3.body.errors[0].code).toBe('400');
    const v2 = await sb.call('POST', '/order/add', { token: client.token, ...broken });
    expect(v2.status).toBe(400);
    expect(v2.body).toEqual(v2BadRequest);
    const token = await sb.call('POST', '/token', broken);
    expect(token.status).toBe(400);
    expect(token.body.error).toBe('invalid_request');
  });

  it('answer unknown paths as JSON:API under /v3 and /sandbox, as v2 elsewhere', async () => {
    for (const url of ['/v3/nothing-here', '/sandbox/nothing-here']) {
      const answer = await sb.call('GET', url, { token: client.token });
      expect(answer.status, url).toBe(404);
      expect(answer.body.errors[0].code, url).toBe('404');
      expect(answer.headers['content-type'], url).toBe('application/vnd.api+json');
    }
    // Negotiated before the path is known to be missing, as for the known ones (inject: the OpenAPI check knows no such path).
    const refused = await sb.app.inject({ method: 'GET', url: '/v3/nothing-here', headers: { accept: 'text/html' } });
    expect(refused.statusCode).toBe(406);
    expect(refused.json().errors[0].code).toBe('406');
    const v2 = await sb.call('GET', '/order/nothing-here', { token: client.token });
    expect(v2.status).toBe(404);
    expect(v2.body).toEqual({ error: '404 Not Found', error_description: 'The requested resource could not be found' });
  });

  it('read /status and /settings as v2 calls: a query parameter they do not take is ignored with a warning', async () => {
    const answer = await sb.call('GET', '/status?verbose=1');
    expect(answer.status).toBe(200);
    expect(answer.headers['sandbox-warning']).toEqual(['ignored verbose: not a parameter of this call; not read']);
  });
});
