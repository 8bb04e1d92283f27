// Hostile and large uploads, and a watch on GET /status while they are handled, over a real listening server.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createDeflate } from 'node:zlib';
import { PDFDocument, PageSizes } from 'pdf-lib';
import { checkAgainstOpenApi } from './openapi-check.ts';

export async function onePageA4Pdf(attachment?: Buffer): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.addPage(PageSizes.A4).drawText('Invoice', { x: 50, y: 50 });
  // An embedded file is a stream pdf-lib does not decode on load: it makes a large but harmless document.
  if (attachment) await document.attach(attachment, 'data.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/**
 * A valid one-page A4 PDF plus an incremental update that adds one unreferenced object stream (/Type /ObjStm,
 * /FlateDecode) of `inflatedBytes` zeros: deflate packs zeros about 1000:1, and pdf-lib decodes every object stream
 * it meets while loading.
 */
export async function pdfBomb(inflatedBytes: number): Promise<Buffer> {
  const base = await onePageA4Pdf();
  const text = base.toString('latin1');
  const previousXref = Number(/startxref\s+(\d+)/.exec(text)![1]);
  const size = Number(/\/Size (\d+)/.exec(text)![1]);
  const root = /\/Root (\d+ \d+ R)/.exec(text)![1];
  const stream = await deflatedZeros(inflatedBytes);
  const head = Buffer.from(
    `\n${size} 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`,
    'latin1',
  );
  const tail = Buffer.from('\nendstream\nendobj\n', 'latin1');
  const objectOffset = base.length + 1;
  const xrefOffset = base.length + head.length + stream.length + tail.length;
  const xref = `xref\n${size} 1\n${String(objectOffset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${size + 1} /Root ${root} /Prev ${previousXref} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([base, head, stream, tail, Buffer.from(xref, 'latin1')]);
}

/** Deflates `size` zeros a mebibyte at a time: the zeros themselves are never all in memory. */
function deflatedZeros(size: number): Promise<Buffer> {
  const mebibyte = Buffer.alloc(1024 * 1024);
  const zeros = Readable.from(
    (function* () {
      for (let left = size; left > 0; left -= mebibyte.length) yield left >= mebibyte.length ? mebibyte : mebibyte.subarray(0, left);
    })(),
  );
  return buffer(zeros.pipe(createDeflate({ level: 9 })));
}

/**
 * A PNG of `size` bytes in all: signature, header chunk, one IDAT chunk of random bytes (incompressible, like real
 * image data) and the end chunk. file-type reads the chunk structure, not the pixels, so it is a PNG to the server.
 */
export function largePng(size: number): Buffer {
  const signatureAndHeader = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  const end = Buffer.from('0000000049454e44ae426082', 'hex');
  const dataLength = size - signatureAndHeader.length - 12 - end.length;
  const dataHead = Buffer.alloc(8);
  dataHead.writeUInt32BE(dataLength);
  dataHead.write('IDAT', 4, 'latin1');
  return Buffer.concat([signatureAndHeader, dataHead, randomBytes(dataLength), Buffer.alloc(4), end]);
}

export interface HttpAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/** One request to the listening server, checked against the OpenAPI documents like every test answer. */
export async function httpCall(
  baseUrl: string,
  method: string,
  path: string,
  opts: { token?: string; payload?: Buffer; contentType?: string } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.contentType) headers['content-type'] = opts.contentType;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: opts.payload ? new Uint8Array(opts.payload) : undefined });
  const raw = await response.text();
  let body: unknown = raw;
  try {
    body = raw ? JSON.parse(raw) : undefined;
  } catch {
    // not JSON: the check says whether that was documented
  }
  checkAgainstOpenApi(method, path, response.status, response.headers.get('content-type') ?? '', body);
  return { status: response.status, body, headers: response.headers };
}

/**
 * Runs `during` while asking GET /status one request after another, and returns the slowest answer's time. Every
 * /status answer must be 200. The next request leaves as soon as one is answered: a pause between them would hide a
 * stall of the event loop that starts during the pause. The polling stops when `during` settles.
 */
export async function watchStatus<T>(baseUrl: string, during: () => Promise<T>): Promise<{ result: T; worstMs: number; samples: number }> {
  let done = false;
  const latencies: number[] = [];
  const polling = (async () => {
    while (!done) {
      const started = performance.now();
      const answer = await httpCall(baseUrl, 'GET', '/status');
      if (answer.status !== 200) throw new Error(`GET /status answered ${answer.status}`);
      latencies.push(performance.now() - started);
    }
  })();
  // Let the first /status go out before the upload starts.
  await sleep(20);
  try {
    const result = await during();
    return { result, worstMs: Math.max(...latencies), samples: latencies.length };
  } finally {
    done = true;
    await polling;
  }
}
