// Brute-force protection for POST /token: failed attempts are counted per username and address, per address, and per
// username, in fixed windows kept in the shared database, so every server process enforces the same limits.
//
// Written by hand for the reason rate-limit.ts is: the count must live in the database every process shares, and
// @fastify/rate-limit counts requests, whereas this counts failures, and attempts in flight, before the password check.
//
// An attempt first reserves a place in each scope, narrowest first, with one atomic upsert each (pending + 1): while
// failures + pending exceed a limit, parallel attempts cannot all slip through to the costly password hash. A scope
// with its failures at the limit refuses the attempt (429); one full only of attempts in flight makes it wait for them
// briefly, so parallel sign-ins of a real user are not refused for failures that never happen. A refused attempt takes
// its reservations back and counts nowhere: an attacker hammering one username from one address fills only that pair's
// count and adds at most that limit to the username's, so the real user, from another address, still signs in.
// Once checked, a failure counts in every scope; a success counts nowhere and resets its username-and-address count.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { schema, type Db } from '../../platform/db/index.ts';

const { tokenFailureCounters } = schema;

/**
 * How long an attempt waits for attempts in flight before it is refused. A password check takes well under a second,
 * but parallel sign-ins of one user pass a full scope a few at a time, and on a busy machine (2 cores under load:
 * 20 parallel sign-ins against a limit of 3 took over 3 s) each round takes longer.
 */
const pendingWaitMs = 10_000;

export interface TokenThrottleLimits {
  windowSeconds: number;
  perUsernameAndAddress: number;
  perAddress: number;
  perUsername: number;
}

export type Reservation =
  | { allowed: true /** Call once the password check is done. */; settle(success: boolean): Promise<void> }
  | { allowed: false; retryAfterSeconds: number };

/**
 * The address attempts are counted for. An IPv6 client usually holds a whole /64 and can pick any address in it, so
 * IPv6 addresses count by their /64; IPv4-mapped IPv6 addresses count as the IPv4 address.
 */
export function throttleAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail] = ip.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  // Groups after '::' may end in an embedded IPv4 address, which takes two groups' room.
  const tailGroups = groups(tail).flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const full =
    tail === undefined ? groups(head) : [...groups(head), ...Array(8 - groups(head).length - tailGroups.length).fill('0'), ...tailGroups];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

// Keys are digests: the table never holds a typed username (it may be a mistyped password) or the scope's raw text.
const keyOf = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');

export function tokenThrottle(db: Db, limits: TokenThrottleLimits) {
  const windowMs = Math.max(1, limits.windowSeconds) * 1000;
  const t = tokenFailureCounters;

  /** One more attempt in flight for the key in this window (a row of an older window starts again); the counts after it. */
  async function reservePlace(key: string, windowStart: Date): Promise<{ failures: number; pending: number }> {
    const sameWindow = sql`${t.windowStart} = excluded.window_start`;
    const [row] = await db
      .insert(t)
      .values({ key, windowStart, failures: 0, pending: 1 })
      .onConflictDoUpdate({
        target: t.key,
        set: {
          failures: sql`case when ${sameWindow} then ${t.failures} else 0 end`,
          pending: sql`case when ${sameWindow} then ${t.pending} + 1 else 1 end`,
          windowStart: sql`excluded.window_start`,
        },
      })
      .returning({ failures: t.failures, pending: t.pending });
    // A key's first attempt of a window also clears rows of past windows, so keys never seen again do not pile up.
    if (row.failures === 0 && row.pending === 1) await db.delete(t).where(lt(t.windowStart, windowStart));
    return row;
  }

  /** Ends attempts in flight; failed ones count as failures. Rows of another window are left alone. */
  async function endAttempts(keys: string[], windowStart: Date, failed: boolean) {
    if (!keys.length) return;
    await db
      .update(t)
      .set({
        pending: sql`greatest(${t.pending} - 1, 0)`,
        ...(failed ? { failures: sql`${t.failures} + 1` } : {}),
      })
      .where(and(inArray(t.key, keys), eq(t.windowStart, windowStart)));
  }

  async function reserve(username: string, ip: string, deadline: number): Promise<Reservation> {
    const now = Date.now();
    const windowStart = new Date(now - (now % windowMs));
    const address = throttleAddress(ip);
    const pairKey = keyOf('username+address', username, address);
    const scopes = [
      { key: pairKey, limit: limits.perUsernameAndAddress },
      { key: keyOf('address', address), limit: limits.perAddress },
      { key: keyOf('username', username), limit: limits.perUsername },
    ].filter((scope) => scope.limit > 0);
    const reserved: string[] = [];
    for (const scope of scopes) {
      reserved.push(scope.key);
      const { failures, pending } = await reservePlace(scope.key, windowStart);
      if (failures + pending <= scope.limit) continue;
      await endAttempts(reserved, windowStart, false);
      if (failures < scope.limit && Date.now() < deadline) {
        // Full only of attempts in flight: they may yet succeed and free their places.
        await sleep(50 + Math.random() * 100);
        return reserve(username, ip, deadline);
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000)) };
    }
    return {
      allowed: true,
      async settle(success) {
        if (!success) return endAttempts(reserved, windowStart, true);
        await endAttempts(reserved, windowStart, false);
        await db
          .update(t)
          .set({ failures: 0 })
          .where(and(eq(t.key, pairKey), eq(t.windowStart, windowStart)));
      },
    };
  }

  return {
    /** Reserves a password check for the username from the address, or says how long to wait. */
    reserve: (username: string, ip: string) => reserve(username, ip, Date.now() + pendingWaitMs),
  };
}
