// Order attachments: one-page A4 or A5 PDFs, checked by reading the document with pdf-lib (not by the file name).
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { limits } from '@shopapi/contract';
import { schema, type Db } from '../../db/index.ts';
import { apiError, ErrorCollector } from '../../http/errors.ts';
import { assertNotFulfilled, requireOrder } from './service.ts';

const { orders, orderAttachments } = schema;

/** Page sizes in PDF points (1/72 inch), portrait; landscape is accepted too. */
const pageFormats = { A4: [595.28, 841.89], A5: [419.53, 595.28] } as const;
const TOLERANCE = 3;

function formatOf(width: number, height: number): keyof typeof pageFormats | undefined {
  const [short, long] = width < height ? [width, height] : [height, width];
  return (Object.keys(pageFormats) as (keyof typeof pageFormats)[])
    .find((f) => Math.abs(pageFormats[f][0] - short) <= TOLERANCE && Math.abs(pageFormats[f][1] - long) <= TOLERANCE);
}

/** Reads the PDF and returns its page format, or throws a 400 that says what is wrong. */
export async function checkPdf(bytes: Buffer): Promise<string> {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw apiError('400', 'The file is not a PDF document.', { pointer: '/file' });
  // pdf-lib may fail while loading or only when walking a broken page tree: both are an unreadable PDF.
  let pages: { width: number; height: number }[];
  try {
    const document = await PDFDocument.load(bytes, { updateMetadata: false });
    pages = document.getPages().map((page) => page.getSize());
  } catch {
    throw apiError('400', 'The PDF document could not be read.', { pointer: '/file' });
  }
  if (pages.length !== limits.attachmentMaxPages) throw apiError('400', `The PDF must have exactly one page; it has ${pages.length}.`, { pointer: '/file' });
  const { width, height } = pages[0];
  const format = formatOf(width, height);
  if (!format) throw apiError('400', `The PDF page must be A4 or A5; it is ${Math.round(width)} x ${Math.round(height)} points.`, { pointer: '/file' });
  return format;
}

export interface AttachmentInput {
  filename: string;
  contentType: 'application/pdf';
  printStrategy?: 'REQUIRED' | 'BEST_EFFORT';
  externalOrderNumber?: string;
  orderId?: number;
}

export async function addAttachment(db: Db, clientId: number, input: AttachmentInput, file: Buffer) {
  const problems = new ErrorCollector();
  if (input.orderId === undefined && !input.externalOrderNumber) problems.add('400', 'Identify the order by relationships.order or by externalOrderNumber.', { pointer: '/data' });
  problems.throwIfAny();

  let order;
  if (input.orderId !== undefined) {
    order = await requireOrder(db, clientId, input.orderId);
    if (input.externalOrderNumber && input.externalOrderNumber !== order.externalOrderNumber) {
      throw apiError('400', 'externalOrderNumber does not belong to the order in relationships.order.', { pointer: '/data/attributes/externalOrderNumber' });
    }
  } else {
    [order] = await db.select().from(orders).where(and(eq(orders.clientId, clientId), eq(orders.externalOrderNumber, input.externalOrderNumber!)));
    if (!order) throw apiError('404-6', `No order with externalOrderNumber "${input.externalOrderNumber}".`, { pointer: '/data/attributes/externalOrderNumber' });
  }
  assertNotFulfilled(order, '422-1');
  const pageFormat = await checkPdf(file);
  const [row] = await db.insert(orderAttachments).values({
    clientId, orderId: order.id, filename: input.filename, contentType: input.contentType,
    printStrategy: input.printStrategy ?? 'REQUIRED', content: file, pageFormat,
  }).returning({ id: orderAttachments.id, createdAt: orderAttachments.createdAt });
  return { id: row.id, createdAt: row.createdAt, order, printStrategy: input.printStrategy ?? 'REQUIRED' };
}
