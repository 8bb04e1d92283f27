// The reliability suites run at scale 1 in `npm test`; `npm run bench:reliability` runs their long variants with
// RELIABILITY_SCALE above 1 and collects what they report (RELIABILITY_REPORT: a file each suite appends a line to).
import { appendFileSync } from 'node:fs';

/** How many times the long variants repeat their generated work; 1 in `npm test`. */
export const reliabilityScale = Math.max(1, Math.floor(Number(process.env.RELIABILITY_SCALE ?? 1)) || 1);

export interface ReliabilityFigures {
  suite: string;
  database: string;
  [figure: string]: string | number;
}

/** Records a suite's figures for bench/reliability.ts; does nothing in `npm test`. */
export function reportFigures(figures: ReliabilityFigures): void {
  if (process.env.RELIABILITY_REPORT) appendFileSync(process.env.RELIABILITY_REPORT, `${JSON.stringify(figures)}\n`);
}
