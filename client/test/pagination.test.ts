// paginate and pages against a listening sandbox: they follow links.next's cursor until the last page, and an error
// answer ends them with a PageError.
import { createShopApiClient, PageError, type ShopApiClient } from '@shopapi/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningSandbox, type TestSandbox } from '../../server/test/support/sandbox.ts';
import { countingFetch } from './support.ts';

let sb: TestSandbox;
let api: ShopApiClient;
const counts = new Map<string, number>();
const skus = ['PAGE-A', 'PAGE-B', 'PAGE-C', 'PAGE-D', 'PAGE-E'];

beforeAll(async () => {
  let baseUrl: string;
  ({ sb, baseUrl } = await startListeningSandbox());
  const account = await sb.newClient();
  api = createShopApiClient({ baseUrl, username: account.username, password: account.password, fetch: countingFetch(counts) });
  for (const sku of skus) {
    const { response } = await api.POST('/v3/products', { body: { data: { type: 'product', attributes: { sku, name: sku } } } });
    expect(response.status).toBe(201);
  }
});
afterAll(() => sb?.close());

describe('cursor pagination', () => {
  it('paginate yields every product once, in id order, two to a page', async () => {
    counts.clear();
    const seen: { id: number; sku: string }[] = [];
    for await (const product of api.paginate('/v3/products', { 'page[size]': 2 }))
      seen.push({ id: product.id, sku: product.attributes.sku });
    expect(seen.map((product) => product.sku)).toEqual(skus);
    expect(seen.map((product) => product.id)).toEqual([...seen.map((product) => product.id)].sort((a, b) => a - b));
    expect(counts.get('GET /v3/products')).toBe(3);
  });

  it('pages yields three pages of 2, 2 and 1 products, the last without a next link', async () => {
    const sizes: number[] = [];
    const nextLinks: boolean[] = [];
    for await (const page of api.pages('/v3/products', { 'page[size]': 2 })) {
      sizes.push(page.data.length);
      nextLinks.push(Boolean(page.links?.next));
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(nextLinks).toEqual([true, true, false]);
  });

  it('keeps the other query parameters from page to page', async () => {
    const found: string[] = [];
    for await (const product of api.paginate('/v3/products', { 'page[size]': 1, 'filter[sku][in]': 'PAGE-B,PAGE-D' }))
      found.push(product.attributes.sku);
    expect(found).toEqual(['PAGE-B', 'PAGE-D']);
  });

  it('throws a PageError with the status and the error document when the server refuses a page', async () => {
    const failure = await (async () => {
      for await (const _product of api.paginate('/v3/products', { 'filter[sku][in]': '' })) {
        // no page is expected
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PageError);
    expect(failure).toMatchObject({ status: 400, errors: [expect.objectContaining({ source: { parameter: 'filter[sku][in]' } })] });
  });
});
