// The rate-limit headers every limited answer carries.
import { expect } from 'vitest';

export function expectLimitHeaders(headers: Record<string, unknown>, limit: number, remaining: number) {
  expect(Number(headers['x-ratelimit-limit'])).toBe(limit);
  expect(Number(headers['x-ratelimit-remaining'])).toBe(remaining);
  const reset = Number(headers['x-ratelimit-reset']);
  expect(reset).toBeGreaterThan(0);
  expect(reset).toBeLessThanOrEqual(3600);
}
