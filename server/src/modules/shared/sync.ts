// The v2 sync calls (shipments, stock mutations) share one rule: all or nothing.
import { v2Messages } from '@shopapi/contract';
import { DomainError } from '../../platform/errors.ts';

/**
 * Throws the v2 "Some Ids were not found" answer, with those ids as result, when any requested id is not among the
 * ids found for the client (unknown or another client's look the same). Call it before marking anything synced.
 */
export function requireEveryId(requested: number[], found: { id: number }[]): void {
  const foundIds = new Set(found.map((row) => row.id));
  const missing = [...new Set(requested)].filter((id) => !foundIds.has(id));
  if (missing.length) throw new DomainError({ code: '400', detail: v2Messages.idsNotFound }, { result: missing });
}
