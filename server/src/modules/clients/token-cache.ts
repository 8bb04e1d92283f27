// The tokens an app has checked lately, so a hot route can authenticate without a database round trip.
// Written by hand: a Map in insertion order is the whole cache (a library's LRU would add nothing the bound needs).
import type { Client } from './client.ts';

/**
 * How long a process trusts a token it has checked: a token revoked in another process (or by a statement outside
 * tokens.ts) is still accepted by the routes that use the cache for at most this long. The auth guide documents it.
 */
export const tokenCacheSeconds = 5;
/** Entries beyond this push out the oldest, so a flood of distinct tokens costs bounded memory. */
const entriesMax = 10_000;

interface Entry {
  client: Client;
  /** Epoch milliseconds: the earlier of the check's age limit and the token's own expiry. */
  until: number;
}

/**
 * The tokens one app checked lately. Built once per app (composeServices in app.ts) and handed to whatever checks,
 * revokes or changes what a token stands for: two apps in one process keep two caches.
 */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  /** Counts the forgets: a lookup that overlapped one does not store what it read (it may be from before a revocation). */
  #generation = 0;

  cachedClient(tokenHash: string): Client | undefined {
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    if (Date.now() < entry.until) return { ...entry.client };
    this.#entries.delete(tokenHash);
    return undefined;
  }

  /** The generation to hand back to `remember` after the lookup. */
  lookupStarted(): number {
    return this.#generation;
  }

  remember(tokenHash: string, client: Client, expiresAt: Date, startedAt: number): void {
    if (startedAt !== this.#generation) return;
    if (this.#entries.size >= entriesMax) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(tokenHash, { client, until: Math.min(Date.now() + tokenCacheSeconds * 1000, expiresAt.getTime()) });
  }

  forgetToken(tokenHash: string): void {
    this.#generation++;
    this.#entries.delete(tokenHash);
  }

  forgetClient(clientId: number): void {
    this.#generation++;
    for (const [hash, entry] of this.#entries) if (entry.client.id === clientId) this.#entries.delete(hash);
  }
}
