// The tokens this process has checked lately, so a hot route can authenticate without a database round trip.
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

const entries = new Map<string, Entry>();
/** Counts the forgets: a lookup that overlapped one does not store what it read (it may be from before a revocation). */
let generation = 0;

export function cachedClient(tokenHash: string): Client | undefined {
  const entry = entries.get(tokenHash);
  if (!entry) return undefined;
  if (Date.now() < entry.until) return { ...entry.client };
  entries.delete(tokenHash);
  return undefined;
}

/** The generation to hand back to `remember` after the lookup. */
export const lookupStarted = () => generation;

export function remember(tokenHash: string, client: Client, expiresAt: Date, startedAt: number): void {
  if (startedAt !== generation) return;
  if (entries.size >= entriesMax) entries.delete(entries.keys().next().value!);
  entries.set(tokenHash, { client, until: Math.min(Date.now() + tokenCacheSeconds * 1000, expiresAt.getTime()) });
}

export function forgetToken(tokenHash: string): void {
  generation++;
  entries.delete(tokenHash);
}

export function forgetClient(clientId: number): void {
  generation++;
  for (const [hash, entry] of entries) if (entry.client.id === clientId) entries.delete(hash);
}
