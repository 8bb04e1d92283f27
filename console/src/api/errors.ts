// Failed calls as one error type the screens show: the HTTP status, the JSON:API errors (or /token's OAuth error) and
// the Request-Id that finds the call in the request log.
import { PageError } from '@shopapi/client';

export interface Problem {
  title: string;
  detail?: string;
  code?: string;
  source?: { pointer?: string; parameter?: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problems: Problem[],
    /** The answer's Request-Id header, when there was an answer to read it from. */
    readonly requestId: string | undefined,
    /** Whether the call is in the request log: the console's reads are kept out of it (see client.ts). */
    readonly logged: boolean,
  ) {
    super(problems.map((problem) => problem.detail ?? problem.title).join(' '));
    this.name = 'ApiError';
  }
}

function problemsOf(status: number, body: unknown): Problem[] {
  const document = (body ?? {}) as { errors?: unknown; error?: unknown; error_description?: unknown };
  if (Array.isArray(document.errors)) return document.errors as Problem[];
  if (typeof document.error === 'string') {
    return [{ title: document.error, detail: typeof document.error_description === 'string' ? document.error_description : undefined }];
  }
  return [{ title: `The sandbox answered ${status}.` }];
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

async function documentOf<T>(call: Promise<Answer<T>>, logged: boolean): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw new ApiError(response.status, problemsOf(response.status, error), response.headers.get('request-id') ?? undefined, logged);
}

/** The document a read (GET) answered with 2xx; any other answer throws an ApiError. */
export const read = <T>(call: Promise<Answer<T>>): Promise<T> => documentOf(call, false);

/** The document a write (POST, PUT, DELETE) answered with 2xx; any other answer throws an ApiError. */
export const write = <T>(call: Promise<Answer<T>>): Promise<T> => documentOf(call, true);

/** A collection read that failed on one of its pages (the client's pagination reports the status and errors only). */
export function pageFailure(error: unknown): unknown {
  return error instanceof PageError
    ? new ApiError(error.status, problemsOf(error.status, { errors: error.errors }), undefined, false)
    : error;
}
