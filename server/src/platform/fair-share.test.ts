import { describe, expect, it } from 'vitest';
import { afterPendingInput, FairShare, type Ticket } from './fair-share.ts';

/** Records the order in which tickets get their place. */
function recorder() {
  const order: string[] = [];
  const watch = (name: string, ticket: Ticket) => {
    if (ticket.state === 'held') order.push(name);
    else void ticket.granted!.then(() => order.push(name));
    return ticket;
  };
  return { order, watch };
}
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** Key 1's calls hold their place 80 ms, key 2's 10 ms. */
const costs = new Map([
  [1, 80],
  [2, 10],
]);

/** A share of one place on a clock the test moves. */
function timedShare() {
  let now = 0;
  return { share: new FairShare(1, () => now), advance: (ms: number) => (now += ms) };
}

/** Serves 90 calls, each for its key's cost and followed at once by a new call of its key; the keys in serving order. */
function serveRounds(share: FairShare, advance: (ms: number) => void, pending: Ticket[]): number[] {
  const served: number[] = [];
  for (let n = 0; n < 90; n++) {
    const held = pending.find((t) => t.state === 'held')!;
    served.push(held.key);
    advance(costs.get(held.key)!);
    share.give(held);
    pending.push(share.take(held.key));
  }
  return served;
}

describe('a fair share of places', () => {
  it('gives a freed place to the waiting key that has used the least time, not to the caller that asked first', async () => {
    let now = 0;
    const share = new FairShare(1, () => now);
    const { order, watch } = recorder();
    const a1 = watch('a1', share.take(1));
    const a2 = watch('a2', share.take(1));
    const a3 = watch('a3', share.take(1));
    const a4 = watch('a4', share.take(1));
    const b1 = watch('b1', share.take(2));
    const c1 = watch('c1', share.take(3));
    // Every call holds its place for 10 ms: with equal costs the keys take turns, a key that has used more waits.
    for (const ticket of [a1, b1, c1, a2, a3, a4]) {
      await settled();
      expect(ticket.state).toBe('held');
      now += 10;
      share.give(ticket);
    }
    await settled();
    // a had held a place for 10 ms when it freed: b and c, who had held none, came before a's second call.
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
    expect(share.state).toEqual({ taken: 0, waiting: 0, keysWaiting: 0, keysBusy: 0 });
  });

  it('shares the time, not the calls: a key whose calls take 8 times as long gets one in while the other gets about 8', async () => {
    const { share, advance } = timedShare();
    // Both keys always have two calls waiting (as two loops would).
    const served = serveRounds(share, advance, [share.take(1), share.take(1), share.take(2), share.take(2)]);
    const time = (key: number) => served.filter((k) => k === key).length * costs.get(key)!;
    // Each had about half of the time (within one heavy call), where turns by call would give the heavy key 8/9 of it.
    expect(Math.abs(time(1) - time(2))).toBeLessThanOrEqual(80);
    expect(served.filter((k) => k === 2).length).toBeGreaterThan(7 * served.filter((k) => k === 1).length);
  });

  it('remembers for a moment what a key used: a client calling in a loop, idle between its calls, still waits its share', async () => {
    const { share, advance } = timedShare();
    // Key 1 has one call at a time, the next asked right after the last ended; key 2 always has two.
    const served = serveRounds(share, advance, [share.take(2), share.take(1), share.take(2)]);
    // Starting level again at each call, key 1 would have had every other call: 8 times key 2's time.
    expect(served.filter((k) => k === 2).length).toBeGreaterThan(7 * served.filter((k) => k === 1).length);
  });

  it('starts a key that becomes busy level with the busy keys: it does not get the time it did not use', async () => {
    let now = 0;
    const share = new FairShare(1, () => now);
    // a works alone for a second; then b comes, with calls as long as a's.
    let held = share.take(1);
    for (let n = 0; n < 100; n++) {
      const next = share.take(1);
      now += 10;
      share.give(held);
      held = next;
    }
    const queue = [share.take(2), share.take(2), share.take(2), share.take(1), share.take(1), share.take(1)];
    const order: number[] = [];
    for (let n = 0; n < 6; n++) {
      now += 10;
      share.give(held);
      held = queue.find((t) => t.state === 'held')!;
      order.push(held.key);
    }
    // b's and a's calls take turns at once, where starting b at nothing would have given it a second of calls first.
    expect(order).toEqual([2, 1, 2, 1, 2, 1]);
  });

  it('holds as many places as it has, and a place given back twice is given back once', async () => {
    const share = new FairShare(2);
    const first = share.take(1);
    const second = share.take(2);
    const third = share.take(3);
    expect([first.state, second.state, third.state]).toEqual(['held', 'held', 'waiting']);
    share.give(first);
    share.give(first);
    await settled();
    expect(third.state).toBe('held');
    expect(share.state).toEqual({ taken: 2, waiting: 0, keysWaiting: 0, keysBusy: 2 });
    share.give(second);
    share.give(third);
    expect(share.state.taken).toBe(0);
    // With every place free again, the next caller holds one at once.
    expect(share.take(4).state).toBe('held');
  });

  it('forgets a waiting caller that gives up, and its turn goes to the next', async () => {
    const share = new FairShare(1);
    const held = share.take(1);
    const gone = share.take(2);
    const next = share.take(3);
    share.give(gone);
    expect(share.state).toEqual({ taken: 1, waiting: 1, keysWaiting: 1, keysBusy: 2 });
    share.give(held);
    await settled();
    expect(gone.state).toBe('done');
    expect(next.state).toBe('held');
  });

  it('lets nobody jump the queue: a newcomer waits while others wait, even at the moment a place frees', () => {
    const share = new FairShare(1);
    const held = share.take(1);
    const waiting = share.take(2);
    share.give(held);
    expect(waiting.state).toBe('held');
    expect(share.take(3).state).toBe('waiting');
  });

  it('makes its choice when the hand-over runs: callers that came before it are in the choice, a free place included', () => {
    let now = 0;
    const handOvers: (() => void)[] = [];
    const share = new FairShare(
      1,
      () => now,
      (next) => handOvers.push(next),
    );
    const runHandOver = () => handOvers.shift()!();
    // A free place: the caller waits for the hand-over (the place is taken for it, so nobody takes it outside the
    // choice), and a caller of another key that comes before the hand-over runs is in the choice.
    const a1 = share.take(1);
    const b1 = share.take(2);
    expect([a1.state, b1.state]).toEqual(['waiting', 'waiting']);
    expect(share.state).toEqual({ taken: 1, waiting: 2, keysWaiting: 2, keysBusy: 2 });
    runHandOver();
    // Equal accounts: in the order they came.
    expect([a1.state, b1.state]).toEqual(['held', 'waiting']);
    const a2 = share.take(1);
    now += 40;
    share.give(a1);
    // b's second call comes after a1 ended, before its place is handed on: b has used nothing, a 40 ms.
    const b2 = share.take(2);
    runHandOver();
    now += 5;
    share.give(b1);
    runHandOver();
    expect([b2.state, a2.state]).toEqual(['held', 'waiting']);
    share.give(b2);
    runHandOver();
    expect(a2.state).toBe('held');
    share.give(a2);
    expect(handOvers).toEqual([]);
    expect(share.state).toEqual({ taken: 0, waiting: 0, keysWaiting: 0, keysBusy: 0 });
  });

  it('hands over after the input that arrived meanwhile is read (afterPendingInput)', async () => {
    const { createServer, connect } = await import('node:net');
    const events: string[] = [];
    let handedOver!: () => void;
    const done = new Promise<void>((resolve) => (handedOver = resolve));
    let second: ReturnType<typeof connect>;
    // The first request's handler (an I/O callback, as a call is) keeps the thread while the second request arrives,
    // then hands over: the second is read before the hand-over runs.
    const server = createServer((socket) =>
      socket.on('data', (data) => {
        events.push(`read ${data}`);
        if (String(data) !== 'first') return;
        second.write('second');
        const until = performance.now() + 20;
        while (performance.now() < until);
        afterPendingInput(() => {
          events.push('hand-over');
          handedOver();
        });
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const first = connect(port, '127.0.0.1');
    second = connect(port, '127.0.0.1');
    await Promise.all([first, second].map((socket) => new Promise((resolve) => socket.on('connect', resolve))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.write('first');
    await done;
    for (const socket of [first, second]) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    // One turn of setImmediate from an I/O callback runs before the next poll: 'hand-over' before 'read second'.
    expect(events).toEqual(['read first', 'read second', 'hand-over']);
  });

  it("runs a turn's work in a place of its key, charged to it, and gives the place back when the work fails", async () => {
    let now = 0;
    const share = new FairShare(1, () => now);
    const held = share.take(2);
    const order: string[] = [];
    const turn = share.turnOf(1);
    const work = turn(async () => {
      order.push('work');
      now += 30;
      return 'done';
    });
    const next = share.take(2);
    await settled();
    // The place is key 2's: the work waits for it.
    expect(order).toEqual([]);
    share.give(held);
    expect(await work).toBe('done');
    expect(next.state).toBe('held');
    // Key 1 used 30 ms in its turn: with both waiting, key 2 (none used) goes first.
    const one = share.take(1);
    const two = share.take(2);
    share.give(next);
    expect([two.state, one.state]).toEqual(['held', 'waiting']);
    share.give(two);
    share.give(one);
    await expect(turn(() => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(share.state).toEqual({ taken: 0, waiting: 0, keysWaiting: 0, keysBusy: 0 });
  });

  it('refuses a share without places', () => {
    expect(() => new FairShare(0)).toThrow(/positive integer/);
  });
});
