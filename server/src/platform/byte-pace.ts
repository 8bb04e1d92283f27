// A pace for bytes, per key (the API's clients): a token bucket that fills at `bytesPerSecond` up to `burstBytes`. A
// caller takes its bytes and is told how long to wait before going on; the bucket may go into debt, so callers of one
// key wait their turns one after another, and a caller that would wait longer than `maxWaitMs` takes nothing and is told
// when to come back. Nothing here knows what a key is or sleeps: the API's upload pace waits and answers 429.
//
// Why: a client uploading files at full speed took about half of the server's two cores (its bodies read and checked,
// its parts written) whatever the fair share of calls did, and another client's latency tripled (bench/RESULTS.md,
// section 8). A bound per client on the bytes it sends to be stored, far above what a shop's labels and images need,
// keeps one client's bulk upload from taking the machine.
//
// Written by hand: the rate limiters on npm count requests, not bytes, and answer at once instead of saying how long
// to wait; this is a dozen lines of arithmetic.

export type PaceAnswer = { waitMs: number } | { refusedForMs: number };

interface Bucket {
  /** Bytes available at `at` (negative: owed by callers already told to wait). */
  level: number;
  at: number;
}

export class BytePace {
  /** Keys whose bucket is not full, in the order they last took bytes (a Map keeps insertion order). */
  private readonly buckets = new Map<number, Bucket>();

  constructor(
    readonly bytesPerSecond: number,
    readonly burstBytes: number,
    readonly maxWaitMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    if (!(bytesPerSecond > 0) || !(burstBytes > 0) || !(maxWaitMs >= 0)) throw new Error('BytePace: rates and bounds must be positive');
  }

  /**
   * Takes `bytes` for `key`: how long the caller waits first (0 while the bucket holds them), or, when that would be
   * longer than maxWaitMs, nothing taken and how long until the bytes would be there without waiting that long.
   */
  take(key: number, bytes: number): PaceAnswer {
    const now = this.clock();
    this.forgetFull(now);
    const bucket = this.buckets.get(key);
    const level = bucket ? Math.min(this.burstBytes, bucket.level + ((now - bucket.at) * this.bytesPerSecond) / 1000) : this.burstBytes;
    const after = level - bytes;
    const waitMs = after < 0 ? (-after * 1000) / this.bytesPerSecond : 0;
    if (waitMs > this.maxWaitMs) return { refusedForMs: Math.ceil(waitMs - this.maxWaitMs) };
    // Taken: the key moves to the end of the order.
    this.buckets.delete(key);
    this.buckets.set(key, { level: after, at: now });
    return { waitMs };
  }

  /** Keys being paced (their bucket not yet full again): for tests and metrics. */
  get size(): number {
    return this.buckets.size;
  }

  /** Drops the buckets that have filled up again since they were last taken from: the oldest first, until one has not. */
  private forgetFull(now: number) {
    for (const [key, bucket] of this.buckets) {
      if (bucket.level + ((now - bucket.at) * this.bytesPerSecond) / 1000 < this.burstBytes) break;
      this.buckets.delete(key);
    }
  }
}
