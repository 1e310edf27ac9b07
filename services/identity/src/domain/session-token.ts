import { createHash, randomBytes } from 'node:crypto';

/**
 * A session id is 32 random bytes, base64url (43 characters). The browser holds it in a cookie;
 * the database holds only its SHA-256, so a leaked sessions table cannot be replayed as cookies.
 */
export function generateSessionId(): string {
  return randomBytes(32).toString('base64url');
}

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export function isWellFormedSessionId(sid: string | undefined | null): sid is string {
  return typeof sid === 'string' && SESSION_ID.test(sid);
}

/** The key a session is stored under. */
export function sessionKey(sid: string): string {
  return createHash('sha256').update(sid).digest('base64url');
}

/**
 * How the sessions list names a stored session (its `key`) to the browser: a hash of the key, 22
 * characters, so the list never shows the key that events carry, let alone the id.
 */
export function sessionReference(key: string): string {
  return createHash('sha256').update(`session-ref:${key}`).digest('base64url').slice(0, 22);
}
