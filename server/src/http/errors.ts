// Errors the domain throws; the error plugin renders them as JSON:API errors (v3) or the NOK envelope (v2).
import { errorCatalogue, limits, type ErrorCode } from '@shopapi/contract';

export interface ErrorItem {
  code: ErrorCode;
  detail: string;
  pointer?: string;
  parameter?: string;
  related?: string;
}

export class ApiError extends Error {
  readonly items: ErrorItem[];
  readonly status: number;
  /** v2 answers: the result the NOK envelope carries. */
  readonly v2Result: unknown;

  constructor(items: ErrorItem | ErrorItem[], opts: { v2Result?: unknown } = {}) {
    const list = Array.isArray(items) ? items : [items];
    super(list.map((i) => i.detail).join('; '));
    this.items = list;
    // Several problems: the most specific shared status, else 400.
    const statuses = new Set(list.map((i) => errorCatalogue[i.code].status));
    this.status = statuses.size === 1 ? [...statuses][0] : 400;
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
