// How many problems one answer lists. Services throw platform/errors.ts's DomainError; the error plugin renders it as
// JSON:API errors (v3) or the NOK envelope (v2).
import { limits } from '@shopapi/contract';

/** At most `limits.errorsMax` problems: the first ones, and a last entry that says how many more were found. */
export function capProblems<T>(problems: T[], more: (count: number) => T): T[] {
  if (problems.length <= limits.errorsMax) return problems;
  const shown = problems.slice(0, limits.errorsMax - 1);
  return [...shown, more(problems.length - shown.length)];
}

export const moreProblems = (count: number) => `${count} more problems were found and are not listed; correct these and send again.`;
