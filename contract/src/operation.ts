// One operation of the API: the single description the server routes from and the OpenAPI documents are built from.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { limits } from './limits.ts';
import { MAX_ID } from './jsonapi.ts';
import type { ErrorCode } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type ApiVersion = 'v3' | 'v2';

export interface ResponseSpec {
  description: string;
  schema?: TSchema;
  contentType?: string;
  example?: unknown;
  headers?: Record<string, string>;
}

export interface Operation {
  operationId: string;
  /** Which reference documents the operation: v3, v2, or both (auth and settings). */
  documents: ApiVersion[];
  method: HttpMethod;
  /** OpenAPI style, e.g. /v3/orders/{id}. */
  path: string;
  /** Further paths that answer the same way (legacy v2 aliases), not documented separately. */
  aliases?: string[];
  tags: string[];
  summary: string;
  description: string;
  auth: boolean;
  deprecated?: boolean;
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** Content types the body is accepted in; the first is documented. */
  bodyContentTypes?: string[];
  requestExample?: unknown;
  success: number;
  responses: Record<number, ResponseSpec>;
  /** Catalogue codes this operation can answer with, documented with the error body of its version. */
  errors?: ErrorCode[];
  /** Rate-limited bucket (products, stockLevels). */
  rateLimit?: 'products' | 'stockLevels';
}

type SchemaNode = TSchema & { type?: string | string[]; format?: string; maxLength?: number; enum?: unknown[]; const?: unknown };

/**
 * Gives every string a request can carry a bound: the contract's own where it states one, else `limits.dateTextMax`
 * for dates and `limits.textMaxDefault` for other text. Validation then refuses overlong text before any handler,
 * pattern or format check spends time on it, and the OpenAPI documents show the bound.
 */
function boundStrings(node: unknown, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  const schema = node as SchemaNode & Record<string, unknown>;
  const types = ([] as string[]).concat(schema.type ?? []);
  if (types.includes('string') && schema.maxLength === undefined && schema.enum === undefined && schema.const === undefined) {
    schema.maxLength = schema.format === 'date' || schema.format === 'date-time' ? limits.dateTextMax : limits.textMaxDefault;
  }
  for (const key of ['properties', 'patternProperties'] as const) {
    for (const child of Object.values((schema[key] ?? {}) as Record<string, unknown>)) boundStrings(child, seen);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const child of (schema[key] ?? []) as unknown[]) boundStrings(child, seen);
  boundStrings(schema.items, seen);
  if (typeof schema.additionalProperties === 'object') boundStrings(schema.additionalProperties, seen);
}

/** Keeps the operation's own type (its id and schemas), so routes declared from it get typed params, query and body. */
export function defineOperation<const O extends Operation>(op: O): O {
  for (const part of [op.params, op.query, op.body]) boundStrings(part);
  return op;
}

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Resource id.' }) });

/** Cursor pagination query parameters shared by every v3 collection. */
export const PageQuery = {
  'page[cursor]': Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_ID,
      default: 0,
      description: 'Id of the last entity seen; that entity is not repeated. Default 0.',
    }),
  ),
  'page[size]': Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_ID,
      default: limits.pageSizeDefault,
      description: `Page size, 1 to ${limits.pageSizeMax}; larger values are capped at ${limits.pageSizeMax}. A page that includes items ends early rather than include more than ${limits.includedItemsMaxPerPage} of them; its \`next\` link continues.`,
    }),
  ),
};

export function IncludeQuery(paths: string[]) {
  return {
    include: Type.Optional(
      Type.String({ description: `Comma-separated related resources to include: ${paths.join(', ')}.`, examples: [paths.join(',')] }),
    ),
  };
}

/** Which error format an operation answers in: JSON:API for /v3 and /sandbox, the v2 bodies elsewhere. */
export function errorStyle(op: Pick<Operation, 'path'>): 'jsonapi' | 'v2' {
  return op.path.startsWith('/v3/') || op.path.startsWith('/sandbox/') ? 'jsonapi' : 'v2';
}
