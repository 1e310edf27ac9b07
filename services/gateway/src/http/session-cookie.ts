import type { CookieSerializeOptions } from '@fastify/cookie';

export const SESSION_COOKIE = 'clipit.sid';

export type CookieSecureMode = 'auto' | 'true' | 'false';

/**
 * The session cookie's attributes: httpOnly (no script reads it), SameSite=Lax (not sent on
 * cross-site POSTs), Path=/, lifetime = what remains of the server-side session, and Secure when the
 * browser reached us over TLS (`auto`: the request's protocol, which honours X-Forwarded-Proto only
 * behind a trusted proxy) or always/never when configured so.
 */
export function sessionCookieOptions(opts: {
  expiresAt: string;
  secureMode: CookieSecureMode;
  requestProtocol: string;
  now?: number;
}): CookieSerializeOptions {
  const expires = Date.parse(opts.expiresAt);
  const seconds = Number.isFinite(expires) ? Math.max(0, Math.floor((expires - (opts.now ?? Date.now())) / 1000)) : 0;
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    maxAge: seconds,
    secure: isSecure(opts.secureMode, opts.requestProtocol),
  };
}

export function clearedSessionCookieOptions(secureMode: CookieSecureMode, requestProtocol: string): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: isSecure(secureMode, requestProtocol) };
}

/**
 * A cookie that lives minutes, not a session (the sign-in with X flow's): the session cookie's attributes
 * on a narrower path; without `maxAgeSeconds`, the options that clear it.
 */
export function shortLivedCookieOptions(opts: {
  path: string;
  maxAgeSeconds?: number;
  secureMode: CookieSecureMode;
  requestProtocol: string;
}): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: opts.path,
    ...(opts.maxAgeSeconds !== undefined ? { maxAge: opts.maxAgeSeconds } : {}),
    secure: isSecure(opts.secureMode, opts.requestProtocol),
  };
}

function isSecure(mode: CookieSecureMode, protocol: string): boolean {
  if (mode === 'true') return true;
  if (mode === 'false') return false;
  return protocol === 'https';
}
