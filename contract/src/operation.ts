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

export function defineOperation(op: Operation): Operation {
  return op;
}

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'Resource id.' }) });

/** Cursor pagination query parameters shared by every v3 collection. */
export const PageQuery = {
  'page[cursor]': Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ID, default: 0, description: 'Id of the last entity seen; that entity is not repeated. Default 0.' })),
  'page[size]': Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, default: limits.pageSizeDefault, description: `Page size, 1 to ${limits.pageSizeMax}; larger values are capped at ${limits.pageSizeMax}.` })),
};

export function IncludeQuery(paths: string[]) {
  return { include: Type.Optional(Type.String({ description: `Comma-separated related resources to include: ${paths.join(', ')}.`, examples: [paths.join(',')] })) };
}

/** Which error format an operation answers in: JSON:API for /v3 and /sandbox, the v2 bodies elsewhere. */
export function errorStyle(op: Pick<Operation, 'path'>): 'jsonapi' | 'v2' {
  return op.path.startsWith('/v3/') || op.path.startsWith('/sandbox/') ? 'jsonapi' : 'v2';
}
