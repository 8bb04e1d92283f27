// The token flow: a bearer token from POST /token (password grant), kept until shortly before it expires, fetched
// once for all requests that need it at the same moment, and dropped when the server refuses it (revoked, or the
// password changed) so the next request fetches a new one.

export interface Credentials {
  username: string;
  password: string;
}

export interface TokenSourceOptions extends Credentials {
  /** Origin of the sandbox (or the API), e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Renew this many seconds before the token expires (default 30), so no request goes out with a dying token. */
  refreshMarginSeconds?: number;
  /** Clock in milliseconds, for tests. */
  now?: () => number;
}

/** POST /token refused the credentials (400/401), was throttled (429), or did not answer as documented. */
export class TokenError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The OAuth error code (`invalid_grant`, ...), when the server gave one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

export class TokenSource {
  readonly #options: TokenSourceOptions;
  #token?: { value: string; renewAt: number };
  #pending?: Promise<string>;

  constructor(options: TokenSourceOptions) {
    this.#options = options;
  }

  /** A token valid for at least the refresh margin: the cached one, or a new one. */
  async get(): Promise<string> {
    const now = this.#options.now?.() ?? Date.now();
    if (this.#token && now < this.#token.renewAt) return this.#token.value;
    this.#pending ??= this.#request().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets the cached token if it is still `token` (a newer one fetched meanwhile is kept). */
  invalidate(token?: string): void {
    if (token === undefined || this.#token?.value === token) this.#token = undefined;
  }

  async #request(): Promise<string> {
    const { baseUrl, username, password, refreshMarginSeconds = 30 } = this.#options;
    const doFetch = this.#options.fetch ?? fetch;
    const response = await doFetch(new URL('/token', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'password', username, password }),
    });
    const body = (await response.json().catch(() => undefined)) as
      | { access_token?: unknown; expires_in?: unknown; error?: string; error_description?: string }
      | undefined;
    if (!response.ok || typeof body?.access_token !== 'string') {
      const detail = body?.error_description ?? body?.error ?? response.statusText;
      const retry = response.headers.get('retry-after');
      throw new TokenError(
        `POST /token answered ${response.status}: ${detail}${retry ? ` (retry after ${retry} s)` : ''}`,
        response.status,
        body?.error,
      );
    }
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 0;
    const now = this.#options.now?.() ?? Date.now();
    // A token shorter-lived than twice the margin is renewed at half its life.
    const margin = Math.min(refreshMarginSeconds, lifetime / 2);
    this.#token = { value: body.access_token, renewAt: now + (lifetime - margin) * 1000 };
    return body.access_token;
  }
}
