// Whole collections: the lists are ordered by id ascending and paged by cursor, so a screen that shows the newest
// first reads every page (100 resources each) and turns the list round.
import type { CollectionPath, ItemOf, PageOf, QueryOf, ShopApiClient } from '@shopapi/client';
import { pageFailure } from './errors.ts';

export type IncludedOf<P extends CollectionPath> = PageOf<P> extends { included?: (infer I)[] } ? I : never;

export interface Collection<P extends CollectionPath> {
  /** Newest (highest id) first. */
  data: ItemOf<P>[];
  included: IncludedOf<P>[];
}

export async function readAll<P extends CollectionPath>(api: ShopApiClient, path: P, query?: QueryOf<P>): Promise<Collection<P>> {
  const data: ItemOf<P>[] = [];
  const included: IncludedOf<P>[] = [];
  try {
    for await (const page of api.pages(path, query)) {
      const { data: items, included: more } = page as { data: ItemOf<P>[]; included?: IncludedOf<P>[] };
      data.push(...items);
      included.push(...(more ?? []));
    }
  } catch (error) {
    throw pageFailure(error);
  }
  return { data: data.reverse(), included };
}

/** The cursor of the page after this one, from its `next` link; undefined on the last page. */
export function nextCursor(links: { next?: string | null }): number | undefined {
  const cursor = links.next ? new URL(links.next, window.location.origin).searchParams.get('page[cursor]') : null;
  return cursor ? Number(cursor) : undefined;
}
