// The v2 sync calls (shipments, stock mutations) share one rule: all or nothing.
import { DomainError } from '../../platform/errors.ts';

/** Some of the ids a sync call named are not the client's: nothing was marked. The API words it (api/v2/wording.ts). */
export class IdsNotFound extends DomainError {
  constructor(readonly ids: number[]) {
    super({ code: '400', detail: `Not found: ${ids.join(', ')}.` }, { result: ids });
  }
}

/**
 * Throws IdsNotFound, with those ids, when any requested id is not among the ids found for the client (unknown or
 * another client's look the same). Call it before marking anything synced.
 */
export function requireEveryId(requested: number[], found: { id: number }[]): void {
  const foundIds = new Set(found.map((row) => row.id));
  const missing = [...new Set(requested)].filter((id) => !foundIds.has(id));
  if (missing.length) throw new IdsNotFound(missing);
}
