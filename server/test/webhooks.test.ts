import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { limits, webhookEvents } from '@shopapi/contract';
import { schema } from '../src/platform/db/index.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';

let sb: TestSandbox;
let client: TestClient;

beforeAll(async () => {
  sb = await startSandbox({ webhookAllowPrivateTargets: true });
  client = await sb.newClient();
});
afterAll(() => sb.close());

const target = 'https://shop.example.com/hooks/warehouse';
const doc = (attributes: Record<string, unknown>) => ({
  data: { type: 'webhook', attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: target, ...attributes } },
});
const post = (attributes: Record<string, unknown> = {}, on: TestSandbox = sb, token = client.token) =>
  on.call('POST', '/v3/webhooks', { token, body: doc(attributes) });
const put = (id: number, attributes: Record<string, unknown>, token = client.token, on: TestSandbox = sb) =>
  on.call('PUT', `/v3/webhooks/${id}`, { token, body: { data: { type: 'webhook', id, attributes } } });
const pointers = (answer: { body: { errors: { source?: { pointer?: string } }[] } }) => answer.body.errors.map((e) => e.source?.pointer);

describe('POST /v3/webhooks', () => {
  it('registers a webhook and returns its Standard Webhooks signing secret once', async () => {
    const answer = await post();
    expect(answer.status).toBe(201);
    const { attributes } = answer.body.data;
    expect(attributes).toMatchObject({ entity: 'shipment', event: 'shipment.shipped.3', targetUrl: target, isActive: true });
    expect(attributes.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(attributes.secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    const read = await sb.call('GET', `/v3/webhooks/${answer.body.data.id}`, { token: client.token });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes).not.toHaveProperty('secret');
    const list = await sb.call('GET', '/v3/webhooks', { token: client.token });
    expect(list.body.data.every((w: { attributes: object }) => !('secret' in w.attributes))).toBe(true);
    expect((await post()).body.data.attributes.secret).not.toBe(attributes.secret);
  });

  it('accepts every valid entity and event pair', async () => {
    for (const [entity, events] of Object.entries(webhookEvents)) {
      for (const event of events) expect((await post({ entity, event })).status, event).toBe(201);
    }
  });

  it('refuses an event of another entity, an unknown event and an unknown entity with 400', async () => {
    const mixed = await post({ entity: 'shipment', event: 'inbound.checked' });
    expect(mixed.status).toBe(400);
    expect(pointers(mixed)).toEqual(['/data/attributes/event']);
    expect((await post({ entity: 'inbound', event: 'shipment.shipped.3' })).status).toBe(400);
    expect((await post({ event: 'shipment.lost.3' })).status).toBe(400);
    expect((await post({ entity: 'order', event: 'shipment.shipped.3' })).status).toBe(400);
  });

  it('refuses a targetUrl that is not an http or https URI with 400', async () => {
    for (const targetUrl of ['not a url', 'ftp://files.example.com/hook', 'mailto:ops@example.com']) {
      const answer = await post({ targetUrl });
      expect(answer.status, targetUrl).toBe(400);
      expect(pointers(answer)).toEqual(['/data/attributes/targetUrl']);
    }
  });

  it('can be registered inactive', async () => {
    expect((await post({ isActive: false })).body.data.attributes.isActive).toBe(false);
  });

  it('accepts private and loopback targets when the sandbox allows them (the embedded default)', async () => {
    expect(sb.config.webhookAllowPrivateTargets).toBe(true);
    expect((await post({ targetUrl: 'http://localhost:4000/hooks' })).status).toBe(201);
    expect((await post({ targetUrl: 'http://192.168.1.20/hooks' })).status).toBe(201);
  });
});

describe('private targets refused (production-like configuration)', () => {
  let strict: TestSandbox;
  let strictClient: TestClient;
  beforeAll(async () => {
    strict = await startSandbox({ webhookAllowPrivateTargets: false });
    strictClient = await strict.newClient();
  });
  afterAll(() => strict.close());

  it('refuses URLs that resolve to loopback, private, link-local or unique-local addresses with 400', async () => {
    for (const targetUrl of [
      'http://localhost/hook',
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://172.16.0.1/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://0.0.0.0/hook',
    ]) {
      const answer = await post({ targetUrl }, strict, strictClient.token);
      expect(answer.status, targetUrl).toBe(400);
      expect(pointers(answer)).toEqual(['/data/attributes/targetUrl']);
    }
  });

  it('accepts a public address, and refuses changing it to a private one', async () => {
    const created = await post({ targetUrl: 'https://93.184.215.14/hook' }, strict, strictClient.token);
    expect(created.status).toBe(201);
    expect((await put(created.body.data.id, { targetUrl: 'http://127.0.0.1/hook' }, strictClient.token, strict)).status).toBe(400);
  });
});

describe('PUT /v3/webhooks/{id}', () => {
  it('changes targetUrl and isActive', async () => {
    const id = (await post()).body.data.id;
    const answer = await put(id, { targetUrl: 'https://shop.example.com/hooks/v2', isActive: false });
    expect(answer.status).toBe(200);
    expect(answer.body.data.attributes).toEqual({
      entity: 'shipment',
      event: 'shipment.shipped.3',
      targetUrl: 'https://shop.example.com/hooks/v2',
      isActive: false,
    });
    expect((await sb.call('GET', `/v3/webhooks/${id}`, { token: client.token })).body.data.attributes.isActive).toBe(false);
  });

  it('refuses a change of entity or event with 400 and changes nothing; the same values are fine', async () => {
    const id = (await post()).body.data.id;
    const answer = await put(id, { entity: 'inbound', event: 'inbound.checked', targetUrl: 'https://elsewhere.example.com/' });
    expect(answer.status).toBe(400);
    expect(pointers(answer).sort()).toEqual(['/data/attributes/entity', '/data/attributes/event']);
    expect((await sb.call('GET', `/v3/webhooks/${id}`, { token: client.token })).body.data.attributes.targetUrl).toBe(target);
    expect((await put(id, { entity: 'shipment', event: 'shipment.shipped.3', isActive: true })).status).toBe(200);
  });

  it('refuses the secret and other attributes with 400', async () => {
    const id = (await post()).body.data.id;
    expect((await put(id, { secret: 'whsec_mine' })).status).toBe(400);
  });

  it('switching a deactivated webhook on again resets its failure count', async () => {
    const id = (await post()).body.data.id;
    await sb.database.db
      .update(schema.webhooks)
      .set({ isActive: false, consecutiveFailures: 8, deactivatedAt: new Date() })
      .where(eq(schema.webhooks.id, id));
    expect((await put(id, { isActive: true })).body.data.attributes.isActive).toBe(true);
    const [row] = await sb.database.db.select().from(schema.webhooks).where(eq(schema.webhooks.id, id));
    expect(row).toMatchObject({ consecutiveFailures: 0, deactivatedAt: null });
  });
});

describe('DELETE /v3/webhooks/{id}', () => {
  it('deletes the webhook: 204, then 404', async () => {
    const id = (await post()).body.data.id;
    expect((await sb.call('DELETE', `/v3/webhooks/${id}`, { token: client.token })).status).toBe(204);
    expect((await sb.call('GET', `/v3/webhooks/${id}`, { token: client.token })).status).toBe(404);
    expect((await sb.call('DELETE', `/v3/webhooks/${id}`, { token: client.token })).status).toBe(404);
  });
});

describe('GET /v3/webhooks', () => {
  it("lists the client's webhooks by id, cursor-paged", async () => {
    const other = await sb.newClient();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await post({}, sb, other.token)).body.data.id);
    const first = await sb.call('GET', '/v3/webhooks?page[size]=2', { token: other.token });
    expect(first.body.data.map((w: { id: number }) => w.id)).toEqual(ids.slice(0, 2));
    const next = await sb.call('GET', first.body.links.next.replace('http://sandbox.test', ''), { token: other.token });
    expect(next.body.data.map((w: { id: number }) => w.id)).toEqual(ids.slice(2));
  });
});

describe(`at most ${limits.webhooksPerClientMax} webhooks per client`, () => {
  const max = limits.webhooksPerClientMax;
  const count = async (token: string) => (await sb.call('GET', '/v3/webhooks', { token })).body.data.length;

  it('refuses one more with 409 naming the limit and the count, inactive ones included, and writes nothing', async () => {
    const own = await sb.newClient();
    const ids: number[] = [];
    for (let i = 0; i < max - 1; i++) ids.push((await post({}, sb, own.token)).body.data.id);
    const inactive = (await post({ isActive: false }, sb, own.token)).body.data.id;
    const refused = await post({}, sb, own.token);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        code: '409',
        detail: `You have ${max} webhooks, the most a client may have (${max}); delete one before registering another.`,
      }),
    ]);
    expect(await count(own.token)).toBe(max);
    // Inactive webhooks count already, so switching one on never passes the limit.
    expect((await put(inactive, { isActive: true }, own.token)).status).toBe(200);
    // A deletion makes room.
    expect((await sb.call('DELETE', `/v3/webhooks/${ids[0]}`, { token: own.token })).status).toBe(204);
    expect((await post({}, sb, own.token)).status).toBe(201);
    expect(await count(own.token)).toBe(max);
  });

  it('holds when registrations race: of ten at once, one takes the last place', async () => {
    const own = await sb.newClient();
    for (let i = 0; i < max - 1; i++) expect((await post({}, sb, own.token)).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post({}, sb, own.token)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(await count(own.token)).toBe(max);
  });
});

describe('tenancy', () => {
  it("another client's webhook is a 404 on read, update and delete, and stays unchanged", async () => {
    const other = await sb.newClient();
    const id = (await post()).body.data.id;
    expect((await sb.call('GET', `/v3/webhooks/${id}`, { token: other.token })).status).toBe(404);
    expect((await put(id, { isActive: false, targetUrl: 'https://attacker.example.com/' }, other.token)).status).toBe(404);
    expect((await sb.call('DELETE', `/v3/webhooks/${id}`, { token: other.token })).status).toBe(404);
    expect((await sb.call('GET', '/v3/webhooks', { token: other.token })).body.data).toEqual([]);
    const mine = await sb.call('GET', `/v3/webhooks/${id}`, { token: client.token });
    expect(mine.body.data.attributes).toMatchObject({ isActive: true, targetUrl: target });
  });
});
