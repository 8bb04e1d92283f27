// Path and query parameters lead a request to its operation's route and nowhere else, even when a caller passes values
// past the types with a cast: against a listening sandbox, with every request the clients send recorded.
import { createShopApiClient, createShopApiV2Client, ParameterError, type ShopApiClient } from '@shopapi/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningSandbox, type TestClient, type TestSandbox } from '../../server/test/support/sandbox.ts';

let sb: TestSandbox;
let baseUrl: string;
let account: TestClient;
let api: ShopApiClient;
let webhookId: number;

/** Every request the clients sent, as `DELETE /v3/orders/1?query`: the path and query exactly as they went out. */
const sent: string[] = [];
const recording: typeof fetch = (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  sent.push(`${request.method} ${url.pathname}${url.search}`);
  return fetch(request);
};

/** A value that is not what the types allow, as a caller bypassing them would pass it. */
const cast = <T>(value: unknown) => value as T;

beforeAll(async () => {
  ({ sb, baseUrl } = await startListeningSandbox());
  account = await sb.newClient();
  api = createShopApiClient({ baseUrl, username: account.username, password: account.password, fetch: recording });
  const webhook = await api.POST('/v3/webhooks', {
    body: {
      data: {
        type: 'webhook',
        attributes: { entity: 'shipment', event: 'shipment.shipped.3', targetUrl: 'http://127.0.0.1:9/hooks', isActive: true },
      },
    },
  });
  webhookId = webhook.data?.data.id ?? 0;
  expect(webhookId).toBeGreaterThan(0);
});
afterAll(() => sb?.close());

interface Outcome {
  /** The requests the call sent, the token request aside. */
  sent: string[];
  status?: number;
  /** The first error of the answer's JSON:API errors. */
  answered?: { code: string; detail: string };
  /** What the call threw instead of answering. */
  thrown?: unknown;
}

async function sendsOf(call: () => Promise<{ response: Response; error?: unknown }>): Promise<Outcome> {
  sent.length = 0;
  const outcome = await call().then(
    ({ response, error }) => ({
      status: response.status,
      answered: (error as { errors?: Outcome['answered'][] } | undefined)?.errors?.[0],
    }),
    (thrown: unknown) => ({ thrown }),
  );
  return { sent: sent.filter((request) => request !== 'POST /token'), ...outcome };
}

const webhookStillThere = async () => (await api.GET('/v3/webhooks/{id}', { params: { path: { id: webhookId } } })).response.status;

describe('path parameters', () => {
  it('refuses an object as a path value before sending anything: cancelling "order {"../webhooks/1#": ""}" deletes no webhook', async () => {
    const id = cast<number>({ [`../webhooks/${webhookId}#`]: '' });
    const cancel = await sendsOf(() => api.DELETE('/v3/orders/{id}', { params: { path: { id } } }));
    expect(cancel.sent).toEqual([]);
    expect(cancel.thrown).toBeInstanceOf(ParameterError);
    expect((cancel.thrown as Error).message).toBe(
      `The path parameter id of ${baseUrl}/v3/orders/{id} must be a string or a number; nothing was sent.`,
    );
    const read = await sendsOf(() =>
      api.GET('/v3/orders/{id}', { params: { path: { id: cast<number>({ '../../sandbox/requests#': '' }) } } }),
    );
    expect(read).toMatchObject({ sent: [], thrown: expect.any(ParameterError) });
    const list = await sendsOf(() => api.GET('/v3/orders/{id}', { params: { path: { id: cast<number>(['..', 'webhooks']) } } }));
    expect(list).toMatchObject({ sent: [], thrown: expect.any(ParameterError) });
    expect(await webhookStillThere()).toBe(200);
  });

  it.each(['..', '.', ''])('refuses the path value "%s", which URL parsing would drop or resolve to another route', async (value) => {
    const call = await sendsOf(() => api.DELETE('/v3/orders/{id}', { params: { path: { id: cast<number>(value) } } }));
    expect(call).toMatchObject({ sent: [], thrown: expect.any(ParameterError) });
  });

  it('sends a path value with "/", "#", "?" or "%" as one encoded segment of its own route, which answers it', async () => {
    const attempts = [`../webhooks/${webhookId}`, `${webhookId}#`, `${webhookId}?include=orderItems`, '%2e%2e'];
    for (const value of attempts) {
      const call = await sendsOf(() => api.DELETE('/v3/orders/{id}', { params: { path: { id: cast<number>(value) } } }));
      expect(call.sent).toEqual([`DELETE /v3/orders/${encodeURIComponent(value)}`]);
      // The order route's own answer: its id is no order of this client.
      expect(call).toMatchObject({ status: 404, answered: { code: '404', detail: 'No resource with this id.' } });
    }
    expect(await webhookStillThere()).toBe(200);
  });

  it('refuses a missing path value, and the same holds for the v2 client', async () => {
    const missing = await sendsOf(() => api.GET('/v3/orders/{id}', { params: { path: cast<{ id: number }>({}) } }));
    expect(missing).toMatchObject({ sent: [], thrown: expect.any(ParameterError) });
    const v2 = createShopApiV2Client({ baseUrl, username: account.username, password: account.password, fetch: recording });
    for (const sku of ['..', cast<string>({ '../../v3/orders#': '' })]) {
      const call = await sendsOf(() => v2.GET('/v2/stock/get/{sku}', { params: { path: { sku } } }));
      expect(call).toMatchObject({ sent: [], thrown: expect.any(ParameterError) });
    }
  });
});

describe('query parameters', () => {
  it('encodes the keys: a key with "&", "=" or "#" in it is one unknown parameter (400), not several', async () => {
    for (const key of ['page[size]=1&include', 'include#']) {
      const call = await sendsOf(() => api.GET('/v3/orders', { params: { query: cast<{ include: string }>({ [key]: 'orderItems' }) } }));
      expect(call.sent).toEqual([`GET /v3/orders?${encodeURIComponent(key)}=orderItems`]);
      expect(call).toMatchObject({ status: 400, answered: { code: '400' } });
      expect(call.answered?.detail.startsWith(`Unknown query parameter ${key};`)).toBe(true);
    }
  });

  it("sends JSON:API's bracketed keys encoded, and the sandbox reads them", async () => {
    for (const sku of ['BRACKET-1', 'BRACKET-2']) {
      await api.POST('/v3/products', { body: { data: { type: 'product', attributes: { sku, name: sku } } } });
    }
    const call = await sendsOf(() =>
      api.GET('/v3/products', { params: { query: { 'page[size]': 1, 'filter[sku][in]': 'BRACKET-1,BRACKET-2' } } }),
    );
    expect(call).toMatchObject({ sent: ['GET /v3/products?page%5Bsize%5D=1&filter%5Bsku%5D%5Bin%5D=BRACKET-1%2CBRACKET-2'], status: 200 });
    const { data } = await api.GET('/v3/products', { params: { query: { 'page[size]': 1, 'filter[sku][in]': 'BRACKET-1,BRACKET-2' } } });
    expect(data?.data.map((product) => product.attributes.sku)).toEqual(['BRACKET-1']);
  });

  it('refuses a list or an object as a query value before sending anything', async () => {
    for (const include of [['orderItems'], { orderItems: '' }]) {
      const call = await sendsOf(() => api.GET('/v3/orders', { params: { query: { include: cast<string>(include) } } }));
      expect(call).toMatchObject({ sent: [], thrown: expect.any(ParameterError) });
    }
  });
});
