// Cursor pagination as async iterators: each page's links.next names the cursor of the next page; the last page has
// none. Only collections (GET paths whose 200 answer is a JSON:API document with a data list) are accepted.
import type { Client } from 'openapi-fetch';
import type { paths } from './generated/v3.ts';

type Json<R> = R extends { content: { 'application/vnd.api+json': infer D } } ? D : never;
type GetOf<P extends keyof paths> = paths[P] extends { get: infer G } ? G : never;
type OkOf<P extends keyof paths> = GetOf<P> extends { responses: { 200: infer R } } ? Json<R> : never;

/** The GET paths that answer a page of resources. */
export type CollectionPath = {
  [P in keyof paths]: OkOf<P> extends { data: unknown[]; links?: unknown } ? P : never;
}[keyof paths];

export type PageOf<P extends CollectionPath> = OkOf<P>;
export type ItemOf<P extends CollectionPath> = PageOf<P> extends { data: (infer I)[] } ? I : never;
export type QueryOf<P extends CollectionPath> = GetOf<P> extends { parameters: { query?: infer Q } } ? Q : never;

/** A collection call that answered an error document: `status` and the JSON:API `errors`. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly errors: unknown,
  ) {
    super(`GET answered ${status}: ${JSON.stringify(errors)}`);
    this.name = 'PageError';
  }
}

export async function* pages<P extends CollectionPath>(client: Client<paths>, path: P, query?: QueryOf<P>): AsyncGenerator<PageOf<P>> {
  let params = { ...(query as Record<string, unknown> | undefined) };
  for (;;) {
    // The path is a collection of paths; openapi-fetch cannot narrow a union of them, so the call is untyped here.
    const get = client.GET as (
      path: string,
      init: { params: { query: Record<string, unknown> } },
    ) => Promise<{
      data?: unknown;
      error?: { errors?: unknown };
      response: Response;
    }>;
    const { data, error, response } = await get(path, { params: { query: params } });
    if (error !== undefined || data === undefined) throw new PageError(response.status, error?.errors ?? error);
    yield data as PageOf<P>;
    const next = (data as { links?: { next?: string | null } }).links?.next;
    const cursor = next ? new URL(next, 'http://next.invalid').searchParams.get('page[cursor]') : null;
    if (!cursor) return;
    params = { ...params, 'page[cursor]': Number(cursor) };
  }
}

export async function* paginate<P extends CollectionPath>(client: Client<paths>, path: P, query?: QueryOf<P>): AsyncGenerator<ItemOf<P>> {
  for await (const page of pages(client, path, query)) yield* (page as { data: ItemOf<P>[] }).data;
}
