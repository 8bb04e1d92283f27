// A fixed number of places shared fairly between keys (the API's clients), by the time each key holds them: a place
// that frees goes to the waiting key that has used the least time since it became busy, so a key whose calls take
// 80 ms gets one call in while a key whose calls take 10 ms gets about eight, and each gets about half of the time.
// Counting calls instead (round robin), a neighbour's heavy calls (shipping an order: 80 statements in one
// transaction) took eight times the time of another client's light ones, turn for turn. A key's account starts level
// with the busy key that has used the least, so time it did not use is not saved up. A key whose calls all ended keeps
// what it used beyond the least for IDLE_MEMORY_MS (a client calling in a loop is idle between its calls, and would
// otherwise start level again each time), then is forgotten: what is kept is bounded by the calls of the last moment.
// Callers of one key are served in the order they came; keys with equal accounts in the order they started waiting.
// Every place, a free one too, is given by a hand-over the owner schedules (`handOver`): until it runs the place stays
// taken, and every caller that comes meanwhile is in its choice.
// Nothing here knows what a key is: the API's fair-share plugin uses client ids.
//
// Written by hand: the semaphores on npm (async-sema, p-limit, async-mutex) serve their callers first in, first out,
// which is what makes one busy client wait everyone behind it, and none takes a key.

/** One caller's claim to a place: waiting until `granted` resolves, then held; done once given back. */
export interface Ticket {
  readonly key: number;
  state: 'held' | 'waiting' | 'done';
  /** When the ticket got its place (the share's clock), to charge its key for the time it held it. */
  since?: number;
  /** Resolves when the ticket is granted its place (already resolved for one held on return from take). */
  readonly granted: Promise<void>;
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

/**
 * Runs `next` once the event loop has read the input that arrived meanwhile (two turns of setImmediate: the second
 * comes after a poll for input, wherever the first was scheduled from): the server's hand-over.
 *
 * Why: on the embedded database a call's statements run on the server's thread without giving it back, so while one
 * client's call runs, the other requests wait unread in their sockets, and once it ends they are read one by one, each
 * call run to its end before the next socket is read. Handed over at once, the place went to whichever request was
 * read first, nobody ever waited, and the choice by time never happened: the calls ran in the order they arrived.
 * Measured (bench/neighbours.ts, A creating and shipping in two loops, B reading and creating on four connections):
 * A held the one place 650-700 ms of every second, B 200-230 ms.
 */
export function afterPendingInput(next: () => void): void {
  setImmediate(() => setImmediate(next));
}

/**
 * Runs a piece of work in its caller's turn: when the work is done by something that holds no place (an upload's
 * statements, written one at a time), each piece takes a place for it and gives it back after, so its time counts in
 * its key's share like any call's.
 */
export type Turn = <T>(work: () => Promise<T>) => Promise<T>;

/** The work at once, for callers without a share. */
export const withoutTurns: Turn = (work) => work();

/** How long a key that has no call left keeps what it used beyond the least busy key's account. */
export const IDLE_MEMORY_MS = 1000;

export class FairShare {
  private taken = 0;
  /** The keys with callers waiting, in the order they started waiting (a Map keeps insertion order), each in order. */
  private readonly waiting = new Map<number, Queued[]>();
  private waitingCount = 0;
  /** Busy keys only: a key without a call held or waiting has none. */
  private readonly accounts = new Map<number, Account>();
  /** Keys whose calls all ended lately: what they used beyond the least busy key, until when it counts (in that order). */
  private readonly idle = new Map<number, { beyond: number; until: number }>();

  /**
   * `clock`: milliseconds, for the time a place is held (tests give their own). `handOver`: runs `next`, the choice of
   * the caller a place goes to, a free one or one given back (at once by default; the API passes afterPendingInput).
   */
  constructor(
    readonly places: number,
    private readonly clock: () => number = () => performance.now(),
    private readonly handOver: (next: () => void) => void = (next) => next(),
  ) {
    if (!Number.isInteger(places) || places < 1) throw new Error(`places must be a positive integer, not ${places}`);
  }

  /**
   * A place for a caller of `key`: it waits for its turn, which comes when `handOver` runs the choice (at once by
   * default, so with a place free it is held on return). `charge`: milliseconds of work the server did for the key
   * without a place (an upload's body, read and checked before its statements take turns), counted in its account as
   * if it had held one that long.
   */
  take(key: number, charge = 0): Ticket {
    const account = this.accounts.get(key);
    if (account) {
      account.calls++;
      account.used += charge;
    } else this.accounts.set(key, { calls: 1, used: this.least() + this.beyond(key) + charge });
    let grant!: () => void;
    const ticket: Ticket = { key, state: 'waiting', granted: new Promise<void>((resolve) => (grant = resolve)) };
    const queue = this.waiting.get(key);
    if (queue) queue.push({ ticket, grant });
    else this.waiting.set(key, [{ ticket, grant }]);
    this.waitingCount++;
    if (this.taken < this.places) {
      // The free place is taken for the choice, so callers that come before it is made wait and are in it.
      this.taken++;
      this.handOver(() => this.handOn());
    }
    return ticket;
  }

  /** `work` in a turn of `key`: a place taken for it, given back when it ends. The first turn carries `charge` (see take). */
  turnOf(key: number, charge = 0): Turn {
    let owed = charge;
    return async (work) => {
      const ticket = this.take(key, owed);
      owed = 0;
      try {
        await ticket.granted;
        return await work();
      } finally {
        this.give(ticket);
      }
    };
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
    if (--account.calls === 0) this.rest(ticket.key, account);
    if (state === 'waiting') {
      const queue = this.waiting.get(ticket.key)!;
      queue.splice(
        queue.findIndex((q) => q.ticket === ticket),
        1,
      );
      if (!queue.length) this.waiting.delete(ticket.key);
      this.waitingCount--;
    } else if (this.waitingCount) {
      // The place stays taken until it is handed on, so a caller that comes meanwhile waits and is in the choice.
      this.handOver(() => this.handOn());
    } else {
      this.taken--;
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

  /** A key whose calls all ended: no longer busy, what it used beyond the least busy key kept for IDLE_MEMORY_MS. */
  private rest(key: number, account: Account) {
    this.accounts.delete(key);
    const beyond = account.used - this.least();
    if (beyond > 0 && this.accounts.size) this.idle.set(key, { beyond, until: this.clock() + IDLE_MEMORY_MS });
  }

  /** What a key that becomes busy again used beyond the least, if it was busy within IDLE_MEMORY_MS; 0 otherwise. */
  private beyond(key: number): number {
    const now = this.clock();
    // Entries expire in the order they were made: drop the expired ones from the front.
    for (const [idleKey, { until }] of this.idle) {
      if (until > now) break;
      this.idle.delete(idleKey);
    }
    const remembered = this.idle.get(key);
    this.idle.delete(key);
    return remembered?.beyond ?? 0;
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
