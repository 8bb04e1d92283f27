// Reads untrusted files (PDF page sizes, image types) in a small pool of worker threads, so a hostile or merely large
// file never blocks the request thread. The answers say what the file is; the callers turn them into API errors.
import { availableParallelism } from 'node:os';
import { PoolBusyError, TaskLimitError, WorkerPool } from './pool.ts';
import { PDF_DECODED_BYTES_MAX, type TaskResult } from './protocol.ts';

export { PoolBusyError, TaskLimitError, WorkerPool, PDF_DECODED_BYTES_MAX };

/** Time one file may take in its worker; a one-page PDF or a 10 MiB image takes milliseconds to a few hundred. */
export const FILE_CHECK_DEADLINE_MS = 5_000;
/** Heap of one worker. Decoded PDF streams live outside it and have their own budget (PDF_DECODED_BYTES_MAX). */
export const FILE_CHECK_HEAP_MB = 128;
/** Files waiting for a worker at most; beyond, the upload is refused with 503 (the bodies wait in memory). */
export const FILE_CHECK_QUEUE_MAX = 8;

/** The worker thread: the server's TypeScript runs through tsx (npm start, the CLI) or vitest; the bootstrap brings tsx. */
export const fileCheckWorker = {
  workerUrl: new URL('./bootstrap.mjs', import.meta.url),
  workerData: { entry: new URL('./worker.ts', import.meta.url).href },
};

let pool: WorkerPool | undefined;
// Started on the first file: a process that never receives one never starts a worker.
const files = () =>
  (pool ??= new WorkerPool({
    ...fileCheckWorker,
    // One core stays with the request thread.
    size: Math.max(1, Math.min(2, availableParallelism() - 1)),
    queueMax: FILE_CHECK_QUEUE_MAX,
    deadlineMs: FILE_CHECK_DEADLINE_MS,
    startupMs: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: FILE_CHECK_HEAP_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  }));

export type PdfReading =
  /** Its pages, and its bytes back from the worker. */
  | { outcome: 'pdf'; pages: { width: number; height: number }[]; bytes: Buffer }
  /** Decoding its streams went past PDF_DECODED_BYTES_MAX. */
  | { outcome: 'expands' }
  /** Reading it went past the deadline or the worker's heap. */
  | { outcome: 'tooComplex' }
  | { outcome: 'unreadable' };

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The worker's answer, or undefined when the file went past the deadline or the worker's heap. The file is handed to the
 * worker without a copy: the Buffer given is empty from then on, and the bytes come back with the answer.
 */
async function lend(kind: 'pdf' | 'fileType', bytes: Buffer): Promise<{ result: TaskResult; bytes: Buffer } | undefined> {
  try {
    const checked = await files().lend(kind, bytes);
    return { result: checked.result, bytes: asBuffer(checked.bytes) };
  } catch (error) {
    if (error instanceof TaskLimitError) return undefined;
    throw error;
  }
}

/**
 * The page sizes of a PDF, read with pdf-lib in a worker; a readable one with its bytes, handed to the worker and back
 * (the Buffer given is empty after). Throws PoolBusyError when too many files wait.
 */
export async function readPdfPages(bytes: Buffer): Promise<PdfReading> {
  const checked = await lend('pdf', bytes);
  if (!checked) return { outcome: 'tooComplex' };
  const { result } = checked;
  if (result.outcome === 'fileType') throw new Error('The worker answered a PDF with a file type.');
  return result.outcome === 'pdf' ? { ...result, bytes: checked.bytes } : result;
}

/**
 * The type of a file from its magic numbers (file-type), read in a worker, with the file's bytes handed to the worker
 * and back (the Buffer given is empty after); undefined when unknown or when reading it takes too long. Throws
 * PoolBusyError when too many files wait.
 */
export async function detectFileType(bytes: Buffer): Promise<{ ext: string; mime: string; bytes: Buffer } | undefined> {
  const checked = await lend('fileType', bytes);
  if (checked?.result.outcome !== 'fileType' || !checked.result.fileType) return undefined;
  return { ...checked.result.fileType, bytes: checked.bytes };
}
