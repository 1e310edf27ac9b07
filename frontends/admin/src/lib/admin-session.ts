import type { AdminToken } from '@clipit/web-api';

/**
 * Where the admin token lives between page loads of one tab: sessionStorage (gone with the tab), and
 * only the token and its end, never the password (ADR 0020).
 */
export const SESSION_STORAGE_KEY = 'clipit-admin-session';

export type StoredSession = Pick<AdminToken, 'token' | 'expiresAt'>;

/** Milliseconds until the session ends (≤ 0: already over; NaN expiry counts as over). */
export function msUntilExpiry(session: StoredSession, now = Date.now()): number {
  const end = Date.parse(session.expiresAt);
  return Number.isNaN(end) ? 0 : end - now;
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    // Storage disabled (privacy settings): the session lasts as long as the page.
    return undefined;
  }
}

/** The stored session, if one is there and well-formed; `expired` when it was there but its time is up. */
export function readSession(now = Date.now()): { session: StoredSession | null; expired: boolean } {
  const raw = storage()?.getItem(SESSION_STORAGE_KEY);
  if (!raw) return { session: null, expired: false };
  try {
    const parsed = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof parsed.token !== 'string' || typeof parsed.expiresAt !== 'string') throw new Error('malformed');
    const session = { token: parsed.token, expiresAt: parsed.expiresAt };
    if (msUntilExpiry(session, now) <= 0) {
      clearSession();
      return { session: null, expired: true };
    }
    return { session, expired: false };
  } catch {
    clearSession();
    return { session: null, expired: false };
  }
}

export function writeSession(answer: AdminToken): StoredSession {
  const session: StoredSession = { token: answer.token, expiresAt: answer.expiresAt };
  storage()?.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
  return session;
}

export function clearSession(): void {
  storage()?.removeItem(SESSION_STORAGE_KEY);
}
