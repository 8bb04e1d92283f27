// Errors a service throws when a request cannot be carried out: catalogue codes with a detail and where in the request,
// nothing about HTTP. Each API renders them in its own format (JSON:API errors, the v2 envelope).
import { errorCatalogue, type ErrorCode } from '@shopapi/contract';

/** Where in a value a problem is: keys and array indexes from its root, as in ['items', 0, 'sku']. */
export type FieldPath = readonly (string | number)[];

export interface Problem {
  code: ErrorCode;
  detail: string;
  /** Where in the input the service was given the problem is; each API turns it into a place in its own request. */
  path?: FieldPath;
  /** A JSON pointer into the request document: set by an API (from the path, or for a problem of the document itself). */
  pointer?: string;
  parameter?: string;
  /** The stored entity the problem is about (the order that already has this number); an API may link to it. */
  existing?: { type: 'order'; id: number };
  /** A link to that entity, set by an API. */
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
