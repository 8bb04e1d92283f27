import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['MUG']);
});
afterAll(() => sb.close());

const send = (contentType: string, accept?: string) =>
  sb.call('POST', '/v3/orders', {
    token: client.token,
    payload: JSON.stringify(orderDocument(client, { items: [{ sku: 'MUG', quantity: 1 }] })),
    headers: { 'content-type': contentType, ...(accept ? { accept } : {}) },
  });

describe('JSON:API media type', () => {
  it('accepts application/vnd.api+json and, for existing clients, application/json', async () => {
    expect((await send('application/vnd.api+json')).status).toBe(201);
    expect((await send('application/json')).status).toBe(201);
  });

  it('answers with Content-Type application/vnd.api+json', async () => {
    const answer = await send('application/vnd.api+json');
    expect(answer.headers['content-type']).toBe('application/vnd.api+json');
  });

  it('refuses a JSON:API Content-Type with media type parameters, and other types, with 415', async () => {
    for (const type of ['application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', 'text/plain', 'application/xml']) {
      const answer = await send(type);
      expect(answer.status, type).toBe(415);
      expect(answer.body.errors[0].code).toBe('415');
    }
  });

  it('answers 406 when Accept allows no usable JSON:API type, and accepts JSON, */* and a usable entry among others', async () => {
    const get = (accept: string) => sb.call('GET', '/v3/orders', { token: client.token, headers: { accept } });
    expect((await get('application/vnd.api+json; profile="x"')).status).toBe(406);
    expect((await get('text/html')).status).toBe(406);
    for (const accept of [
      'application/vnd.api+json',
      'application/json',
      '*/*',
      'text/html, application/vnd.api+json; profile="x", application/vnd.api+json',
    ]) {
      expect((await get(accept)).status, accept).toBe(200);
    }
    const refused = await get('text/html');
    expect(refused.body.errors[0].code).toBe('406');
  });

  it('malformed JSON is a 400 in the JSON:API error format, never data and errors together', async () => {
    const answer = await sb.call('POST', '/v3/orders', {
      token: client.token,
      payload: '{"data": ',
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ code: '400', status: '400' });
    expect(answer.body.data).toBeUndefined();
  });

  it('an unknown v3 path is a JSON:API 404', async () => {
    const answer = await sb.call('GET', '/v3/nothing-here', { token: client.token });
    expect(answer.status).toBe(404);
    expect(answer.body.errors[0].code).toBe('404');
  });

  it('sends a request id back on every answer', async () => {
    const answer = await sb.call('GET', '/status');
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
