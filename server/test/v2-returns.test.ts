import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { eq } from 'drizzle-orm';
import { schema } from '../src/platform/db/index.ts';
import { processReturnItems } from '../src/modules/returns/service.ts';
import { findClientByUsername } from '../src/modules/clients/service.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts } from './support/fixtures.ts';
import { bodyStyles, sendV2, v2Order } from './support/v2.ts';

let sb: TestSandbox;
let client: TestClient;
let other: TestClient;
let reasonId: number;
let returnMethodIds: number[];

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  other = await sb.newClient();
  await createProducts(sb, client.token, ['V2-MUG']);
  await createProducts(sb, other.token, ['V2-MUG']);
  const settings = (await sb.call('GET', '/settings/get', { token: client.token })).body.result;
  reasonId = settings.returnReasons[0].id;
  returnMethodIds = settings.returnShippingMethods.map((m: { id: number }) => m.id);
});
afterAll(() => sb.close());

async function shipped(owner = client) {
  const order = v2Order({ orderTypeId: owner.orderTypeIds[0], languageId: owner.languageIds[0] });
  const added = await sb.call('POST', '/order/add', { token: owner.token, body: order });
  const ship = await sb.call('POST', `/sandbox/orders/${added.body.result}/ship`, { token: owner.token });
  const item = ship.body.included.find((r: { type: string }) => r.type === 'shipmentItem');
  return {
    shipmentId: ship.body.data.id as number,
    shipmentItemId: item.id as number,
    externalOrderNumber: order.externalOrderNumber as string,
  };
}

describe('POST /v2/rma/add', () => {
  it.each(bodyStyles)('registers a return of shipped goods (%s)', async (style) => {
    const { shipmentId, shipmentItemId } = await shipped();
    const answer = await sendV2(
      sb,
      'POST',
      '/v2/rma/add',
      {
        shipmentId,
        remark: 'too small',
        externalReference: 'RET-1',
        rmaItems: [{ shipmentItemId, quantity: 1, returnReasonId: reasonId, externalReference: 'LINE-1', metadata: { Ticket: '42' } }],
      },
      client.token,
      style,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ messageCode: 'OK', message: 'RMA created.', result: expect.any(Number) });
    const [rma] = await sb.database.db.select().from(schema.returns).where(eq(schema.returns.id, answer.body.result));
    expect(rma).toMatchObject({ shipmentId, remark: 'too small', externalReference: 'RET-1' });
    const [item] = await sb.database.db.select().from(schema.returnItems).where(eq(schema.returnItems.returnId, rma.id));
    expect(item).toMatchObject({
      shipmentItemId,
      quantity: 1,
      returnReasonId: reasonId,
      externalReference: 'LINE-1',
      metadata: { Ticket: '42' },
    });
  });

  it("refuses more than was shipped, an unknown item, and another client's shipment, writing nothing", async () => {
    const mine = await shipped();
    const theirs = await shipped(other);
    const before = (await sb.database.db.select().from(schema.returns)).length;
    for (const body of [
      { shipmentId: mine.shipmentId, rmaItems: [{ shipmentItemId: mine.shipmentItemId, quantity: 3, returnReasonId: reasonId }] },
      { shipmentId: mine.shipmentId, rmaItems: [{ shipmentItemId: theirs.shipmentItemId, quantity: 1, returnReasonId: reasonId }] },
      { shipmentId: theirs.shipmentId, rmaItems: [{ shipmentItemId: theirs.shipmentItemId, quantity: 1, returnReasonId: reasonId }] },
    ]) {
      const answer = await sb.call('POST', '/rma/add', { token: client.token, body });
      expect(answer.status).toBe(400);
      expect(answer.body.messageCode).toBe('NOK');
    }
    expect((await sb.database.db.select().from(schema.returns)).length).toBe(before);
  });
});

describe('return labels', () => {
  it('answers a real one-page PDF label, base64, for the default and for a named return method', async () => {
    const { shipmentId, shipmentItemId } = await shipped();
    for (const url of [`/v2/returnlabel/get/${shipmentId}`, `/returnlabel/get/${shipmentId}/${returnMethodIds[1]}`]) {
      const answer = await sb.call('GET', url, { token: client.token });
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('Return label found.');
      const label = answer.body.result;
      expect(label).toMatchObject({
        mimeType: 'application/pdf',
        fileName: `return-label-${shipmentId}.pdf`,
        shipmentItemId,
        packageNumber: expect.stringMatching(/^3SRET/),
      });
      const bytes = Buffer.from(label.data, 'base64');
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    }
    const paperless = await sb.call('GET', `/v2/returnlabel/get/${shipmentId}/${returnMethodIds[1]}`, { token: client.token });
    expect(paperless.body.result.isPaperlessReturnShippingMethod).toBe(true);
  });

  it("answers 404 for another client's shipment, an unknown one, and an unknown return method", async () => {
    const theirs = await shipped(other);
    const mine = await shipped();
    for (const url of [
      `/v2/returnlabel/get/${theirs.shipmentId}`,
      '/v2/returnlabel/get/999999',
      `/v2/returnlabel/get/${mine.shipmentId}/999999`,
      `/v2/returnlabel/get/${mine.shipmentId}/abc`,
    ]) {
      const answer = await sb.call('GET', url, { token: client.token });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: '404 Not Found', error_description: 'The requested resource could not be found' });
    }
  });
});

describe('POST /v2/returnitem/get', () => {
  it('answers processed return items only, filtered by order and period, in every body style', async () => {
    const { shipmentId, shipmentItemId, externalOrderNumber } = await shipped();
    const rma = await sb.call('POST', '/v2/rma/add', {
      token: client.token,
      body: {
        shipmentId,
        externalReference: 'RET-9',
        rmaItems: [{ shipmentItemId, quantity: 2, returnReasonId: reasonId, metadata: { a: 'b' } }],
      },
    });
    const query = { externalOrderNumber };
    expect((await sendV2(sb, 'POST', '/v2/returnitem/get', query, client.token)).body.result).toEqual([]);
    const [item] = await sb.database.db.select().from(schema.returnItems).where(eq(schema.returnItems.returnId, rma.body.result));
    await processReturnItems(sb.database.db, await findClientByUsername(sb.database.db, client.username), rma.body.result, [
      { returnItemId: item.id, condition: 'DAMAGED', comment: 'broken' },
    ]);
    for (const style of bodyStyles) {
      const answer = await sendV2(sb, 'POST', '/returnitem/get', query, client.token, style);
      expect(answer.body.result).toEqual([
        expect.objectContaining({
          id: item.id,
          externalOrderNumber,
          sku: 'V2-MUG',
          quantity: 2,
          type: 'DAMAGED',
          returnReasonId: reasonId,
          returnReason: expect.any(String),
          comment: 'broken',
          reDeliver: false,
          orderType: client.orderTypeIds[0],
          processedByWarehouseAbbreviation: 'NR',
          rmaExternalReference: 'RET-9',
          rmaItemMetadata: { a: 'b' },
        }),
      ]);
    }
    expect(
      (
        await sb.call('POST', '/v2/returnitem/get', {
          token: client.token,
          form: { ExternalOrderNumber: externalOrderNumber, Starttime: '2020-01-01T00:00:00Z', Endtime: '2020-02-01T00:00:00Z' },
        })
      ).body.result,
    ).toEqual([]);
    expect(
      (await sb.call('POST', '/v2/returnitem/get', { token: other.token, form: { ExternalOrderNumber: externalOrderNumber } })).body.result,
    ).toEqual([]);
    const wrong = await sb.call('POST', '/v2/returnitem/get', { token: client.token, form: { Starttime: 'yesterday' } });
    expect(wrong.body).toEqual({
      messageCode: 'NOK',
      message: 'Unable to process request due to malformed contents',
      result: ["The value 'yesterday' is not valid for Starttime."],
    });
  });
});
