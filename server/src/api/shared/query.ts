// Query conventions shared by every v3 collection: cursor pagination, include paths, list filters.
import type { FastifyRequest } from 'fastify';
import { limits } from '@shopapi/contract';
import type { Page } from '../../platform/page.ts';
import { noWarnings, type WarningSink } from '../../platform/request-warnings.ts';
import { domainError } from '../../platform/errors.ts';

/** The page asked for; a size above the maximum is capped and a page[number] not used is noted in the warnings. */
export function pageOf(query: Record<string, unknown>, warnings: WarningSink = noWarnings): Page {
  // page[number] (where an operation offers it) is a cursor too, used when page[cursor] (default 0) is not; values below 1 count as omitted.
  const number = Number(query['page[number]'] ?? 0);
  const given = Number(query['page[cursor]'] ?? 0);
  const cursor = given > 0 ? given : Math.max(number, 0);
  const asked = Number(query['page[size]'] ?? limits.pageSizeDefault);
  if (asked > limits.pageSizeMax) warnings.add('coerced', `${asked} is above the maximum; pages of ${limits.pageSizeMax}`, 'page[size]');
  if (query['page[number]'] !== undefined) {
    if (number < 1) warnings.add('ignored', `${number} is below 1; treated as omitted`, 'page[number]');
    else if (given > 0) warnings.add('ignored', 'page[cursor] is given and goes first; not read', 'page[number]');
  }
  return { cursor, size: Math.min(asked, limits.pageSizeMax) };
}

/**
 * Scheme and host of links: PUBLIC_URL when set (production-like set-ups set it), else the request's own, which the
 * host plugin has validated (X-Forwarded-Host/-Proto count only behind a trusted proxy), else the listening address.
 */
export function baseUrl(request: FastifyRequest, publicUrl?: string, listeningBase = 'http://localhost'): string {
  if (publicUrl) return publicUrl.replace(/\/$/, '');
  return request.host ? `${request.protocol}://${request.host}` : listeningBase;
}

/** links.self, first and next (when the page is full, or was cut short by the included-items bound) for a keyset page ordered by id. */
export function paginationLinks(request: FastifyRequest, base: string, page: Page, items: { id: number }[], cut = false) {
  const url = new URL(request.url, base);
  // Re-serialise the query so brackets are percent-encoded and every link is a valid URI.
  url.search = url.searchParams.toString();
  const withCursor = (cursor: number | undefined) => {
    const next = new URL(url);
    // The links page on with page[cursor] alone, so a page[number] of the request does not compete with it.
    next.searchParams.delete('page[number]');
    if (cursor === undefined) next.searchParams.delete('page[cursor]');
    else next.searchParams.set('page[cursor]', String(cursor));
    next.searchParams.set('page[size]', String(page.size));
    return next.toString();
  };
  return {
    self: url.toString(),
    first: withCursor(undefined),
    ...(items.length === page.size || (cut && items.length) ? { next: withCursor(items[items.length - 1].id) } : {}),
  };
}

/** The include paths asked for; an unsupported path is a 400. */
export function includesOf(query: Record<string, unknown>, allowed: readonly string[]): Set<string> {
  const raw = query.include;
  if (raw === undefined || raw === '') return new Set();
  const paths = String(raw)
    .split(',')
    .map((p) => p.trim());
  const unknown = paths.filter((p) => !allowed.includes(p));
  if (unknown.length) {
    throw domainError('400', `Unsupported include path ${unknown.join(', ')}; supported: ${allowed.join(', ') || 'none'}.`, {
      parameter: 'include',
    });
  }
  return new Set(paths);
}

/** A comma-separated, unique list filter; undefined when absent. */
export function listFilter(query: Record<string, unknown>, name: string): string[] | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const values = String(raw)
    .split(',')
    .map((v) => v.trim());
  if (values.some((v) => v === '')) throw domainError('400', `${name} must not contain empty values.`, { parameter: name });
  if (new Set(values).size !== values.length) throw domainError('400', `${name} must not repeat a value.`, { parameter: name });
  return values;
}

export function integerListFilter(query: Record<string, unknown>, name: string): number[] | undefined {
  const values = listFilter(query, name);
  if (!values) return undefined;
  if (values.some((v) => !/^[0-9]{1,9}$/.test(v))) throw domainError('400', `${name} takes integers.`, { parameter: name });
  return values.map(Number);
}

/** The values that every given spelling of one filter allows (filters given together all apply); undefined when none is given. */
export function allSpellings<T>(...spellings: (T[] | undefined)[]): T[] | undefined {
  const given = spellings.filter((values): values is T[] => values !== undefined);
  return given.length ? given.reduce((kept, values) => kept.filter((value) => values.includes(value))) : undefined;
}

export function enumListFilter<T extends string>(query: Record<string, unknown>, name: string, allowed: readonly T[]): T[] | undefined {
  const values = listFilter(query, name);
  if (!values) return undefined;
  const wrong = values.filter((v) => !allowed.includes(v as T));
  if (wrong.length)
    throw domainError('400', `${name} has unknown values ${wrong.join(', ')}; allowed: ${allowed.join(', ')}.`, { parameter: name });
  return values as T[];
}
