// The progress of the console and portal builds that `npm start` runs beside the server, as scripts/builds.mjs writes
// it (the two share this shape): read for the page shown at /docs and /console/ meanwhile and for the start-up output.
import { readFileSync, statSync } from 'node:fs';

export interface BuildStep {
  /** Which build the step belongs to. */
  target: 'console' | 'portal';
  name: string;
  title: string;
  /** Milliseconds since the epoch. */
  startedAt?: number;
  endedAt?: number;
  /** Lines of progress the step printed (the reference pages written). */
  count?: number;
  /** How long the step took in the last build that finished. */
  lastSeconds?: number;
}

export interface BuildProgress {
  /** The process running the builds. */
  pid: number;
  startedAt: number;
  state: 'building' | 'done' | 'failed';
  steps: BuildStep[];
  /** The builds' full output, relative to the repository. */
  log: string;
  failure?: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Reads the progress file, again only when it changed. Undefined when there is none, or when it says building but the
 * process that built has gone (stopped with its server: the next `npm start` builds again).
 */
export function buildProgressReader(file: string): () => BuildProgress | undefined {
  let seen: { changed: number; progress: BuildProgress | undefined } | undefined;
  return () => {
    const changed = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (changed === undefined) return undefined;
    if (seen?.changed !== changed) {
      let progress: BuildProgress | undefined;
      try {
        progress = JSON.parse(readFileSync(file, 'utf8')) as BuildProgress;
      } catch {
        // Not this shape (an older checkout's file): as if there were none.
      }
      seen = { changed, progress };
    }
    const { progress } = seen;
    return progress?.state === 'building' && !alive(progress.pid) ? undefined : progress;
  };
}

/** Whether `target` is being built, or its build failed, in this progress: then its files are not there to serve. */
export function unfinished(progress: BuildProgress | undefined, target: BuildStep['target']): boolean {
  return progress !== undefined && progress.state !== 'done' && progress.steps.some((step) => step.target === target && !step.endedAt);
}
