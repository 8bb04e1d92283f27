// Sends due webhook deliveries, signed the Standard Webhooks way, with retries and automatic deactivation, fairly between
// clients: no client's slow, hanging or numerous receivers can hold up another client's deliveries.
// At least once: a delivery is claimed with a lease (attempts + 1, next try after the lease) before it is sent, so a
// process that dies mid-delivery leaves it due again for any process; the same event id travels on every attempt.
import { limits } from '@shopapi/contract';
import type { Db } from '../../platform/db/index.ts';
import { send, signatureHeaders, type SendResult } from './delivery-attempt.ts';
import { book, claim, type Claimed, type Lane, laneKey, maxAttempts, type Outcome } from './delivery-queue.ts';
import { notifiedClient } from './outbox.ts';
export { deliveriesChannel } from './outbox.ts';
export { maxAttempts, retryDelaysSeconds } from './delivery-queue.ts';

export interface DispatcherOptions {
  allowPrivateTargets: boolean;
  /** The deadline of one attempt, connect to the answer's last byte read (limits.webhookAttemptTimeoutSeconds). */
  timeoutMs?: number;
  /**
   * How long a claimed delivery stays invisible to other dispatchers: its wait for a place of its client (at most one
   * deadline), its attempt (one more) and its booking. Longer than twice timeoutMs (checked), or a delivery still
   * waiting or in flight would be sent again by another process.
   */
  leaseMs?: number;
  /** Deliveries this process holds at once (being sent, or claimed and waiting for a place of their client). */
  concurrency?: number;
  /** Sends in flight at once for one client (it holds twice as many): its share, however many deliveries it has due. */
  perClientConcurrency?: number;
  /** Told the outcome of every attempt (metrics). */
  onAttempt?(delivered: boolean): void;
  /** Told of every claim statement run (metrics: the dispatcher's own work on the database). */
  onClaim?(): void;
}

export interface DispatchReport {
  attempted: number;
  delivered: number;
}

/** What a booking may take, beyond the wait for a place and the attempt itself, before the lease runs out. */
const bookingAllowanceMs = 10_000;
/** Bookings start at most this often: one transaction for many outcomes when it is busy, at once when it is quiet. */
const bookEveryMs = 100;

/** The shares of one process (the server's WEBHOOK_CONCURRENCY and WEBHOOK_CONCURRENCY_PER_CLIENT default to them). */
export const dispatcherDefaults = { concurrency: 128, perClientConcurrency: 8 } as const;

function withDefaults(opts: DispatcherOptions): Required<DispatcherOptions> {
  const timeoutMs = opts.timeoutMs ?? limits.webhookAttemptTimeoutSeconds * 1000;
  const options = {
    leaseMs: 2 * timeoutMs + bookingAllowanceMs,
    ...dispatcherDefaults,
    onAttempt: () => undefined,
    onClaim: () => undefined,
    ...opts,
    timeoutMs,
  };
  if (options.leaseMs <= 2 * options.timeoutMs)
    throw new Error(`leaseMs (${options.leaseMs}) must be longer than twice timeoutMs (${options.timeoutMs})`);
  if (options.concurrency < 1 || options.perClientConcurrency < 1)
    throw new Error('concurrency and perClientConcurrency must be at least 1: with none, nothing would ever be sent');
  return options;
}

async function attempt(d: Claimed, attemptedAt: Date, opts: Required<DispatcherOptions>): Promise<Outcome> {
  const headers = signatureHeaders(d.secret, d.eventId, d.body);
  let result: SendResult;
  try {
    result = await send(new URL(d.targetUrl), d.body, headers, opts);
  } catch (error) {
    result = { statusCode: null, durationMs: 0, error: (error as Error).message, responseBody: null };
  }
  const delivered = result.statusCode === 200;
  opts.onAttempt(delivered);
  return { delivery: d, attemptedAt, headers, result, delivered, givenUp: !delivered && d.attempts >= maxAttempts };
}

interface Pump {
  /**
   * Claims what is due now, if there is room (again right after the claim under way, if one is). Given the client whose
   * deliveries were committed, it claims nothing while that client already holds all it may: what is new of it is
   * claimed when one of its sends ends, and a claim now would only find other clients' deliveries, which wake it
   * themselves.
   */
  fill(forClient?: number): void;
  /** Claims nothing more from now on; what is held is still sent. */
  stop(): void;
  /** Resolves when nothing is being claimed, held or booked. */
  idle(): Promise<void>;
  report: DispatchReport;
}

/** What the engine holds of one client: deliveries being sent, and claimed ones waiting for one of its places. */
interface Held {
  sending: number;
  waiting: Claimed[];
}

/**
 * The dispatcher's engine. It sends at most `perClientConcurrency` deliveries of one client at once and holds at most
 * twice that many (claimed ahead, so its places never wait for a claim), and holds at most `concurrency` in all: a
 * delivery held can always start as soon as its client has a free place, so it waits at most one deadline (the lease
 * covers that, the attempt's own deadline and the booking). It never waits for a send before claiming more: a claim
 * runs whenever something may be due (a wake-up, the interval, a finished send); claims run one at a time, each taking
 * all the room freed meanwhile. A lane (one entity's events to one webhook) has one delivery held at a time, so its events go in the
 * order they happened. Outcomes are booked by one booking at a time, each taking every outcome that finished meanwhile,
 * at most every bookEveryMs.
 */
function pump(db: Db, opts: Required<DispatcherOptions>, clock: () => Date, onError: (error: unknown) => void): Pump {
  const report: DispatchReport = { attempted: 0, delivered: 0 };
  const heldPerClient = 2 * opts.perClientConcurrency;
  const clients = new Map<number, Held>();
  let held = 0;
  const busyLanes = new Map<string, Lane>();
  let claiming: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let finished: Outcome[] = [];
  let booking: Promise<void> | undefined;
  let bookingTimer: NodeJS.Timeout | undefined;
  let lastBookingAt = Number.NEGATIVE_INFINITY;
  let waiters: (() => void)[] = [];

  const settle = () => {
    if (claiming || booking || held || finished.length) return;
    for (const resolve of waiters) resolve();
    waiters = [];
  };

  const bookFinished = () => {
    if (booking || bookingTimer || !finished.length) return;
    const wait = lastBookingAt + bookEveryMs - performance.now();
    if (wait > 0) {
      bookingTimer = setTimeout(() => {
        bookingTimer = undefined;
        bookFinished();
      }, wait);
      return;
    }
    const taken = finished;
    finished = [];
    lastBookingAt = performance.now();
    booking = book(db, taken)
      .catch(onError)
      .finally(() => {
        booking = undefined;
        bookFinished();
        settle();
      });
  };

  /** Starts the client's waiting deliveries while it has free places. */
  const startWaiting = (clientId: number, client: Held) => {
    while (client.sending < opts.perClientConcurrency && client.waiting.length) {
      const d = client.waiting.shift()!;
      client.sending++;
      void attempt(d, clock(), opts).then((outcome) => attempted(clientId, client, d, outcome));
    }
  };

  const attempted = (clientId: number, client: Held, d: Claimed, outcome: Outcome) => {
    client.sending--;
    held--;
    busyLanes.delete(laneKey(d));
    report.attempted++;
    if (outcome.delivered) report.delivered++;
    finished.push(outcome);
    bookFinished();
    startWaiting(clientId, client);
    if (!client.sending && !client.waiting.length) clients.delete(clientId);
    // Room for more: claimed at once, or right after the claim under way, which then takes all that freed meanwhile.
    fill();
  };

  const hold = (d: Claimed) => {
    const client = clients.get(d.clientId) ?? { sending: 0, waiting: [] };
    clients.set(d.clientId, client);
    held++;
    busyLanes.set(laneKey(d), { webhookId: d.webhookId, entity: d.entity, entityId: d.entityId });
    client.waiting.push(d);
    startWaiting(d.clientId, client);
  };

  const holdsAll = (clientId: number) => {
    const client = clients.get(clientId);
    return client !== undefined && client.sending + client.waiting.length >= heldPerClient;
  };

  const fill = (forClient?: number) => {
    if (stopped || (forClient !== undefined && holdsAll(forClient))) return;
    if (claiming) {
      again = true;
      return;
    }
    const free = opts.concurrency - held;
    if (free <= 0) return;
    again = false;
    opts.onClaim();
    claiming = claim(db, {
      now: clock(),
      leaseMs: opts.leaseMs,
      free,
      perClient: heldPerClient,
      heldByClient: new Map([...clients].map(([id, client]) => [id, client.sending + client.waiting.length])),
      busyLanes: [...busyLanes.values()],
    })
      .then((claimed) => claimed.forEach(hold), onError)
      .finally(() => {
        claiming = undefined;
        if (again) fill();
        settle();
      });
  };

  return {
    fill,
    stop: () => {
      stopped = true;
    },
    idle: () =>
      new Promise((resolve) => {
        waiters.push(resolve);
        settle();
      }),
    report,
  };
}

/**
 * Sends every delivery due at `now` (real time; tests pass a later moment instead of waiting) and returns when they are
 * sent and booked: the engine of startDispatcher run to the end of what is due.
 */
export async function dispatchDue(db: Db, opts: DispatcherOptions, now = new Date()): Promise<DispatchReport> {
  const errors: unknown[] = [];
  const engine = pump(
    db,
    withDefaults(opts),
    () => now,
    (error) => errors.push(error),
  );
  engine.fill();
  await engine.idle();
  if (errors.length) throw errors[0];
  return engine.report;
}

export interface Dispatcher {
  /** Claims what is due now (new deliveries were committed, by `clientId` when it is known). */
  wake(clientId?: number): void;
  /** The listener of deliveriesChannel: wakes it for the client the notification names. */
  notified(payload: string): void;
  stop(): Promise<void>;
}

/**
 * Runs the dispatcher inside the server process: claims at once when woken (the outbox notifies on commit), whenever a
 * send ends, and every intervalMs for retries that fell due and for notifications that never came. stop() claims
 * nothing more and sends what the engine holds (each within two deadlines; dropping them would only make them wait out
 * their lease), then waits for their booking.
 */
export function startDispatcher(db: Db, opts: DispatcherOptions & { intervalMs: number; onError(error: unknown): void }): Dispatcher {
  const engine = pump(db, withDefaults(opts), () => new Date(), opts.onError);
  const timer = setInterval(() => engine.fill(), opts.intervalMs);
  timer.unref();
  return {
    wake: engine.fill,
    notified: (payload) => engine.fill(notifiedClient(payload)),
    async stop() {
      engine.stop();
      clearInterval(timer);
      await engine.idle();
    },
  };
}
