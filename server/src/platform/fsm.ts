// The one finite-state-machine helper every lifecycle runs on: a lifecycle is data (the allowed transitions, the normal
// path listed first, and the event emitted on entering a state), and its moves check that data and return the events
// they emit, so a caller emits what the move returned instead of looking events up beside it.
import { domainError } from './errors.ts';

export interface LifecycleDefinition<S extends string, E extends string> {
  /** The states each state may move to; the first choice is the next state on the normal path. */
  transitions: Record<S, readonly S[]>;
  /** The event emitted on entering a state (the same when the thing starts in that state). */
  events?: Partial<Record<S, E>>;
  /** The event emitted when the thing is created, before the event of the state it starts in. */
  created?: E;
}

/** One step of a walk: the state entered and the events entering it emits. */
export interface Step<S extends string, E extends string> {
  to: S;
  events: E[];
}

export interface Lifecycle<S extends string, E extends string> {
  readonly transitions: Readonly<Record<S, readonly S[]>>;
  readonly events: Readonly<Partial<Record<S, E>>>;
  /** The events of a thing created in `state`: the creation event, then the state's own. */
  start(state: S): E[];
  /**
   * Checks one move of `subject` (named in the refusal: "Shipment 12") and returns the events it emits. A move the table
   * does not allow is refused with 409 "<subject> cannot move from <from> to <to>."
   */
  move(from: S, to: S, subject: string): E[];
  /** The next state on the normal path (the table's first choice); undefined in a final state. */
  next(from: S): S | undefined;
  /**
   * Every step from `from` to `to` along the normal path, each with its events; none when already there. Refused with
   * 409 "Cannot move from <from> to <to>." when the normal path does not reach `to`.
   */
  walk(from: S, to: S): Step<S, E>[];
}

/** Every state from one to another along the table's first choices; throws when the target is unreachable. */
export function pathBetween<S extends string>(transitions: Record<S, readonly S[]>, from: S, to: S): S[] {
  const path: S[] = [];
  let current = from;
  while (current !== to) {
    const next = transitions[current][0];
    if (next === undefined || path.includes(next)) throw domainError('409', `Cannot move from ${from} to ${to}.`);
    path.push(next);
    current = next;
  }
  return path;
}

export function defineLifecycle<S extends string, E extends string = never>(definition: LifecycleDefinition<S, E>): Lifecycle<S, E> {
  const { transitions, created } = definition;
  const events: Partial<Record<S, E>> = definition.events ?? {};
  const entering = (state: S): E[] => {
    const event = events[state];
    return event === undefined ? [] : [event];
  };
  return {
    transitions,
    events,
    start: (state) => [...(created === undefined ? [] : [created]), ...entering(state)],
    move(from, to, subject) {
      if (!transitions[from].includes(to)) throw domainError('409', `${subject} cannot move from ${from} to ${to}.`);
      return entering(to);
    },
    next: (from) => transitions[from][0],
    walk: (from, to) => pathBetween(transitions, from, to).map((state) => ({ to: state, events: entering(state) })),
  };
}
