// The rate-limit headers every limited answer carries, and a start well inside one hourly window.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';

export function expectLimitHeaders(headers: Record<string, unknown>, limit: number, remaining: number) {
  expect(Number(headers['x-ratelimit-limit'])).toBe(limit);
  expect(Number(headers['x-ratelimit-remaining'])).toBe(remaining);
  const reset = Number(headers['x-ratelimit-reset']);
  expect(reset).toBeGreaterThan(0);
  expect(reset).toBeLessThanOrEqual(3600);
}

/**
 * Waits, when the limit's current window (fixed, by the clock's hour) ends within `marginMs`, until the next one has
 * begun: a test that counts requests up to the limit must send them all in one window. (A run that sent the default
 * limit's 500 across 13:00:00 had its 501st request answered 200, counted in the new window.)
 */
export async function withinOneWindow(marginMs = 25_000): Promise<void> {
  const left = 3_600_000 - (Date.now() % 3_600_000);
  if (left < marginMs) await sleep(left + 100);
}
