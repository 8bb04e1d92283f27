// Errors the API layers throw (services throw platform/errors.ts's DomainError, which ApiError extends); the error plugin renders them as JSON:API errors (v3) or the NOK envelope (v2).
import { limits, type ErrorCode } from '@shopapi/contract';
import { DomainError, type Problem } from '../platform/errors.ts';

export type ErrorItem = Problem;

/** A DomainError that can also carry the result of a v2 NOK envelope. */
export class ApiError extends DomainError {
  /** v2 answers: the result the NOK envelope carries. */
  readonly v2Result: unknown;

  constructor(items: ErrorItem | ErrorItem[], opts: { v2Result?: unknown } = {}) {
    super(items);
    this.v2Result = opts.v2Result ?? null;
  }
}

export const apiError = (code: ErrorCode, detail: string, extra: Omit<ErrorItem, 'code' | 'detail'> = {}) =>
  new ApiError({ code, detail, ...extra });

/** At most `limits.errorsMax` problems: the first ones, and a last entry that says how many more were found. */
export function capProblems<T>(problems: T[], more: (count: number) => T): T[] {
  if (problems.length <= limits.errorsMax) return problems;
  const shown = problems.slice(0, limits.errorsMax - 1);
  return [...shown, more(problems.length - shown.length)];
}

export const moreProblems = (count: number) => `${count} more problems were found and are not listed; correct these and send again.`;

/** Collects problems so one request answers with all of them together. */
export class ErrorCollector {
  readonly items: ErrorItem[] = [];
  add(code: ErrorCode, detail: string, extra: Omit<ErrorItem, 'code' | 'detail'> = {}) {
    this.items.push({ code, detail, ...extra });
  }
  throwIfAny() {
    if (this.items.length) throw new ApiError(this.items);
  }
}
