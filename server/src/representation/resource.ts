// What every representation module shares: the resource object, the selection of ids it is made from, and the small
// builders of its members (relationships, self links, timestamps, metadata).
import type { SQLWrapper } from 'drizzle-orm';
import { limits } from '@shopapi/contract';

export interface ResourceObject {
  type: string;
  id: number;
  [key: string]: unknown;
}

/** A query selecting the `id` of the rows wanted, in page order (filters, cursor and limit applied). */
export type IdQuery = SQLWrapper;

export const one = (type: string, id: number | null | undefined) => ({ data: id ? { type, id } : null });
export const many = (type: string, ids: number[]) => ({ data: ids.map((id) => ({ type, id })) });
export const self = (base: string, resource: string, id: number) => ({ self: `${base}/v3/${resource}/${id}` });
/** The metadata members the contract lists, in its order, null where absent. */
export const extras = (metadata: Record<string, string | null>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((k) => [k, metadata[k] ?? null]));

/**
 * A list page whose included items would pass `limits.includedItemsMaxPerPage` ends after the last row whose items
 * still fit (the first row always stays); `cut` makes the links point to the next page. The rows and items a module
 * service returned, so the page costs no further query (the SQL fast path does the same in its statement).
 */
export function cutByItems<R extends { id: number }, I>(rows: R[], items: I[], ownerOf: (item: I) => number) {
  const counts = new Map<number, number>();
  for (const item of items) counts.set(ownerOf(item), (counts.get(ownerOf(item)) ?? 0) + 1);
  let running = 0;
  const kept = rows.filter((row, position) => {
    running += counts.get(row.id) ?? 0;
    return position === 0 || running <= limits.includedItemsMaxPerPage;
  });
  const keptIds = new Set(kept.map((row) => row.id));
  return { rows: kept, items: items.filter((item) => keptIds.has(ownerOf(item))), cut: kept.length < rows.length };
}
