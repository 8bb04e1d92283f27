// Errors a service throws when a request cannot be carried out: catalogue codes with a detail and where in the request,
// nothing about HTTP. Each API renders them in its own format (JSON:API errors, the v2 envelope).
import { errorCatalogue, type ErrorCode } from '@shopapi/contract';

export interface Problem {
  code: ErrorCode;
  detail: string;
  /** A JSON pointer into the request document. */
  pointer?: string;
  parameter?: string;
  related?: string;
}

export class DomainError extends Error {
  readonly items: Problem[];
  /** The catalogue's status of the problems: the one they share, else 400. */
  readonly status: number;
  /** What the refusal carries besides its problems (the ids that failed, for instance); the v2 envelope's result. */
  readonly result: unknown;

  constructor(items: Problem | Problem[], opts: { result?: unknown } = {}) {
    const list = Array.isArray(items) ? items : [items];
    super(list.map((i) => i.detail).join('; '));
    this.items = list;
    this.result = opts.result ?? null;
    const statuses = new Set(list.map((i) => errorCatalogue[i.code].status));
    this.status = statuses.size === 1 ? [...statuses][0] : 400;
  }
}

export const domainError = (code: ErrorCode, detail: string, extra: Omit<Problem, 'code' | 'detail'> = {}) =>
  new DomainError({ code, detail, ...extra });

/** Collects problems so one request answers with all of them together. */
export class ProblemCollector {
  readonly items: Problem[] = [];
  add(code: ErrorCode, detail: string, extra: Omit<Problem, 'code' | 'detail'> = {}) {
    this.items.push({ code, detail, ...extra });
  }
  throwIfAny() {
    if (this.items.length) throw new DomainError(this.items);
  }
}
