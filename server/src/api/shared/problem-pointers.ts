// Where a problem is, said the JSON:API way. A module names a field by its path in the input it was given; v3 answers
// with a JSON pointer into the request document the input was read from: by default its attributes, per operation
// wherever else the document carries the input (included resources, relationships, a plain body).
import { DomainError, type FieldPath, type Problem } from '../../platform/errors.ts';
import { inApiWords } from './refusals.ts';
import type { InputWarnings, WarningSink } from '../../platform/request-warnings.ts';

/** The pointer into the request document for a path into the input read from it. */
export type Locate = (path: FieldPath) => string | undefined;

const escapeSegment = (segment: string | number) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');

/** `prefix` followed by the path as pointer segments. */
export const pointerAt = (prefix: string, path: FieldPath) => prefix + path.map((segment) => `/${escapeSegment(segment)}`).join('');

/** The default: the input is the attributes of the document's primary data. */
export const attributesPointer: Locate = (path) => pointerAt('/data/attributes', path);

/** The input is the body itself (the receive and sandbox control bodies, a file). */
export const bodyPointer: Locate = (path) => pointerAt('', path) || '/';

/** The input's items are the document's included resources, one for one: ['items', 2, 'sku'] is /included/2/attributes/sku. */
export const itemsInIncluded: Locate = (path) => {
  if (path[0] !== 'items') return attributesPointer(path);
  return path.length === 1 ? '/included' : pointerAt(`/included/${path[1]}/attributes`, path.slice(2));
};

/** A multipart body: the file part is /file; the data part is the document at /data, the whole input when the path is empty. */
export const multipartPointer: Locate = (path) => {
  if (path[0] === 'file') return '/file';
  return path.length ? attributesPointer(path) : '/data';
};

/** Fields of the input the document carries as relationships: ['parts', 1, 'id'] is /data/relationships/parts/data/1/id. */
export const withRelationships =
  (...names: string[]): Locate =>
  (path) => {
    const [head, ...rest] = path;
    if (typeof head !== 'string' || !names.includes(head)) return attributesPointer(path);
    return pointerAt(`/data/relationships/${head}`, rest.length ? ['data', ...rest] : []);
  };

/** The source member of a JSON:API error: the pointer (given, or from the path), else the query parameter. */
export function errorSource(problem: Problem): { source?: { pointer: string } | { parameter: string } } {
  const pointer = problem.pointer || (problem.path ? attributesPointer(problem.path) : undefined);
  if (pointer) return { source: { pointer } };
  return problem.parameter ? { source: { parameter: problem.parameter } } : {};
}

/** Where v3 serves each type of entity a problem can be about. */
const collectionOf = { order: 'orders' } as const;

/**
 * The refusal with a pointer for each problem that has a path and no pointer yet, and with `base` a related link to
 * the stored entity a problem is about.
 */
export function locatedError(error: DomainError, locate: Locate, base?: string): DomainError {
  // Worded first: the located copy is a plain DomainError, which the error handler no longer recognises as a refusal.
  const items = inApiWords(error).map((problem) => {
    let located = problem;
    if (problem.path && problem.pointer === undefined) {
      const pointer = locate(problem.path);
      if (pointer !== undefined) located = { ...located, pointer };
    }
    if (problem.existing && base !== undefined && problem.related === undefined)
      located = { ...located, related: `${base}/v3/${collectionOf[problem.existing.type]}/${problem.existing.id}` };
    return located;
  });
  return new DomainError(items, { result: error.result });
}

/** Runs a service call; a refusal comes back with its problems located in this request's document (and linked, with `base`). */
export async function locating<T>(locate: Locate, call: Promise<T>, base?: string): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw error instanceof DomainError ? locatedError(error, locate, base) : error;
  }
}

/** The request's warnings, for a service that names places by paths into its input. */
export const locatedWarnings = (warnings: WarningSink, locate: Locate): InputWarnings => ({
  add: (kind, detail, path) => warnings.add(kind, detail, path === undefined ? undefined : locate(path)),
});
