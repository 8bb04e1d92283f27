import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, uniqueNumber } from './support/fixtures.ts';
import { bodyStyles, sendV2 } from './support/v2.ts';

let sb: TestSandbox;
let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  other = await sb.newClient();
  await createProducts(sb, client.token, ['PO-A', 'PO-B', 'PO-C']);
  await createProducts(sb, other.token, ['PO-A']);
});
afterAll(() => sb.close());

const post = (url: string, body: unknown, token = client.token) => sb.call('POST', url, { token, body });
const slip = async (id: number, token = client.token) =>
  sb.call('GET', `/v3/inboundPackingSlips/${id}?include=inboundPackingSlipItems`, { token });
const itemsOf = async (id: number) => (await slip(id)).body.included.map((i: any) => [i.attributes.sku, i.attributes.quantity]);
const receive = (id: number, items?: { sku: string; quantity: number }[]) =>
  sb.call('POST', `/sandbox/inboundPackingSlips/${id}/receive`, { token: client.token, body: items ? { items } : undefined });

async function add(
  items: { sku: string; quantity: number }[] = [
    { sku: 'PO-A', quantity: 10 },
    { sku: 'PO-B', quantity: 5 },
  ],
  extra: Record<string, unknown> = {},
) {
  const answer = await post('/purchaseorder/add', {
    reference: uniqueNumber('PO'),
    comment: 'First',
    expectedDate: '2026-12-01T08:00:00Z',
    warehouseId: 1,
    purchaseOrderItems: items,
    ...extra,
  });
  expect(answer.body.messageCode, answer.raw).toBe('OK');
  return answer.body.result as number;
}

const failed = (id: number | null, error: string) => ({
  messageCode: 'NOK',
  message: 'PurchaseOrder(Items) processed/deleted unsuccessfully.',
  result: { PurchaseOrderId: id, PurchaseOrderError: error },
});
const skuNotFound = (id: number | null, skus: string[]) => ({
  messageCode: 'NOK',
  message: 'PurchaseOrder(Items) processed/deleted unsuccessfully or partially.',
  result: { PurchaseOrderId: id, PurchaseOrderItemsErrors: skus.map((sku) => ({ SKU: sku, Status: 'NOK', Message: 'SKU not found' })) },
});
const validation = 'Input did not pass validation. Check result for errors.';

describe('POST /purchaseorder/add', () => {
  it.each(bodyStyles)('adds a purchase order that is the v3 inbound packing slip (%s)', async (style) => {
    const reference = uniqueNumber(`PO-${style.length}`);
    const answer = await sendV2(
      sb,
      'POST',
      '/purchaseorder/add',
      {
        reference,
        comment: 'Autumn',
        expectedDate: '2026-12-01T08:00:00Z',
        warehouseId: 4,
        purchaseOrderItems: [
          { sku: 'PO-A', quantity: 10, expectedDate: '2026-12-02T08:00:00Z' },
          { sku: 'PO-B', quantity: 3 },
        ],
      },
      client.token,
      style,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ messageCode: 'OK', message: 'PurchaseOrder added successfully.', result: expect.any(Number) });
    const read = await slip(answer.body.result);
    expect(read.body.data.attributes).toMatchObject({
      reference,
      comments: 'Autumn',
      expectedIn: 'BW',
      expectedOn: '2026-12-01',
      status: 'EXPECTED',
    });
    expect(read.body.included.map((i: any) => [i.attributes.sku, i.attributes.quantity])).toEqual([
      ['PO-A', 10],
      ['PO-B', 3],
    ]);
  });

  it('answers the validation NOK for a missing reference or items, a duplicate reference and an expected date that is not a date-time', async () => {
    const missing = await post('/purchaseorder/add', { comment: 'x', purchaseOrderItems: [{ sku: 'PO-A', quantity: 1 }] });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ messageCode: 'NOK', message: validation, result: [expect.stringContaining('reference')] });
    expect((await post('/purchaseorder/add', { reference: 'R-1', purchaseOrderItems: [] })).body.message).toBe(validation);
    expect(
      (await post('/purchaseorder/add', { reference: 'R-1', purchaseOrderItems: [{ sku: 'PO-A', quantity: 1.5 }] })).body.message,
    ).toBe(validation);
    const badDate = await post('/purchaseorder/add', {
      reference: 'R-1',
      expectedDate: 'next tuesday',
      purchaseOrderItems: [{ sku: 'PO-A', quantity: 1 }],
    });
    expect(badDate.body).toEqual({
      messageCode: 'NOK',
      message: validation,
      result: ["The value 'next tuesday' is not valid for ExpectedDate."],
    });
    const id = await add();
    const reference = (await slip(id)).body.data.attributes.reference;
    const duplicate = await post('/purchaseorder/add', { reference, purchaseOrderItems: [{ sku: 'PO-A', quantity: 1 }] });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toMatchObject({ messageCode: 'NOK', message: validation, result: [expect.stringContaining(reference)] });
  });

  it("names unknown skus (and another client's) and writes nothing", async () => {
    const before = (await sb.call('GET', '/v3/inboundPackingSlips', { token: client.token })).body.data.length;
    const answer = await post('/purchaseorder/add', {
      reference: uniqueNumber('PO'),
      purchaseOrderItems: [
        { sku: 'PO-A', quantity: 1 },
        { sku: 'NOPE', quantity: 2 },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(skuNotFound(null, ['NOPE']));
    await createProducts(sb, other.token, ['PO-OTHER']);
    expect(
      (await post('/purchaseorder/add', { reference: uniqueNumber('PO'), purchaseOrderItems: [{ sku: 'PO-OTHER', quantity: 1 }] })).body,
    ).toEqual(skuNotFound(null, ['PO-OTHER']));
    expect((await sb.call('GET', '/v3/inboundPackingSlips', { token: client.token })).body.data.length).toBe(before);
  });
});

describe('red: nothing received', () => {
  it.each(bodyStyles)('changes reference, comment, expected date and items; quantity 0 deletes, a new sku is added (%s)', async (style) => {
    const id = await add();
    const reference = uniqueNumber('PO-NEW');
    const answer = await sendV2(
      sb,
      'POST',
      '/purchaseorder/edit',
      {
        purchaseOrderId: id,
        reference,
        comment: 'Changed',
        expectedDate: '2026-12-05T08:00:00Z',
        purchaseOrderItems: [
          { sku: 'PO-A', quantity: 12 },
          { sku: 'PO-B', quantity: 0 },
          { sku: 'PO-C', quantity: 4 },
        ],
      },
      client.token,
      style,
    );
    expect(answer.body).toEqual({ messageCode: 'OK', message: 'PurchaseOrder(Items) processed successfully.', result: id });
    expect((await slip(id)).body.data.attributes).toMatchObject({ reference, comments: 'Changed', expectedOn: '2026-12-05' });
    expect(await itemsOf(id)).toEqual([
      ['PO-A', 12],
      ['PO-C', 4],
    ]);
  });

  it.each(bodyStyles)('deletes items, then the whole order (%s)', async (style) => {
    const id = await add();
    const items = await sendV2(
      sb,
      'POST',
      '/purchaseorder/delete',
      { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-B' }] },
      client.token,
      style,
    );
    expect(items.body).toEqual({ messageCode: 'OK', message: 'PurchaseOrder(Items) deleted successfully.', result: id });
    expect(await itemsOf(id)).toEqual([['PO-A', 10]]);
    expect((await sendV2(sb, 'POST', '/purchaseorder/delete', { purchaseOrderId: id }, client.token, style)).body.result).toBe(id);
    expect((await slip(id)).status).toBe(404);
  });

  it('names unknown skus on edit and delete and changes nothing', async () => {
    const id = await add();
    expect(
      (await post('/purchaseorder/edit', { purchaseOrderId: id, comment: 'No', purchaseOrderItems: [{ sku: 'NOPE', quantity: 1 }] })).body,
    ).toEqual(skuNotFound(id, ['NOPE']));
    expect((await post('/purchaseorder/delete', { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-C' }] })).body).toEqual(
      skuNotFound(id, ['PO-C']),
    );
    expect((await slip(id)).body.data.attributes.comments).toBe('First');
    expect(await itemsOf(id)).toEqual([
      ['PO-A', 10],
      ['PO-B', 5],
    ]);
  });
});

describe('yellow: partly received', () => {
  it('changes only reference and comment; quantities not below what was received; adding allowed', async () => {
    const id = await add();
    expect((await receive(id, [{ sku: 'PO-A', quantity: 4 }])).status).toBe(201);
    const date = await post('/purchaseorder/edit', { purchaseOrderId: id, expectedDate: '2027-01-01T00:00:00Z' });
    expect(date.status).toBe(400);
    expect(date.body).toMatchObject({ messageCode: 'NOK', message: validation, result: [expect.stringContaining('ExpectedDate')] });
    const below = await post('/purchaseorder/edit', { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-A', quantity: 3 }] });
    expect(below.body).toMatchObject({ messageCode: 'NOK', message: validation, result: [expect.stringContaining('PO-A')] });
    const answer = await post('/purchaseorder/edit', {
      purchaseOrderId: id,
      comment: 'Late',
      purchaseOrderItems: [
        { sku: 'PO-A', quantity: 6 },
        { sku: 'PO-C', quantity: 2 },
      ],
    });
    expect(answer.body.messageCode).toBe('OK');
    expect((await slip(id)).body.data.attributes).toMatchObject({ comments: 'Late', expectedOn: '2026-12-01', status: 'IN_PROGRESS' });
    expect(await itemsOf(id)).toEqual([
      ['PO-A', 6],
      ['PO-B', 5],
      ['PO-C', 2],
    ]);
  });

  it('deleting items removes those without received goods and sets the others to the received quantity', async () => {
    const id = await add();
    await receive(id, [{ sku: 'PO-A', quantity: 4 }]);
    expect((await post('/purchaseorder/delete', { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-B' }] })).body.messageCode).toBe(
      'OK',
    );
    expect(await itemsOf(id)).toEqual([['PO-A', 10]]);
    // Setting the last item to what was received leaves everything received: the order is fully matched (green).
    expect(
      (await post('/purchaseorder/edit', { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-A', quantity: 0 }] })).body.messageCode,
    ).toBe('OK');
    expect(await itemsOf(id)).toEqual([['PO-A', 4]]);
    expect((await slip(id)).body.data.attributes.status).toBe('CHECKED');
  });

  it('deleting the order sets it to the received goods and completes it', async () => {
    const id = await add();
    await receive(id, [{ sku: 'PO-A', quantity: 4 }]);
    expect((await post('/purchaseorder/delete', { purchaseOrderId: id })).body).toEqual({
      messageCode: 'OK',
      message: 'PurchaseOrder(Items) deleted successfully.',
      result: id,
    });
    expect((await slip(id)).body.data.attributes.status).toBe('COMPLETED');
    expect(await itemsOf(id)).toEqual([['PO-A', 4]]);
    expect((await post('/purchaseorder/edit', { purchaseOrderId: id, comment: 'x' })).body).toEqual(
      failed(id, 'PurchaseOrder is already completed.'),
    );
  });
});

describe('green: complete', () => {
  it('a sandbox receipt turns the order yellow then green; green refuses every change', async () => {
    const id = await add();
    await receive(id, [{ sku: 'PO-A', quantity: 10 }]);
    expect((await post('/purchaseorder/edit', { purchaseOrderId: id, comment: 'still yellow' })).body.messageCode).toBe('OK');
    await receive(id);
    expect((await slip(id)).body.data.attributes.status).toBe('CHECKED');
    for (const [url, body] of [
      ['/purchaseorder/edit', { purchaseOrderId: id, comment: 'x' }],
      ['/purchaseorder/edit', { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-C', quantity: 1 }] }],
      ['/purchaseorder/delete', { purchaseOrderId: id }],
      ['/purchaseorder/delete', { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-A' }] }],
    ] as const) {
      const answer = await post(url, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(failed(id, 'PurchaseOrder is already completed.'));
    }
    expect((await slip(id)).body.data.attributes.comments).toBe('still yellow');
  });
});

describe('tenancy', () => {
  it("another client's purchase order id is not found, on both paths, and stays as it was", async () => {
    const id = await add();
    for (const [url, body] of [
      ['/purchaseorder/edit', { purchaseOrderId: id, comment: 'stolen' }],
      ['/v2/purchaseorder/edit', { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-A', quantity: 1 }] }],
      ['/purchaseorder/delete', { purchaseOrderId: id }],
      ['/v2/purchaseorder/delete', { purchaseOrderId: id, purchaseOrderItems: [{ sku: 'PO-A' }] }],
    ] as const) {
      const answer = await post(url, body, other.token);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(failed(id, 'PurchaseOrder ID not found.'));
    }
    expect((await post('/purchaseorder/edit', { purchaseOrderId: 2147483647, comment: 'x' })).body).toEqual(
      failed(2147483647, 'PurchaseOrder ID not found.'),
    );
    expect((await slip(id)).body.data.attributes.comments).toBe('First');
    expect(await itemsOf(id)).toEqual([
      ['PO-A', 10],
      ['PO-B', 5],
    ]);
  });
});
