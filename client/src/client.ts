// The typed clients: openapi-fetch over the types generated from the contract, with the token flow as middleware.
import createFetchClient, { type Client, defaultBodySerializer, type Middleware } from 'openapi-fetch';
import type { paths as V2Paths } from './generated/v2.ts';
import type { paths as V3Paths } from './generated/v3.ts';
import { type CollectionPath, type ItemOf, paginate, pages, type PageOf, type QueryOf } from './paginate.ts';
import { type Credentials, TokenSource } from './tokens.ts';

export const JSONAPI = 'application/vnd.api+json';

export interface ClientOptions extends Partial<Credentials> {
  /** Origin of the sandbox (or the API), e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** A token you manage yourself, instead of username and password (it is not renewed). */
  token?: string;
  fetch?: typeof fetch;
  /** Renew a token this many seconds before it expires (default 30). */
  refreshMarginSeconds?: number;
  /** Headers sent with every request (e.g. a User-Agent naming your integration). */
  headers?: Record<string, string>;
  /** Clock in milliseconds for the token's expiry (default Date.now), for tests of its renewal. */
  now?: () => number;
}

/**
 * Adds the bearer token to every request but POST /token; on a 401 drops the token, fetches a new one and sends the
 * request once more. A caller's own Authorization header is left alone.
 */
function authMiddleware(options: ClientOptions, tokens: TokenSource | undefined): Middleware {
  const retries = new Map<string, Request>();
  const doFetch = options.fetch ?? fetch;
  return {
    async onRequest({ request, schemaPath, id }) {
      if (schemaPath === '/token' || request.headers.has('authorization')) return undefined;
      const token = tokens ? await tokens.get() : options.token;
      if (!token) return undefined;
      request.headers.set('authorization', `Bearer ${token}`);
      if (tokens) retries.set(id, request.clone());
      return request;
    },
    async onResponse({ response, id }) {
      const retry = retries.get(id);
      retries.delete(id);
      if (!retry || !tokens || response.status !== 401) return undefined;
      tokens.invalidate(retry.headers.get('authorization')?.slice('Bearer '.length));
      retry.headers.set('authorization', `Bearer ${await tokens.get()}`);
      return doFetch(retry);
    },
    onError({ id }) {
      retries.delete(id);
    },
  };
}

/** JSON:API's media type on v3 and sandbox bodies that openapi-fetch sends as JSON (not on an image or multipart body). */
const jsonApiBodies: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.body !== null && /^\/(v3|sandbox)\//.test(schemaPath) && request.headers.get('content-type') === 'application/json') {
      request.headers.set('content-type', JSONAPI);
    }
    return request;
  },
};

/**
 * Bodies as the contract's media types want them: a file (Blob) as it is, an object with a file in it as
 * multipart/form-data (one part per property, as POST /v3/orderAttachments takes its data and file), anything else as
 * openapi-fetch sends it (JSON, or form-encoded when the request says so).
 */
function serializeBody(body: unknown, headers?: Headers): unknown {
  if (body instanceof Blob || body instanceof FormData) return body;
  if (body !== null && typeof body === 'object' && Object.values(body).some((value) => value instanceof Blob)) {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) {
      if (value !== undefined) form.append(name, value instanceof Blob ? value : String(value));
    }
    return form;
  }
  // openapi-fetch passes the request's headers to its serializer (it reads the content type), though its types omit them.
  return (defaultBodySerializer as (body: unknown, headers?: Headers) => string)(body, headers);
}

/** A path or query parameter that cannot be sent as its operation's own; thrown before anything is sent. */
export class ParameterError extends TypeError {
  override name = 'ParameterError';
}

/**
 * Each path parameter as one percent-encoded segment, so no value can lead the request to another route, even one
 * passed past the types with a cast. openapi-fetch's own serializer writes an object's keys unencoded
 * (`{ '../webhooks/1#': '' }` became `../webhooks/1#,`, and DELETE /v3/orders/{id} deleted a webhook). A value that is
 * not a string or a number is refused, and so are '', '.' and '..': URL parsing drops or resolves those
 * segments, and '%2e%2e' with them, so no encoding keeps them in place.
 */
function serializePath(url: string, params: Record<string, unknown>): string {
  return url.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = params[name];
    // A number's text has no '/', '#', '?' or '%', and is never '', '.' or '..': NaN goes as the segment NaN.
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'string')
      throw new ParameterError(`The path parameter ${name} of ${url} must be a string or a number; nothing was sent.`);
    if (['', '.', '..'].includes(value))
      throw new ParameterError(
        `The path parameter ${name} of ${url} cannot be "${value}", which no path keeps as a segment; nothing was sent.`,
      );
    return encodeURIComponent(value);
  });
}

/**
 * The query as `key=value` pairs, keys percent-encoded as well as values: openapi-fetch encodes values only, so a key
 * with `&`, `=` or `#` in it added parameters or cut the query short. JSON:API's bracketed names (`page[size]`) are
 * keys of their own, encoded like any other. The contract's query parameters are scalars: a list or an object is
 * refused rather than spread into keys the operation does not have; a value left undefined (or null) is left out.
 */
function serializeQuery(query: Record<string, unknown>): string {
  return Object.entries(query)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => {
      if (!['string', 'number', 'boolean'].includes(typeof value))
        throw new ParameterError(`The query parameter ${key} must be a string, a number or a boolean; nothing was sent.`);
      return `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
    })
    .join('&');
}

/** openapi-fetch's options that make every request's URL: the same for the v3 and the v2 client. */
const urlSerializers = { pathSerializer: serializePath, querySerializer: serializeQuery };

function tokenSource(options: ClientOptions): TokenSource | undefined {
  if (options.username === undefined || options.password === undefined) return undefined;
  return new TokenSource({
    baseUrl: options.baseUrl,
    username: options.username,
    password: options.password,
    fetch: options.fetch,
    refreshMarginSeconds: options.refreshMarginSeconds,
    now: options.now,
  });
}

export type ShopApiClient = Client<V3Paths> & {
  /** The token source (undefined when you passed a token yourself). */
  readonly tokens: TokenSource | undefined;
  /** Every resource of a collection, one at a time, following the cursor from page to page. */
  paginate<P extends CollectionPath>(path: P, query?: QueryOf<P>): AsyncGenerator<ItemOf<P>>;
  /** Every page of a collection (data, included, links), following the cursor. */
  pages<P extends CollectionPath>(path: P, query?: QueryOf<P>): AsyncGenerator<PageOf<P>>;
};

/** A client of the v3 API, the token endpoint and the sandbox controls (everything in the v3 OpenAPI document). */
export function createShopApiClient(options: ClientOptions): ShopApiClient {
  const tokens = tokenSource(options);
  const client = createFetchClient<V3Paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: options.fetch,
    headers: options.headers,
    bodySerializer: serializeBody,
    ...urlSerializers,
  });
  client.use(jsonApiBodies, authMiddleware(options, tokens));
  return Object.assign(client, {
    tokens,
    paginate: <P extends CollectionPath>(path: P, query?: QueryOf<P>) => paginate(client, path, query),
    pages: <P extends CollectionPath>(path: P, query?: QueryOf<P>) => pages(client, path, query),
  });
}

export type ShopApiV2Client = Client<V2Paths> & { readonly tokens: TokenSource | undefined };

/** A client of the legacy v2 API (everything in the v2 OpenAPI document); answers come in the OK/NOK envelope. */
export function createShopApiV2Client(options: ClientOptions): ShopApiV2Client {
  const tokens = tokenSource(options);
  const client = createFetchClient<V2Paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    fetch: options.fetch,
    headers: options.headers,
    ...urlSerializers,
  });
  client.use(authMiddleware(options, tokens));
  return Object.assign(client, { tokens });
}
