import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, PageSizes } from 'pdf-lib';
import { storedFile } from '../src/platform/file-parts.ts';
import { fingerprint } from './support/fingerprint.ts';
import { startSandbox, type TestClient, type TestSandbox } from './support/sandbox.ts';
import { createProducts, orderDocument } from './support/fixtures.ts';
import { multipart } from './support/multipart.ts';

let sb: TestSandbox;
let client: TestClient;
let order: { id: number; attributes: { externalOrderNumber: string } };

async function pdf(pages: [number, number][]) {
  const document = await PDFDocument.create();
  for (const size of pages) document.addPage(size).drawText('Invoice', { x: 50, y: 50 });
  return Buffer.from(await document.save());
}

function attach(
  attributes: Record<string, unknown>,
  file: Buffer | undefined,
  opts: { relationships?: unknown; token?: string; dataText?: string } = {},
) {
  const data =
    opts.dataText ??
    JSON.stringify({ data: { type: 'orderAttachment', attributes, ...(opts.relationships ? { relationships: opts.relationships } : {}) } });
  const parts = [
    { name: 'data', value: data },
    ...(file ? [{ name: 'file', value: file, filename: 'invoice.pdf', contentType: 'application/pdf' }] : []),
  ];
  const { payload, contentType } = multipart(parts);
  return sb.call('POST', '/v3/orderAttachments', { token: opts.token ?? client.token, payload, headers: { 'content-type': contentType } });
}

beforeAll(async () => {
  sb = await startSandbox();
  client = await sb.newClient();
  await createProducts(sb, client.token, ['MUG']);
  order = (
    await sb.call('POST', '/v3/orders', { token: client.token, body: orderDocument(client, { items: [{ sku: 'MUG', quantity: 1 }] }) })
  ).body.data;
});
afterAll(() => sb.close());

describe('POST /v3/orderAttachments', () => {
  it('attaches a one-page A4 PDF by relationships.order and never returns its contents', async () => {
    const file = await pdf([PageSizes.A4]);
    const answer = await attach({ filename: 'invoice.pdf', contentType: 'application/pdf' }, file, {
      relationships: { order: { data: { type: 'order', id: String(order.id) } } },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({
      type: 'orderAttachment',
      attributes: {
        filename: 'invoice.pdf',
        contentType: 'application/pdf',
        printStrategy: 'REQUIRED',
        externalOrderNumber: order.attributes.externalOrderNumber,
      },
      relationships: { order: { data: { type: 'order', id: order.id } } },
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/content"|JVBER/);
    expect(await storedFile(sb.database.db, 'orderAttachment', answer.body.data.id)).toEqual(file);
    const read = await sb.call('GET', `/v3/orders/${order.id}`, { token: client.token });
    expect(read.body.data.relationships.orderAttachments.data).toEqual([{ type: 'orderAttachment', id: answer.body.data.id }]);
  });

  it('takes the data part as the resource itself too, as the spec describes it, not only as a whole document', async () => {
    const resource = {
      type: 'orderAttachment',
      attributes: { filename: 'label.pdf', contentType: 'application/pdf' },
      relationships: { order: { data: { type: 'order', id: String(order.id) } } },
    };
    const answer = await attach({}, await pdf([PageSizes.A4]), { dataText: JSON.stringify(resource) });
    expect(answer.status).toBe(201);
    expect(answer.body.data.attributes.filename).toBe('label.pdf');
    expect(answer.body.data.relationships.order.data.id).toBe(order.id);
    // Neither shape: still the documented 400.
    const neither = await attach({}, await pdf([PageSizes.A4]), { dataText: JSON.stringify({ attributes: resource.attributes }) });
    expect(neither.status).toBe(400);
  });

  it('attaches an A5 page (landscape too) by externalOrderNumber with BEST_EFFORT printing', async () => {
    const answer = await attach(
      {
        filename: 'card.pdf',
        contentType: 'application/pdf',
        printStrategy: 'BEST_EFFORT',
        externalOrderNumber: order.attributes.externalOrderNumber,
      },
      await pdf([[PageSizes.A5[1], PageSizes.A5[0]]]),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.data.attributes.printStrategy).toBe('BEST_EFFORT');
  });

  it('refuses a PDF with more than one page, a page that is not A4 or A5, and a file that is not a PDF', async () => {
    const attrs = { filename: 'x.pdf', contentType: 'application/pdf', externalOrderNumber: order.attributes.externalOrderNumber };
    const twoPages = await attach(attrs, await pdf([PageSizes.A4, PageSizes.A4]));
    expect(twoPages.status).toBe(400);
    expect(twoPages.body.errors[0].detail).toMatch(/one page/);
    const letter = await attach(attrs, await pdf([PageSizes.Letter]));
    expect(letter.status).toBe(400);
    expect(letter.body.errors[0].detail).toMatch(/A4 or A5/);
    const fake = await attach(attrs, Buffer.from('this is not a pdf, whatever its name says'));
    expect(fake.status).toBe(400);
    const broken = await attach(attrs, Buffer.from('%PDF-1.7\n garbage'));
    expect(broken.status).toBe(400);
  });

  it('accepts only application/pdf as contentType', async () => {
    const answer = await attach(
      { filename: 'x.png', contentType: 'image/png', externalOrderNumber: order.attributes.externalOrderNumber },
      await pdf([PageSizes.A4]),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].source.pointer).toBe('/data/attributes/contentType');
  });

  it('answers 404-5 for an unknown order id and 404-6 for an unknown externalOrderNumber', async () => {
    const file = await pdf([PageSizes.A4]);
    const byId = await attach({ filename: 'x.pdf', contentType: 'application/pdf' }, file, {
      relationships: { order: { data: { type: 'order', id: 777777 } } },
    });
    expect(byId.body.errors[0].code).toBe('404-5');
    const byNumber = await attach({ filename: 'x.pdf', contentType: 'application/pdf', externalOrderNumber: 'NO-SUCH-ORDER' }, file);
    expect(byNumber.body.errors[0].code).toBe('404-6');
  });

  it('answers 400 for a missing data or file part, bad JSON, or no way to find the order', async () => {
    const file = await pdf([PageSizes.A4]);
    expect(
      (
        await attach(
          { filename: 'x.pdf', contentType: 'application/pdf', externalOrderNumber: order.attributes.externalOrderNumber },
          undefined,
        )
      ).status,
    ).toBe(400);
    expect((await attach({}, file, { dataText: '{not json' })).status).toBe(400);
    expect((await attach({ filename: 'x.pdf', contentType: 'application/pdf' }, file)).status).toBe(400);
  });

  it('refuses a body that is not multipart with 415', async () => {
    const answer = await sb.call('POST', '/v3/orderAttachments', { token: client.token, body: { data: {} } });
    expect(answer.status).toBe(415);
  });

  it('refuses an attachment to a fulfilled order with 422-1 and stores nothing', async () => {
    const shipped = (
      await sb.call('POST', '/v3/orders', { token: client.token, body: orderDocument(client, { items: [{ sku: 'MUG', quantity: 1 }] }) })
    ).body.data;
    await sb.call('POST', `/sandbox/orders/${shipped.id}/ship`, { token: client.token });
    const before = await fingerprint(sb.database.db, client.id);
    // The digest covers the stored parts (the earlier attachments' ones), so a part written here would show.
    expect(before).toMatch(/file_parts=[1-9]/);
    const answer = await attach(
      { filename: 'x.pdf', contentType: 'application/pdf', externalOrderNumber: shipped.attributes.externalOrderNumber },
      await pdf([PageSizes.A4]),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].code).toBe('422-1');
    expect(await fingerprint(sb.database.db, client.id)).toBe(before);
  });

  it("another client's order is not found", async () => {
    const other = await sb.newClient();
    const answer = await attach(
      { filename: 'x.pdf', contentType: 'application/pdf', externalOrderNumber: order.attributes.externalOrderNumber },
      await pdf([PageSizes.A4]),
      { token: other.token },
    );
    expect(answer.body.errors[0].code).toBe('404-6');
  });
});
