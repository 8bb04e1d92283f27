// Sends due webhook deliveries, signed the Standard Webhooks way, with retries and automatic deactivation, fairly between
// clients: no client's slow, hanging or numerous receivers can hold up another client's deliveries.
// At least once: a delivery is claimed with a lease (attempts + 1, next try after the lease) before it is sent, so a
// process that dies mid-delivery leaves it due again for any process; the same event id travels on every attempt.
import { limits } from '@shopapi/contract';
import type { Db } from '../../platform/db/index.ts';
import { send, signatureHeaders, type SendResult } from './delivery-attempt.ts';
import { book, claim, type Claimed, type Lane, laneKey, maxAttempts, type Outcome } from './delivery-queue.ts';
export { deliveriesChannel } from './outbox.ts';
export { maxAttempts, retryDelaysSeconds } from './delivery-queue.ts';

export interface DispatcherOptions {
  allowPrivateTargets: boolean;
  /** The deadline of one attempt, connect to the answer's last byte read (limits.webhookAttemptTimeoutSeconds). */
  timeoutMs?: number;
  /**
   * How long a claimed delivery stays invisible to other dispatchers: the deadline and the time its outcome may wait to
   * be booked. Longer than timeoutMs (checked), or a delivery still in flight would be sent again by another process.
   */
  leaseMs?: number;
  /** Sends in flight at once in this process. */
  concurrency?: number;
  /** Sends in flight at once for one client: its share of the dispatcher, however many deliveries it has due. */
  perClientConcurrency?: number;
  /** Told the outcome of every attempt (metrics). */
  onAttempt?(delivered: boolean): void;
}

export interface DispatchReport {
  attempted: number;
  delivered: number;
}

/** What a booking may take beyond the attempt's deadline before the lease runs out. */
const bookingAllowanceMs = 10_000;
/** Bookings start at most this often: one transaction for many outcomes when it is busy, at once when it is quiet. */
const bookEveryMs = 100;

/** The shares of one process (the server's WEBHOOK_CONCURRENCY and WEBHOOK_CONCURRENCY_PER_CLIENT default to them). */
export const dispatcherDefaults = { concurrency: 128, perClientConcurrency: 16 } as const;

function withDefaults(opts: DispatcherOptions): Required<DispatcherOptions> {
  const timeoutMs = opts.timeoutMs ?? limits.webhookAttemptTimeoutSeconds * 1000;
  const options = {
    leaseMs: timeoutMs + bookingAllowanceMs,
    ...dispatcherDefaults,
    onAttempt: () => undefined,
    ...opts,
    timeoutMs,
  };
  if (options.leaseMs <= options.timeoutMs)
    throw new Error(`leaseMs (${options.leaseMs}) must be longer than timeoutMs (${options.timeoutMs})`);
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
  /** Claims what is due now, if there are free slots (again right after the claim under way, if one is). */
  fill(): void;
  /** Claims nothing more from now on. */
  stop(): void;
  /** Resolves when nothing is being claimed, sent or booked. */
  idle(): Promise<void>;
  report: DispatchReport;
}

/**
 * The dispatcher's engine. It keeps up to `concurrency` sends in flight, at most `perClientConcurrency` of one client,
 * and never waits for a send before claiming more: a claim runs whenever something may be due (a wake-up, the interval,
 * a client's sends half finished). A lane (one entity's events to one webhook) has one send at a time, so its events
 * go in the order they happened. Outcomes are booked by one booking at a time, each taking every outcome that finished
 * meanwhile, at most every bookEveryMs.
 */
function pump(db: Db, opts: Required<DispatcherOptions>, clock: () => Date, onError: (error: unknown) => void): Pump {
  const report: DispatchReport = { attempted: 0, delivered: 0 };
  let sending = 0;
  const sendingByClient = new Map<number, number>();
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
    if (claiming || booking || sending || finished.length) return;
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

  const start = (d: Claimed) => {
    const key = laneKey(d);
    sending++;
    sendingByClient.set(d.clientId, (sendingByClient.get(d.clientId) ?? 0) + 1);
    busyLanes.set(key, { webhookId: d.webhookId, entity: d.entity, entityId: d.entityId });
    void attempt(d, clock(), opts).then((outcome) => {
      const wasFull = sending >= opts.concurrency;
      sending--;
      const left = (sendingByClient.get(d.clientId) ?? 1) - 1;
      if (left) sendingByClient.set(d.clientId, left);
      else sendingByClient.delete(d.clientId);
      busyLanes.delete(key);
      report.attempted++;
      if (outcome.delivered) report.delivered++;
      finished.push(outcome);
      bookFinished();
      // A claim per finished send would cost more than the sends (a client draining a backlog would claim for every
      // one): its client claims again once half its share is free; anyone may when every slot was taken.
      if (wasFull || left <= opts.perClientConcurrency / 2) fill();
    });
  };

  const fill = () => {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    const free = opts.concurrency - sending;
    if (free <= 0) return;
    again = false;
    claiming = claim(db, {
      now: clock(),
      leaseMs: opts.leaseMs,
      free,
      perClient: opts.perClientConcurrency,
      sendingByClient,
      busyLanes: [...busyLanes.values()],
    })
      .then((claimed) => claimed.forEach(start), onError)
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
  /** Claims what is due now (new deliveries were committed). */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Runs the dispatcher inside the server process: claims at once when woken (the outbox notifies on commit), whenever a
 * send ends, and every intervalMs for retries that fell due and for notifications that never came. stop() claims
 * nothing more and waits for the sends in flight (each ends by its deadline; cutting them off would only make them wait
 * out their lease) and their booking.
 */
export function startDispatcher(db: Db, opts: DispatcherOptions & { intervalMs: number; onError(error: unknown): void }): Dispatcher {
  const engine = pump(db, withDefaults(opts), () => new Date(), opts.onError);
  const timer = setInterval(engine.fill, opts.intervalMs);
  timer.unref();
  return {
    wake: engine.fill,
    async stop() {
      engine.stop();
      clearInterval(timer);
      await engine.idle();
    },
  };
}
