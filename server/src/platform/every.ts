// A background round every intervalMs (the warehouse pacer, the embedded database's upkeep): never two at once (a tick
// that finds the last round still running skips), never keeping the process alive, and stop() waits for the round in
// progress, which can ask whether it should give up early.
export interface Every {
  stop(): Promise<void>;
}

export function every(intervalMs: number, round: (stopped: () => boolean) => Promise<unknown>, onError: (error: unknown) => void): Every {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = round(() => stopped)
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
