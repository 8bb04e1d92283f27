import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { revokeToken } from '../src/modules/clients/tokens.ts';
import { tokenCacheSeconds } from '../src/modules/clients/token-cache.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox({ tokenLifetimeSeconds: 3600 });
  client = await sb.newClient();
});
afterAll(() => sb.close());

describe('POST /token', () => {
  it('issues a bearer token with its lifetime and RFC 1123 dates', async () => {
    const answer = await sb.call('POST', '/token', {
      form: { grant_type: 'password', username: client.username, password: client.password },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, userName: client.username });
    expect(answer.body.access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const issued = Date.parse(answer.body.issued);
    expect(answer.body.issued).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Date.parse(answer.body.expires) - issued).toBe(3600_000);
  });

  it('answers 400 invalid_grant for a wrong password and for an unknown user, word for word', async () => {
    for (const form of [
      { grant_type: 'password', username: client.username, password: 'wrong-password' },
      { grant_type: 'password', username: 'nobody-here', password: 'whatever1' },
    ]) {
      const answer = await sb.call('POST', '/token', { form });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'invalid_grant', error_description: 'The user name or password is incorrect.' });
    }
  });

  it('answers 400 invalid_request when the form lacks the username or is not form-encoded', async () => {
    const answer = await sb.call('POST', '/token', { form: { grant_type: 'password', password: 'x' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_request');
    const xml = await sb.call('POST', '/token', { payload: '<token/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.status).toBe(400);
    expect(xml.body.error).toBe('invalid_request');
  });

  it('refuses a grant type other than password with unsupported_grant_type', async () => {
    const answer = await sb.call('POST', '/token', {
      form: { grant_type: 'client_credentials', username: client.username, password: client.password },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'unsupported_grant_type', error_description: 'The grant type must be password.' });
  });
});

describe('status', () => {
  it('GET /status and GET /status/get need no token', async () => {
    for (const url of ['/status', '/status/get']) {
      const answer = await sb.call('GET', url);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ messageCode: 'OK', message: 'Status is OK.', result: null });
    }
  });
});

describe('bearer tokens', () => {
  it('a missing, unknown or malformed token gives 401 with a JSON:API error on v3', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-real-token' }, { authorization: 'Basic abc' }] as Record<string, string>[]) {
      const answer = await sb.call('GET', '/v3/orders', { headers });
      expect(answer.status).toBe(401);
      expect(answer.body.errors[0]).toMatchObject({ code: '401', status: '401' });
    }
  });

  it('a missing token gives the documented v2 401 body on settings', async () => {
    const answer = await sb.call('GET', '/settings/get');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ message: 'Authorization has been denied for this request.' });
  });

  it('an expired token gives 401', async () => {
    const fresh = await sb.newClient();
    // A token no call has used yet: one that was is kept in memory as it was for a few seconds (the token cache).
    const unused = await sb.call('POST', '/token', {
      form: { grant_type: 'password', username: fresh.username, password: fresh.password },
    });
    await sb.database.db
      .update(schema.tokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.tokens.clientId, fresh.id));
    expect((await sb.call('GET', '/v3/orders', { token: unused.body.access_token })).status).toBe(401);
  });

  it('a revoked token gives 401 while another token of the same client still works', async () => {
    const fresh = await sb.newClient();
    const second = await sb.call('POST', '/token', {
      form: { grant_type: 'password', username: fresh.username, password: fresh.password },
    });
    expect(await revokeToken(sb.database.db, sb.services.tokenCache, fresh.token)).toBe(true);
    expect((await sb.call('GET', '/v3/orders', { token: fresh.token })).status).toBe(401);
    expect((await sb.call('GET', '/v3/orders', { token: second.body.access_token })).status).toBe(200);
  });

  it('a token revoked in this process is refused at once, also by POST /v3/orders, which takes clients from the token cache', async () => {
    const fresh = await sb.newClient();
    await createProducts(sb, fresh.token, ['CACHED-1']);
    const order = () =>
      sb.call('POST', '/v3/orders', { token: fresh.token, body: orderDocument(fresh, { items: [{ sku: 'CACHED-1', quantity: 1 }] }) });
    expect((await order()).status).toBe(201);
    expect(await revokeToken(sb.database.db, sb.services.tokenCache, fresh.token)).toBe(true);
    expect((await order()).status).toBe(401);
  });

  it(`a token revoked by another process is refused at once by uncached routes and within ${tokenCacheSeconds} s by cached ones`, async () => {
    const fresh = await sb.newClient();
    await createProducts(sb, fresh.token, ['CACHED-2']);
    const order = () =>
      sb.call('POST', '/v3/orders', { token: fresh.token, body: orderDocument(fresh, { items: [{ sku: 'CACHED-2', quantity: 1 }] }) });
    const checked = Date.now();
    expect((await order()).status).toBe(201);
    // Another process revokes with its own statement: this process's cache does not hear of it. The sandbox clock reads
    // the client's clock offset from request.client, so its route checks the token in the database on every call.
    await sb.database.db.update(schema.tokens).set({ revokedAt: new Date() }).where(eq(schema.tokens.clientId, fresh.id));
    expect((await sb.call('GET', '/sandbox/clock', { token: fresh.token })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, checked + tokenCacheSeconds * 1000 - Date.now()) + 50));
    expect((await order()).status).toBe(401);
  });

  it('stores only a hash of the token', async () => {
    const rows = await sb.database.db.select().from(schema.tokens).where(eq(schema.tokens.clientId, client.id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.tokenHash !== client.token && /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });
});

describe('GET /settings/get', () => {
  it('returns the full settings result with the ids orders refer to', async () => {
    const answer = await sb.call('GET', '/settings/get', { token: client.token });
    expect(answer.status).toBe(200);
    expect(answer.body.messageCode).toBe('OK');
    expect(answer.body.message).toBe('Settings are ok.');
    const result = answer.body.result;
    expect(result.orderTypes.length).toBeGreaterThan(0);
    expect(result.mainShippingMethods[0].shippingMethods.map((m: { warehouse: string }) => m.warehouse)).toEqual([
      'NR',
      'NN',
      'GN',
      'BW',
      'DD',
      'FP',
    ]);
    expect(result.languages.length).toBeLessThanOrEqual(11);
    expect(result.languages.find((l: { code: string }) => l.code === 'EN').name).toBe('Engels');
    expect(result.returnReasons.length).toBeGreaterThan(0);
    expect(result.returnShippingMethods.length).toBeGreaterThan(0);
    expect(result.countries.some((c: { code: string }) => c.code === 'NL')).toBe(true);
    expect(result.paymentMethods).toEqual([{ id: 1, name: expect.any(String), code: expect.any(String) }]);
  });

  it('shows each client only its own reference data', async () => {
    const other = await sb.newClient();
    const mine = (await sb.call('GET', '/settings/get', { token: client.token })).body.result.orderTypes.map((t: { id: number }) => t.id);
    const theirs = (await sb.call('GET', '/settings/get', { token: other.token })).body.result.orderTypes.map((t: { id: number }) => t.id);
    expect(mine.filter((id: number) => theirs.includes(id))).toEqual([]);
  });
});
