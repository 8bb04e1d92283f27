// A small fixed pool of worker threads with a bounded queue. Each task has a deadline, after which its worker is
// terminated (and replaced on the next task), and each worker a bounded heap: a hostile file costs at most one worker
// for a few seconds, and many of them at once wait in a short queue or are turned away.
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { TaskResult, WorkerReply, WorkerTask } from './protocol.ts';

export interface PoolOptions {
  workerUrl: URL;
  workerData: unknown;
  /** Worker threads at most; they start on demand and stay. */
  size: number;
  /** Tasks waiting for a worker at most; one more is refused with PoolBusyError. */
  queueMax: number;
  /** Time a task may run in its worker, counted from when the worker has it. */
  deadlineMs: number;
  /** Time a new worker may take to load its modules (tsx, pdf-lib) before it counts as broken. */
  startupMs: number;
  resourceLimits: ResourceLimits;
}

/** The queue is full: the caller should answer "try again shortly". */
export class PoolBusyError extends Error {}

/** The task ran out of time or of heap; its worker was stopped. */
export class TaskLimitError extends Error {
  constructor(readonly limit: 'time' | 'memory') {
    super(`The task exceeded its ${limit} limit.`);
  }
}

/** The worker's answer, and the file's bytes, back from the worker. */
export interface Checked {
  result: TaskResult;
  bytes: Uint8Array;
}

interface Job {
  kind: WorkerTask['kind'];
  bytes: Uint8Array;
  /** The bytes may be handed to the worker (the caller takes them back with the answer) rather than copied. */
  lent: boolean;
  resolve(checked: Checked): void;
  reject(error: Error): void;
}

/** Bytes that are the whole of a (not shared) ArrayBuffer, so handing them over takes nothing else along. */
const ownsItsBuffer = (bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> =>
  bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job & { id: number };
  timer?: NodeJS.Timeout;
}

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly idle: Slot[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;

  constructor(private readonly options: PoolOptions) {}

  /** The worker's answer for a copy of `bytes`: the caller keeps its bytes as they are. */
  async run(kind: WorkerTask['kind'], bytes: Uint8Array): Promise<TaskResult> {
    return (await this.enqueue(kind, bytes, false)).result;
  }

  /**
   * The worker's answer for `bytes`, handed to it without a copy when they are the whole of their ArrayBuffer, and
   * handed back with the answer (`bytes` of the result): the caller's view is empty from when the worker has them, and
   * stays empty if the task fails (the file is then refused anyway). A 4.5 MiB upload's copy cost the request thread
   * 5 ms (a fresh allocation, page by page) and 4.5 MiB more memory outside V8's heap, whose growth starts its
   * collections (bench/RESULTS.md, findings).
   */
  lend(kind: WorkerTask['kind'], bytes: Uint8Array): Promise<Checked> {
    return this.enqueue(kind, bytes, true);
  }

  private enqueue(kind: WorkerTask['kind'], bytes: Uint8Array, lent: boolean): Promise<Checked> {
    const hasCapacity = this.idle.length > 0 || this.slots.size < this.options.size;
    if (!hasCapacity && this.waiting.length >= this.options.queueMax)
      return Promise.reject(new PoolBusyError('Too many files are being checked at once.'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ kind, bytes, lent, resolve, reject });
      this.pump();
    });
  }

  /** Stops every worker and refuses the waiting tasks. */
  async close(): Promise<void> {
    for (const job of this.waiting.splice(0)) job.reject(new Error('The pool is closed.'));
    await Promise.all([...this.slots].map((slot) => this.fail(slot, new Error('The pool is closed.'))));
  }

  private pump() {
    while (this.waiting.length) {
      const slot = this.idle.pop() ?? (this.slots.size < this.options.size ? this.spawn() : undefined);
      if (!slot) return;
      slot.job = { ...this.waiting.shift()!, id: this.nextId++ };
      if (slot.ready) this.send(slot);
    }
  }

  private spawn(): Slot {
    const { workerUrl, workerData, resourceLimits, startupMs } = this.options;
    // No inherited execArgv: the parent's loader flags (tsx, vitest) do not apply to a worker's entry anyway.
    const worker = new Worker(workerUrl, { workerData, execArgv: [], resourceLimits });
    // Idle workers must not keep the process alive; a running task is awaited by its request, which does.
    worker.unref();
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    slot.timer = setTimeout(
      () => void this.fail(slot, new Error(`The file-check worker did not start within ${startupMs} ms.`)),
      startupMs,
    );
    worker.on('message', (message: 'ready' | WorkerReply) => {
      if (message === 'ready') {
        clearTimeout(slot.timer);
        slot.ready = true;
        if (slot.job) this.send(slot);
        else this.release(slot);
        return;
      }
      const job = slot.job;
      if (!job || message.id !== job.id) return;
      clearTimeout(slot.timer);
      slot.job = undefined;
      job.resolve({ result: message.result, bytes: message.bytes });
      this.release(slot);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      void this.fail(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new TaskLimitError('memory') : error);
    });
    worker.on('exit', () => void this.fail(slot, new Error('The file-check worker stopped.')));
    return slot;
  }

  private send(slot: Slot) {
    const job = slot.job!;
    // Lent bytes that are a whole ArrayBuffer go as they are; otherwise a copy the worker owns (the caller keeps its
    // bytes, or they share a larger ArrayBuffer: a small Buffer from Node's pool, a part of a socket's chunk).
    const bytes = job.lent && ownsItsBuffer(job.bytes) ? job.bytes : new Uint8Array(job.bytes);
    slot.worker.postMessage({ id: job.id, kind: job.kind, bytes } satisfies WorkerTask, [bytes.buffer]);
    slot.timer = setTimeout(() => void this.fail(slot, new TaskLimitError('time')), this.options.deadlineMs);
  }

  private release(slot: Slot) {
    this.idle.push(slot);
    this.pump();
  }

  /** Takes the worker out of the pool, stops it and refuses its task; the next task starts a new worker. */
  private async fail(slot: Slot, error: Error) {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.timer);
    const index = this.idle.indexOf(slot);
    if (index >= 0) this.idle.splice(index, 1);
    slot.job?.reject(error);
    slot.job = undefined;
    this.pump();
    await slot.worker.terminate();
  }
}
