// A worker thread that reads untrusted files (PDF page sizes, image types) away from the request thread.
// The pool (pool.ts) bounds its heap and time; this file bounds what no heap limit sees: decoded PDF streams.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { fileTypeFromBuffer } from 'file-type';
import { PDF_DECODED_BYTES_MAX, type TaskResult, type WorkerReply, type WorkerTask } from './protocol.ts';

/** Bytes the decoders of the current document have allocated. */
let decodedBytes = 0;
let decodeBudgetExceeded = false;

// Every pdf-lib decoder (Flate, LZW, RunLength, ASCII85, ASCIIHex) grows its output through DecodeStream.ensureBuffer,
// and the decoded bytes are ArrayBuffers outside the V8 heap, which the worker's resourceLimits do not bound. The class
// is not exported, so it is taken from pdf-lib's own CommonJS module (the instance pdf-lib itself requires) and
// wrapped here, in this worker only. pdf-lib skips objects that fail to parse, so the flag, not the throw, decides.
// Both come from require(): an `import` of pdf-lib through tsx's loader would be another instance of its modules.
const require = createRequire(import.meta.url);
const { PDFDocument } = require('pdf-lib') as typeof import('pdf-lib');
interface DecodeStream {
  buffer: Uint8Array;
  ensureBuffer(requested: number): Uint8Array;
}
const { default: DecodeStream } = require('pdf-lib/cjs/core/streams/DecodeStream.js') as { default: { prototype: DecodeStream } };
const ensureBuffer = DecodeStream.prototype.ensureBuffer;
DecodeStream.prototype.ensureBuffer = function boundedEnsureBuffer(this: DecodeStream, requested: number) {
  const capacity = this.buffer.byteLength;
  // What a stream allocates (its buffer doubles) counts, before it is allocated.
  if (requested > capacity && decodedBytes + Math.max(requested, capacity * 2) - capacity > PDF_DECODED_BYTES_MAX) {
    decodeBudgetExceeded = true;
    throw new RangeError('Decoded PDF streams exceed the budget.');
  }
  const buffer = ensureBuffer.call(this, requested);
  decodedBytes += buffer.byteLength - capacity;
  return buffer;
};

// pdf-lib reports every damaged object it skips on the console; a hostile file can hold thousands of them.
console.log = () => undefined;
console.warn = () => undefined;

async function readPdf(bytes: Uint8Array): Promise<TaskResult> {
  decodedBytes = 0;
  decodeBudgetExceeded = false;
  try {
    const document = await PDFDocument.load(bytes, { updateMetadata: false });
    const pages = document.getPages().map((page) => page.getSize());
    return decodeBudgetExceeded ? { outcome: 'expands' } : { outcome: 'pdf', pages };
  } catch {
    return { outcome: decodeBudgetExceeded ? 'expands' : 'unreadable' };
  }
}

async function run(task: WorkerTask): Promise<TaskResult> {
  if (task.kind === 'pdf') return readPdf(task.bytes);
  const detected = await fileTypeFromBuffer(task.bytes);
  return { outcome: 'fileType', fileType: detected ? { ext: detected.ext, mime: detected.mime } : undefined };
}

const port = parentPort!;
port.on('message', async (task: WorkerTask) => {
  let result: TaskResult;
  try {
    result = await run(task);
  } catch {
    result = { outcome: 'unreadable' };
  }
  // The bytes go back as they came (the pool may have lent them): pdf-lib's views of them are not used after this.
  port.postMessage({ id: task.id, result, bytes: task.bytes } satisfies WorkerReply, [task.bytes.buffer]);
});
// The pool starts a task's deadline only now: module loading (tsx, pdf-lib) is not the file's time.
port.postMessage('ready');
