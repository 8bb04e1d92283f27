// A fixed number of places shared fairly between keys (the API's clients), by the time each key holds them: a place
// that frees goes to the waiting key that has used the least time since it became busy, so a key whose calls take
// 80 ms gets one call in while a key whose calls take 10 ms gets about eight, and each gets about half of the time.
// Counting calls instead (round robin), a neighbour's heavy calls (shipping an order: 80 statements in one
// transaction) took eight times the time of another client's light ones, turn for turn. A key's account starts level
// with the busy key that has used the least, and is forgotten when the key has no call held or waiting, so what is kept
// is bounded by the calls under way. Callers of one key are served in the order they came; keys with equal
// accounts in the order they started waiting. Nothing here knows what a key is: the API's fair-share plugin uses client
// ids.
//
// Written by hand: the semaphores on npm (async-sema, p-limit, async-mutex) serve their callers first in, first out,
// which is what makes one busy client wait everyone behind it, and none takes a key.

/** One caller's claim to a place: held at once, or waiting until `granted` resolves; done once given back. */
export interface Ticket {
  readonly key: number;
  state: 'held' | 'waiting' | 'done';
  /** When the ticket got its place (the share's clock), to charge its key for the time it held it. */
  since?: number;
  /** Resolves when a waiting ticket is granted its place (undefined for one held at once). */
  readonly granted?: Promise<void>;
}

interface Queued {
  ticket: Ticket;
  grant: () => void;
}

/** What the share knows of a busy key: its calls held or waiting, and the time it has held places (virtual ms). */
interface Account {
  calls: number;
  used: number;
}

export class FairShare {
  private taken = 0;
  /** The keys with callers waiting, in the order they started waiting (a Map keeps insertion order), each in order. */
  private readonly waiting = new Map<number, Queued[]>();
  private waitingCount = 0;
  /** Busy keys only: a key without a call held or waiting has none. */
  private readonly accounts = new Map<number, Account>();

  /** `clock`: milliseconds, for the time a place is held (tests give their own). */
  constructor(
    readonly places: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(places) || places < 1) throw new Error(`places must be a positive integer, not ${places}`);
  }

  /** A place for a caller of `key`: held at once when one is free and nobody waits, else waiting for its turn. */
  take(key: number): Ticket {
    const account = this.accounts.get(key);
    if (account) account.calls++;
    else this.accounts.set(key, { calls: 1, used: this.least() });
    if (this.taken < this.places && !this.waitingCount) {
      this.taken++;
      return { key, state: 'held', since: this.clock() };
    }
    let grant!: () => void;
    const ticket: Ticket = { key, state: 'waiting', granted: new Promise<void>((resolve) => (grant = resolve)) };
    const queue = this.waiting.get(key);
    if (queue) queue.push({ ticket, grant });
    else this.waiting.set(key, [{ ticket, grant }]);
    this.waitingCount++;
    return ticket;
  }

  /**
   * Gives the ticket back (a second call does nothing), its key charged for the time it held the place, which goes to
   * the waiting key that has used the least; a waiting ticket leaves its queue (its `granted` never resolves).
   */
  give(ticket: Ticket): void {
    const { state } = ticket;
    if (state === 'done') return;
    ticket.state = 'done';
    const account = this.accounts.get(ticket.key)!;
    if (state === 'held') account.used += this.clock() - ticket.since!;
    if (--account.calls === 0) this.accounts.delete(ticket.key);
    if (state === 'waiting') {
      const queue = this.waiting.get(ticket.key)!;
      queue.splice(
        queue.findIndex((q) => q.ticket === ticket),
        1,
      );
      if (!queue.length) this.waiting.delete(ticket.key);
      this.waitingCount--;
    } else {
      this.handOn();
    }
  }

  private handOn() {
    let chosen: number | undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const key of this.waiting.keys()) {
      const { used } = this.accounts.get(key)!;
      if (used < least) [chosen, least] = [key, used];
    }
    if (chosen === undefined) {
      this.taken--;
      return;
    }
    const queue = this.waiting.get(chosen)!;
    const first = queue.shift()!;
    // Behind the keys waiting with the same account: equal accounts take turns.
    this.waiting.delete(chosen);
    if (queue.length) this.waiting.set(chosen, queue);
    this.waitingCount--;
    first.ticket.state = 'held';
    first.ticket.since = this.clock();
    first.grant();
  }

  /** Where a key that becomes busy starts: level with the busy key that has used the least (idle time is not saved up). */
  private least(): number {
    let least = Number.POSITIVE_INFINITY;
    for (const { used } of this.accounts.values()) least = Math.min(least, used);
    return least === Number.POSITIVE_INFINITY ? 0 : least;
  }

  /** Places taken, callers waiting, and the keys with calls: for tests and metrics. */
  get state() {
    return { taken: this.taken, waiting: this.waitingCount, keysWaiting: this.waiting.size, keysBusy: this.accounts.size };
  }
}
