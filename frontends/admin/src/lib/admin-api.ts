import { apiJson, HttpError, type AdminToken, type VerifyPasswordRequest } from '@clipit/web-api';

/**
 * The admin area's calls (ADR 0020): @clipit/web-api's apiJson (credentials sent, a non-OK answer
 * raised as an HttpError "status: text" with the server's text, every body read or released), with
 * what only admin calls carry: `Authorization: Bearer <token>`. The password goes out once, to
 * verify-password, and is never stored or sent again.
 */

/** What the gate says when an admin call answers 401 or the token's time is up (ADR 0020). */
export const SESSION_EXPIRED_MESSAGE = 'Your admin session has expired. Enter the password again.';

/** Said when verification fails for any reason the server did not put into words (network, 5xx). */
export const AUTHENTICATION_FAILED = 'Authentication failed';

/** POST /api/admin/verify-password: the token and when it ends, or an HttpError (401 'Incorrect password', 429 …). */
export async function verifyPassword(password: string): Promise<AdminToken> {
  const body: VerifyPasswordRequest = { password };
  return apiJson<AdminToken>('POST', '/api/admin/verify-password', body);
}

/** An admin call with the bearer token; answers the parsed JSON body (undefined when empty). */
export function adminJson<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
  return apiJson<T>(method, url, body, { headers: { Authorization: `Bearer ${token}` } });
}

/** True for the answer that ends the admin session (a missing, wrong or expired token). */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof HttpError && error.status === 401;
}

/**
 * What a failure toast or message says: the server's own text when it answered one (an HttpError),
 * else the fallback (a network failure has no words the admin can use).
 */
export function failureText(error: unknown, fallback: string): string {
  if (error instanceof HttpError && error.text.trim() !== '') return error.text;
  return fallback;
}

/** The gate's message for a failed verification: the server's text for 401 and 429, else 'Authentication failed'. */
export function gateFailureText(error: unknown): string {
  if (error instanceof HttpError && (error.status === 401 || error.status === 429)) {
    return error.text.trim() || (error.status === 401 ? 'Incorrect password' : AUTHENTICATION_FAILED);
  }
  return AUTHENTICATION_FAILED;
}
