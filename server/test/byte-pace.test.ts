// The pace of each client's uploads (UPLOAD_MIB_PER_SECOND): a burst of one largest file, then the bytes at the pace,
// a caller waiting its turn, and one that would wait too long refused with 429 and Retry-After; another client is not
// slowed by it (issue 29: one client's uploads must not take the machine from the others).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '@shopapi/contract';
import { BytePace } from '../src/platform/byte-pace.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { multipart } from './support/multipart.ts';
import { largePng, onePageA4Pdf } from './support/uploads.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';

const MiB = 2 ** 20;

describe('the byte pace', () => {
  it('lets a burst through, then makes each caller of a key wait its turn, and refuses one that would wait too long', () => {
    let now = 0;
    const pace = new BytePace(1 * MiB, 10 * MiB, 10_000, () => now);
    expect(pace.take(1, 8 * MiB)).toEqual({ waitMs: 0 });
    // 2 MiB left: 4 more wait 2 s, and the next 4 behind them 6 s.
    expect(pace.take(1, 4 * MiB)).toEqual({ waitMs: 2000 });
    expect(pace.take(1, 4 * MiB)).toEqual({ waitMs: 6000 });
    // 6 more would wait 12 s: refused, nothing taken, back in 2 s.
    expect(pace.take(1, 6 * MiB)).toEqual({ refusedForMs: 2000 });
    expect(pace.take(1, 1 * MiB)).toEqual({ waitMs: 7000 });
    // Another key has its own bucket.
    expect(pace.take(2, 10 * MiB)).toEqual({ waitMs: 0 });
    // Time fills the bucket back at the pace; a bucket full again is forgotten.
    now = 3000;
    expect(pace.take(1, 1 * MiB)).toEqual({ waitMs: 5000 });
    expect(pace.size).toBe(2);
    now = 60_000;
    expect(pace.take(3, 1)).toEqual({ waitMs: 0 });
    expect(pace.size).toBe(1);
  });
});

describe('uploads at a pace per client', () => {
  let sb: TestSandbox;
  let a: TestClient & { productId: number };
  let b: TestClient & { productId: number };
  const withProduct = async () => {
    const client = await sb.newClient();
    const [productId] = await createProducts(sb, client.token, ['MUG']);
    return { ...client, productId: Number(productId) };
  };
  beforeAll(async () => {
    sb = await startSandbox({ uploadBytesPerSecond: 1 * MiB });
    a = await withProduct();
    b = await withProduct();
  });
  afterAll(() => sb.close());

  const upload = (client: { token: string; productId: number }, bytes: number) => {
    const started = performance.now();
    return sb
      .call('POST', `/v3/products/${client.productId}/image`, {
        token: client.token,
        payload: largePng(bytes),
        headers: { 'content-type': 'image/png' },
      })
      .then((answer) => ({ ...answer, ms: performance.now() - started }));
  };

  it("makes a client's upload beyond its burst wait, refuses one that would wait too long with 429, and never slows another client", async () => {
    const largest = limits.productImageMaxBytes - 1024;
    // A's first upload empties its burst.
    expect((await upload(a, largest)).status).toBe(200);
    // The second waits for its 5 MiB to come back (less what came back while the first was stored: a second or two)...
    const second = upload(a, 5 * MiB);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // ...and the third would wait for its 9 MiB behind it, 12-13 s, more than 5: refused at once, saying when to come
    // back (when its wait would be 5 s).
    const refused = await upload(a, 9 * MiB);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].code).toBe('429');
    expect(refused.body.errors[0].detail).toContain('faster than 1 MiB a second');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(5);
    expect(retryAfter).toBeLessThanOrEqual(9);
    // B uploads the same 5 MiB meanwhile, without waiting for A's pace: A's took over a second longer.
    const theirs = await upload(b, 5 * MiB);
    expect(theirs.status).toBe(200);
    const waited = await second;
    expect(waited.status).toBe(200);
    expect(theirs.ms).toBeLessThan(waited.ms - 1000);
  }, 60_000);

  it('paces order attachments with the images: an attachment past the bound is refused with 429 and Retry-After', async () => {
    const c = await withProduct();
    const order = await sb.call('POST', '/v3/orders', { token: c.token, body: orderDocument(c, { items: [{ sku: 'MUG', quantity: 1 }] }) });
    const externalOrderNumber = order.body.data.attributes.externalOrderNumber;
    const { payload, contentType } = multipart([
      {
        name: 'data',
        value: JSON.stringify({
          data: { type: 'orderAttachment', attributes: { filename: 'invoice.pdf', contentType: 'application/pdf', externalOrderNumber } },
        }),
      },
      { name: 'file', value: await onePageA4Pdf(randomBytes(4.5 * MiB)), filename: 'invoice.pdf', contentType: 'application/pdf' },
    ]);
    // An image empties C's burst, and a second one waits for its 3 MiB...
    expect((await upload(c, limits.productImageMaxBytes - 1024)).status).toBe(200);
    const waiting = upload(c, 3 * MiB);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // ...so the attachment's 4.5 MiB would wait more than 5 s behind it.
    const refused = await sb.call('POST', '/v3/orderAttachments', { token: c.token, payload, headers: { 'content-type': contentType } });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].code).toBe('429');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await waiting).status).toBe(200);
  }, 60_000);
});
