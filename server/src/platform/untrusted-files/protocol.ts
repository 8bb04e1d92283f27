// Messages between the pool and its worker threads, and the decoding budget both sides name.

/**
 * Bytes pdf-lib may decode while loading one document. Loading decodes object and cross-reference streams only (page
 * contents stay compressed); those of a one-page document are a few kilobytes, a compression bomb's are gigabytes.
 */
export const PDF_DECODED_BYTES_MAX = 32 * 1024 * 1024;

/** The bytes are the whole of their ArrayBuffer (transferred, not copied, on the way there and back). */
export type WorkerTask = { id: number; kind: 'pdf' | 'fileType'; bytes: Uint8Array<ArrayBuffer> };

export type TaskResult =
  | { outcome: 'pdf'; pages: { width: number; height: number }[] }
  | { outcome: 'fileType'; fileType: { ext: string; mime: string } | undefined }
  /** The PDF decodes to more than the worker's budget: a compression bomb, or close enough. */
  | { outcome: 'expands' }
  | { outcome: 'unreadable' };

/** The answer, with the task's bytes handed back (transferred, not copied). */
export type WorkerReply = { id: number; result: TaskResult; bytes: Uint8Array<ArrayBuffer> };
