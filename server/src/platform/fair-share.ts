// A fixed number of places shared fairly between keys (the API's clients): a place that frees goes to the keys waiting
// in turn, round robin, so a key with many callers waiting takes one place per turn like a key with one. Callers of one
// key are served in the order they came. Nothing here knows what a key is: the API's fair-share plugin uses client ids.
//
// Written by hand: the semaphores on npm (async-sema, p-limit, async-mutex) serve their callers first in, first out,
// which is what makes one busy client wait everyone behind it, and none takes a key.

/** One caller's claim to a place: held at once, or waiting until `granted` resolves; done once given back. */
export interface Ticket {
  readonly key: number;
  state: 'held' | 'waiting' | 'done';
  /** Resolves when a waiting ticket is granted its place (undefined for one held at once). */
  readonly granted?: Promise<void>;
}

interface Queued {
  ticket: Ticket;
  grant: () => void;
}

export class FairShare {
  private taken = 0;
  /** The keys with callers waiting, in turn order (a Map keeps insertion order), each with its callers in order. */
  private readonly waiting = new Map<number, Queued[]>();
  private waitingCount = 0;

  constructor(readonly places: number) {
    if (!Number.isInteger(places) || places < 1) throw new Error(`places must be a positive integer, not ${places}`);
  }

  /** A place for a caller of `key`: held at once when one is free and nobody waits, else waiting for its turn. */
  take(key: number): Ticket {
    if (this.taken < this.places && !this.waitingCount) {
      this.taken++;
      return { key, state: 'held' };
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
   * Gives the ticket back (a second call does nothing): a held place goes to the first caller of the key whose turn it
   * is, which then goes to the end of the turn; a waiting ticket leaves its queue (its `granted` never resolves).
   */
  give(ticket: Ticket): void {
    const { state } = ticket;
    ticket.state = 'done';
    if (state === 'waiting') {
      const queue = this.waiting.get(ticket.key)!;
      queue.splice(
        queue.findIndex((q) => q.ticket === ticket),
        1,
      );
      if (!queue.length) this.waiting.delete(ticket.key);
      this.waitingCount--;
    } else if (state === 'held') {
      this.handOn();
    }
  }

  private handOn() {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.taken--;
      return;
    }
    const [key, queue] = next.value;
    const first = queue.shift()!;
    this.waiting.delete(key);
    if (queue.length) this.waiting.set(key, queue);
    this.waitingCount--;
    first.ticket.state = 'held';
    first.grant();
  }

  /** Places taken and callers waiting: for tests and metrics. */
  get state() {
    return { taken: this.taken, waiting: this.waitingCount, keysWaiting: this.waiting.size };
  }
}
