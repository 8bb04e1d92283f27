// The tab's session: a token from POST /token kept in sessionStorage (gone when the tab closes, never shared with
// other tabs), and why the last session ended, for the sign-in screen to say.
import { useSyncExternalStore } from 'react';

export interface Session {
  token: string;
  username: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

const storageKey = 'shopapi-console-session';
const listeners = new Set<() => void>();

/** What the sign-in screen says after a session ran out, or after the sandbox refused its token (401). */
export const expiredNotice = 'Your session expired. Sign in again.';

function load(): { session?: Session; notice?: string } {
  let stored: Session | null = null;
  try {
    stored = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Session | null;
  } catch {
    // Not the console's writing: start signed out.
  }
  if (!stored) return {};
  if (stored.expiresAt > Date.now()) return { session: stored };
  sessionStorage.removeItem(storageKey);
  return { notice: expiredNotice };
}

let { session: current, notice: endNotice } = load();

function changed(): void {
  for (const listener of listeners) listener();
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const currentSession = (): Session | undefined => current;

export function useSession(): Session | undefined {
  return useSyncExternalStore(subscribeToSession, currentSession);
}

export function startSession(session: Session): void {
  sessionStorage.setItem(storageKey, JSON.stringify(session));
  current = session;
  endNotice = undefined;
  changed();
}

/** Ends the session; `notice` tells the sign-in screen why (nothing when the user signed out). */
export function endSession(notice?: string): void {
  sessionStorage.removeItem(storageKey);
  current = undefined;
  endNotice = notice;
  changed();
}

export const sessionEndNotice = (): string | undefined => endNotice;
