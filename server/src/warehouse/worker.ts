// The warehouse's worker, one per server process: it brings clients' warehouses up to their clocks (an advance's target,
// or real time for the pacer) in slices, one client's slice after another's in turn, and gives the event loop back
// between slices. PGlite runs in the server's own thread: a catch-up in one go held it, and every other request, for
// its whole length (a year's advance with 1,000 open orders: 87 s).
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../platform/db/index.ts';
import type { ModuleServices } from '../modules/services.ts';
import type { Client } from '../modules/clients/client.ts';
import { allClientIds } from '../modules/clients/service.ts';
import {
  finishAdvance,
  leaseWarehouse,
  moveAdvancingClock,
  orphanedAdvances,
  readClock,
  releaseWarehouse,
  releaseWarehouses,
  type ClockState,
} from '../modules/clients/clock.ts';
import { runSlice, type CatchUp, type WarehouseOptions } from './simulator.ts';

/** The worker's timing; docs/OPERATIONS.md lists them. */
export const workerTiming = {
  /** How long one slice may work before the next client's turn (and the event loop's). */
  sliceMs: 20,
  /** How long a process's hold on a client's warehouse lasts unless renewed (its turns renew it every third of that). */
  leaseMs: 30_000,
  /** How often each process looks for advances no process works on (begun elsewhere, or cut off by a crash). */
  scanMs: 1_000,
  /** How often a waiting advance call reads the clock when another process does the work. */
  settlePollMs: 250,
  /**
   * Calls under way go first: after a slice the worker waits for them, but never longer than the slice took nor than
   * this, so a catch-up keeps at least half of the time however busy the process is.
   */
  yieldMaxMs: 100,
};

export interface WorkerOptions extends WarehouseOptions {
  /** Real time: every stepSeconds, each client's warehouse catches up with its clock (the pacer). Off in tests. */
  pace: boolean;
  /** The calls this process is answering now (the advances waiting in settle() among them). */
  callsInFlight(): number;
  onError(error: unknown): void;
  timing?: Partial<typeof workerTiming>;
}

export interface WarehouseWorker {
  /** An advance began for the client: this process works on it from now. */
  wake(clientId: number): void;
  /** The client's clock once the advance is done (ready), or as far as it got after `waitMs`. */
  settle(clientId: number, waitMs: number): Promise<ClockState>;
  /** Ends the slice under way, gives back every lease this process holds (another process goes on), stops. */
  stop(): Promise<void>;
}

interface Job {
  clientId: number;
  catchUp: CatchUp;
  /**
   * The lease this process holds on the client's warehouse, with the client and its clock as they were when it was
   * taken and as the slices moved them since.
   */
  held?: { client: Client; clock: ClockState; renewAt: number };
  /** Woken since its last turn began (an advance began): its next turn reads the clock afresh, and it goes on. */
  woken: boolean;
  finished: Promise<void>;
  finish(): void;
}

export function startWarehouseWorker(db: Db, services: ModuleServices, opts: WorkerOptions): WarehouseWorker {
  const timing = { ...workerTiming, ...opts.timing };
  const owner = randomUUID();
  /** Clients being worked on, in turn order: a job whose turn ends goes to the back. */
  const jobs = new Map<number, Job>();
  let running: Promise<void> | undefined;
  let stopped = false;
  /** Advance calls waiting in settle(): they wait for the worker, which need not wait for them. */
  let settling = 0;
  /** The clients whose warehouse lease this process holds. */
  const holding = new Set<number>();

  function enqueue(clientId: number) {
    if (stopped) return;
    const job = jobs.get(clientId);
    if (job) {
      job.woken = true;
      return;
    }
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    jobs.set(clientId, { clientId, catchUp: {}, woken: false, finished, finish });
    kick();
  }

  function kick() {
    running ??= work().finally(() => {
      running = undefined;
      // A job queued between the loop's last look and this moment.
      if (jobs.size && !stopped) kick();
    });
  }

  /**
   * One slice of the job's client, under its lease; true while there is more to do. The lease is taken on the first
   * turn, after a wake and every third of its length; meanwhile only this process moves the clock, so the turns go on
   * from what they know.
   */
  async function turn(job: Job, woken: boolean): Promise<boolean> {
    if (woken || !job.held || performance.now() >= job.held.renewAt) {
      const leased = await leaseWarehouse(db, job.clientId, owner, timing.leaseMs);
      if (!leased) {
        holding.delete(job.clientId); // another process works on this client
        return false;
      }
      holding.add(job.clientId);
      // An advance began (or another process finished one): the catch-up starts again from the clock as it is.
      if (leased.clock.advance?.toOffsetSeconds !== job.held?.clock.advance?.toOffsetSeconds) job.catchUp = {};
      job.held = { ...leased, renewAt: performance.now() + timing.leaseMs / 3 };
    }
    const { client, clock } = job.held;
    const target = clock.advance?.toOffsetSeconds ?? client.clockOffsetSeconds;
    const slice = await runSlice(db, services, client, target, job.catchUp, { stepSeconds: opts.stepSeconds, sliceMs: timing.sliceMs });
    if (clock.advance && slice.done) {
      await finishAdvance(db, services.tokenCache, client.id, owner);
      holding.delete(client.id);
      return false;
    }
    if (clock.advance && slice.offsetSeconds !== client.clockOffsetSeconds) {
      const offsetSeconds = await moveAdvancingClock(db, services.tokenCache, client.id, owner, slice.offsetSeconds);
      if (offsetSeconds === undefined) {
        holding.delete(client.id); // the lease ran out and another process took the work over
        return false;
      }
      job.held.client = { ...client, clockOffsetSeconds: offsetSeconds };
    }
    if (slice.done) await release(client.id);
    return !slice.done;
  }

  async function release(clientId: number) {
    await releaseWarehouse(db, clientId, owner);
    holding.delete(clientId);
  }

  /** The other calls under way run before the next slice: PGlite would otherwise take their statements in turn with its. */
  async function giveWay(sliceMs: number) {
    const until = performance.now() + Math.min(sliceMs, timing.yieldMaxMs);
    while (opts.callsInFlight() > settling && performance.now() < until) await sleep(1);
  }

  async function work() {
    while (!stopped && jobs.size) {
      const job = jobs.values().next().value as Job;
      const woken = job.woken;
      job.woken = false;
      const started = performance.now();
      let more: boolean;
      try {
        more = await turn(job, woken);
      } catch (error) {
        // Left to the next round (real time) or to the scan (an advance), once the lease is given back.
        opts.onError(error);
        await release(job.clientId).catch(opts.onError);
        more = false;
      }
      jobs.delete(job.clientId);
      if ((more || job.woken) && !stopped) jobs.set(job.clientId, job);
      else job.finish();
      // Calls that came in meanwhile start now, and go on before the next slice.
      await nextTurn();
      await giveWay(performance.now() - started);
    }
  }

  const every = (ms: number, find: () => Promise<number[]>) => {
    const timer = setInterval(() => {
      find()
        .then((ids) => {
          for (const id of ids) enqueue(id);
        })
        .catch(opts.onError);
    }, ms);
    timer.unref();
    return timer;
  };
  const timers = [every(timing.scanMs, () => orphanedAdvances(db))];
  if (opts.pace) timers.push(every(Math.max(1, opts.stepSeconds) * 1000, () => allClientIds(db)));

  return {
    wake: enqueue,
    async settle(clientId, waitMs) {
      const deadline = Date.now() + waitMs;
      settling++;
      try {
        for (;;) {
          const clock = await readClock(db, clientId);
          const left = deadline - Date.now();
          if (!clock.advance || left <= 0) return clock;
          const job = jobs.get(clientId);
          const poll = sleep(Math.min(left, timing.settlePollMs), undefined, { ref: false });
          await (job ? Promise.race([job.finished, poll]) : poll);
        }
      } finally {
        settling--;
      }
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await running;
      for (const job of jobs.values()) job.finish();
      jobs.clear();
      if (holding.size) await releaseWarehouses(db, owner);
      holding.clear();
    },
  };
}
