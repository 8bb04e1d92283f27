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
  | { outcome: 'pdf'; pages: { width: number; height: number }[] }
  /** Decoding its streams went past PDF_DECODED_BYTES_MAX. */
  | { outcome: 'expands' }
  /** Reading it went past the deadline or the worker's heap. */
  | { outcome: 'tooComplex' }
  | { outcome: 'unreadable' };

/** The worker's answer, or undefined when the file went past the deadline or the worker's heap. */
async function run(kind: 'pdf' | 'fileType', bytes: Uint8Array): Promise<TaskResult | undefined> {
  try {
    return await files().run(kind, bytes);
  } catch (error) {
    if (error instanceof TaskLimitError) return undefined;
    throw error;
  }
}

/** The page sizes of a PDF, read with pdf-lib in a worker. Throws PoolBusyError when too many files wait. */
export async function readPdfPages(bytes: Uint8Array): Promise<PdfReading> {
  const result = await run('pdf', bytes);
  if (!result) return { outcome: 'tooComplex' };
  if (result.outcome === 'fileType') throw new Error('The worker answered a PDF with a file type.');
  return result;
}

/**
 * The type of a file from its magic numbers (file-type), read in a worker; undefined when unknown or when reading it
 * takes too long. Throws PoolBusyError when too many files wait.
 */
export async function detectFileType(bytes: Uint8Array): Promise<{ ext: string; mime: string } | undefined> {
  const result = await run('fileType', bytes);
  return result?.outcome === 'fileType' ? result.fileType : undefined;
}
