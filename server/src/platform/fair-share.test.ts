import { describe, expect, it } from 'vitest';
import { FairShare, type Ticket } from './fair-share.ts';

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

describe('a fair share of places', () => {
  it('gives a freed place to the keys waiting in turn, not to the caller that asked first', async () => {
    const share = new FairShare(1);
    const { order, watch } = recorder();
    const a1 = watch('a1', share.take(1));
    const a2 = watch('a2', share.take(1));
    const a3 = watch('a3', share.take(1));
    const a4 = watch('a4', share.take(1));
    const b1 = watch('b1', share.take(2));
    const c1 = watch('c1', share.take(3));
    for (const ticket of [a1, a2, b1, c1, a3, a4]) {
      await settled();
      expect(ticket.state).toBe('held');
      share.give(ticket);
    }
    await settled();
    // a was first in turn with a2; then b and c, each once, before a's third and fourth.
    expect(order).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'a4']);
    expect(share.state).toEqual({ taken: 0, waiting: 0, keysWaiting: 0 });
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
    expect(share.state).toEqual({ taken: 2, waiting: 0, keysWaiting: 0 });
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
    expect(share.state).toEqual({ taken: 1, waiting: 1, keysWaiting: 1 });
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

  it('refuses a share without places', () => {
    expect(() => new FairShare(0)).toThrow(/positive integer/);
  });
});
