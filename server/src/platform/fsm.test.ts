import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.ts';
import { defineLifecycle, pathBetween } from './fsm.ts';

type Door = 'OPEN' | 'CLOSED' | 'LOCKED' | 'BROKEN';

/** A door: the normal path is listed first; BROKEN is a side exit and final. */
const door = defineLifecycle({
  transitions: {
    OPEN: ['CLOSED', 'BROKEN'],
    CLOSED: ['LOCKED', 'OPEN', 'BROKEN'],
    LOCKED: ['CLOSED'],
    BROKEN: [],
  } satisfies Record<Door, readonly Door[]>,
  created: 'door.installed',
  events: { CLOSED: 'door.closed', LOCKED: 'door.locked' },
});

/** The refusal a call throws, for asserting its code and detail. */
function refusal(call: () => unknown): DomainError {
  try {
    call();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('a lifecycle', () => {
  it('returns the event of the state a move enters, and none for a state without one', () => {
    expect(door.move('OPEN', 'CLOSED', 'Door 1')).toEqual(['door.closed']);
    expect(door.move('CLOSED', 'LOCKED', 'Door 1')).toEqual(['door.locked']);
    expect(door.move('CLOSED', 'OPEN', 'Door 1')).toEqual([]);
    expect(door.move('OPEN', 'BROKEN', 'Door 1')).toEqual([]);
  });

  it('refuses a move the table does not allow with 409, naming the subject and both states', () => {
    const error = refusal(() => door.move('LOCKED', 'OPEN', 'Door 7'));
    expect(error.status).toBe(409);
    expect(error.items).toHaveLength(1);
    expect(error.items[0]).toMatchObject({ code: '409', detail: 'Door 7 cannot move from LOCKED to OPEN.' });
    expect(refusal(() => door.move('BROKEN', 'OPEN', 'Door 7')).message).toBe('Door 7 cannot move from BROKEN to OPEN.');
    // Staying put is not a move either, unless the table lists it.
    expect(refusal(() => door.move('OPEN', 'OPEN', 'Door 7')).message).toBe('Door 7 cannot move from OPEN to OPEN.');
  });

  it('starts with the creation event, then the event of the first state', () => {
    expect(door.start('CLOSED')).toEqual(['door.installed', 'door.closed']);
    expect(door.start('OPEN')).toEqual(['door.installed']);
    const noCreation = defineLifecycle({ transitions: door.transitions, events: { OPEN: 'door.opened' } });
    expect(noCreation.start('OPEN')).toEqual(['door.opened']);
    expect(defineLifecycle({ transitions: door.transitions }).start('OPEN')).toEqual([]);
  });

  it('gives the next state on the normal path, and none in a final state', () => {
    expect(door.next('OPEN')).toBe('CLOSED');
    expect(door.next('CLOSED')).toBe('LOCKED');
    expect(door.next('LOCKED')).toBe('CLOSED');
    expect(door.next('BROKEN')).toBeUndefined();
  });

  it('walks the normal path step by step with the events of each step', () => {
    expect(door.walk('OPEN', 'LOCKED')).toEqual([
      { to: 'CLOSED', events: ['door.closed'] },
      { to: 'LOCKED', events: ['door.locked'] },
    ]);
    expect(door.walk('OPEN', 'OPEN')).toEqual([]);
  });

  it('refuses a walk the normal path never reaches, whether it ends or goes round', () => {
    expect(refusal(() => door.walk('OPEN', 'BROKEN')).message).toBe('Cannot move from OPEN to BROKEN.');
    expect(refusal(() => door.walk('BROKEN', 'OPEN')).status).toBe(409);
    expect(() => pathBetween(door.transitions, 'LOCKED', 'OPEN')).toThrow('Cannot move from LOCKED to OPEN.');
    expect(pathBetween(door.transitions, 'OPEN', 'LOCKED')).toEqual(['CLOSED', 'LOCKED']);
  });
});
