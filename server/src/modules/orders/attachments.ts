// Order attachments: one-page A4 or A5 PDFs, checked by reading the document with pdf-lib (not by the file name) in a
// worker thread, with bounds on time, heap and decoded bytes: a compression bomb is refused, never waited for.
import { and, eq } from 'drizzle-orm';
import { limits } from '@shopapi/contract';
import { type Db, ownedBy, schema } from '../../platform/db/index.ts';
import { FILE_CHECK_DEADLINE_MS, PDF_DECODED_BYTES_MAX, PoolBusyError, readPdfPages } from '../../platform/untrusted-files/index.ts';
import { assertRoomFor, type QuotaBytes, storeFile } from '../../platform/file-parts.ts';
import type { Turn } from '../../platform/fair-share.ts';
import { assertNotFulfilled, requireOrder, type OrderRow } from './service.ts';
import { domainError, ProblemCollector } from '../../platform/errors.ts';

const { orders, orderAttachments } = schema;

/** Page sizes in PDF points (1/72 inch), portrait; landscape is accepted too. */
const pageFormats = { A4: [595.28, 841.89], A5: [419.53, 595.28] } as const;
const TOLERANCE = 3;

function formatOf(width: number, height: number): keyof typeof pageFormats | undefined {
  const [short, long] = width < height ? [width, height] : [height, width];
  return (Object.keys(pageFormats) as (keyof typeof pageFormats)[]).find(
    (f) => Math.abs(pageFormats[f][0] - short) <= TOLERANCE && Math.abs(pageFormats[f][1] - long) <= TOLERANCE,
  );
}

/**
 * Reads the PDF and returns its page format and its bytes (handed to the worker that reads it and back: `bytes` itself
 * is empty after), or throws a 400 that says what is wrong (at the path ['file']).
 */
export async function checkPdf(bytes: Buffer): Promise<{ pageFormat: string; file: Buffer }> {
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw domainError('400', 'The file is not a PDF document.', { path: ['file'] });
  let reading: Awaited<ReturnType<typeof readPdfPages>>;
  try {
    reading = await readPdfPages(bytes);
  } catch (error) {
    if (error instanceof PoolBusyError)
      throw domainError('503', 'Too many files are being checked at the moment; send the attachment again in a few seconds.');
    throw error;
  }
  // pdf-lib may fail while loading or only when walking a broken page tree: both are an unreadable PDF.
  if (reading.outcome === 'unreadable') throw domainError('400', 'The PDF document could not be read.', { path: ['file'] });
  if (reading.outcome === 'expands') {
    throw domainError(
      '400',
      `The PDF expands too much: its compressed streams decode to more than ${PDF_DECODED_BYTES_MAX / 1024 / 1024} MiB. Send a simpler document.`,
      { path: ['file'] },
    );
  }
  if (reading.outcome === 'tooComplex') {
    throw domainError(
      '400',
      `The PDF is too complex: reading it takes longer than ${FILE_CHECK_DEADLINE_MS / 1000} s or more memory than allowed. Send a simpler document.`,
      { path: ['file'] },
    );
  }
  const { pages } = reading;
  if (pages.length !== limits.attachmentMaxPages)
    throw domainError('400', `The PDF must have exactly one page; it has ${pages.length}.`, { path: ['file'] });
  const { width, height } = pages[0];
  const format = formatOf(width, height);
  if (!format)
    throw domainError('400', `The PDF page must be A4 or A5; it is ${Math.round(width)} x ${Math.round(height)} points.`, {
      path: ['file'],
    });
  return { pageFormat: format, file: reading.bytes };
}

export interface AttachmentInput {
  filename: string;
  contentType: 'application/pdf';
  printStrategy?: 'REQUIRED' | 'BEST_EFFORT';
  externalOrderNumber?: string;
  orderId?: number;
}

/** What is known of the client's attachment, with its order's number; never its contents. Another client's is not there. */
export async function findAttachment(db: Db, clientId: number, id: number) {
  const [row] = await db
    .select({
      id: orderAttachments.id,
      orderId: orderAttachments.orderId,
      filename: orderAttachments.filename,
      contentType: orderAttachments.contentType,
      printStrategy: orderAttachments.printStrategy,
      createdAt: orderAttachments.createdAt,
      externalOrderNumber: orders.externalOrderNumber,
    })
    .from(orderAttachments)
    .innerJoin(orders, eq(orders.id, orderAttachments.orderId))
    .where(and(ownedBy(orderAttachments, clientId), eq(orderAttachments.id, id)));
  return row;
}
export type AttachmentRow = NonNullable<Awaited<ReturnType<typeof findAttachment>>>;

/**
 * Problems name their place by a path into the input; the file's by ['file'], a missing order by [] (the whole input).
 * The file counts towards the client's storage quota (a 413 when it does not fit). Its storing runs in the client's
 * turns (`turn`: the API's fair share).
 */
export async function addAttachment(db: Db, clientId: number, input: AttachmentInput, file: Buffer, quota: QuotaBytes, turn?: Turn) {
  const problems = new ProblemCollector();
  if (input.orderId === undefined && !input.externalOrderNumber)
    problems.add('400', 'Identify the order by relationships.order or by externalOrderNumber.', { path: [] });
  problems.throwIfAny();

  let order: OrderRow | undefined;
  if (input.orderId !== undefined) {
    order = await requireOrder(db, clientId, input.orderId);
    if (input.externalOrderNumber && input.externalOrderNumber !== order.externalOrderNumber) {
      throw domainError('400', 'externalOrderNumber does not belong to the order in relationships.order.', {
        path: ['externalOrderNumber'],
      });
    }
  } else {
    [order] = await db
      .select()
      .from(orders)
      .where(and(ownedBy(orders, clientId), eq(orders.externalOrderNumber, input.externalOrderNumber!)));
    if (!order)
      throw domainError('404-6', `No order with externalOrderNumber "${input.externalOrderNumber}".`, {
        path: ['externalOrderNumber'],
      });
  }
  assertNotFulfilled(order, '422-1');
  await assertRoomFor(db, clientId, file.length, quota);
  const { pageFormat, file: checked } = await checkPdf(file);
  const upload = { clientId, owner: 'orderAttachment', bytes: checked, quota, turn } as const;
  const row = await storeFile(db, upload, async (tx) => {
    const [inserted] = await tx
      .insert(orderAttachments)
      .values({
        clientId,
        orderId: order.id,
        filename: input.filename,
        contentType: input.contentType,
        printStrategy: input.printStrategy ?? 'REQUIRED',
        pageFormat,
      })
      .returning({ id: orderAttachments.id, createdAt: orderAttachments.createdAt });
    return { ownerId: inserted.id, result: inserted };
  });
  return { id: row.id, createdAt: row.createdAt, order, printStrategy: input.printStrategy ?? 'REQUIRED' };
}
