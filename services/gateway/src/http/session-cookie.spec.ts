import { describe, expect, it } from '@jest/globals';
import { clearedSessionCookieOptions, SESSION_COOKIE, sessionCookieOptions } from './session-cookie.js';

// The Set-Cookie header these options produce is asserted over HTTP in e2e/auth-journey.e2e.spec.ts.

const now = Date.parse('2026-11-21T12:00:00Z');

describe('session cookie', () => {
  it('is httpOnly, SameSite=Lax, Path=/ and lives as long as the session', () => {
    const options = sessionCookieOptions({ expiresAt: '2026-12-05T12:00:00Z', secureMode: 'auto', requestProtocol: 'http', now });
    expect(options).toEqual({ httpOnly: true, sameSite: 'lax', path: '/', maxAge: 14 * 24 * 3600, secure: false });
    expect(SESSION_COOKIE).toBe('clipit.sid');
  });

  it('is Secure in auto mode only when the request came over TLS', () => {
    expect(sessionCookieOptions({ expiresAt: '2026-12-05T12:00:00Z', secureMode: 'auto', requestProtocol: 'https', now }).secure).toBe(
      true,
    );
    expect(sessionCookieOptions({ expiresAt: '2026-12-05T12:00:00Z', secureMode: 'auto', requestProtocol: 'http', now }).secure).toBe(
      false,
    );
  });

  it('follows COOKIE_SECURE=true/false whatever the protocol', () => {
    expect(sessionCookieOptions({ expiresAt: '2026-12-05T12:00:00Z', secureMode: 'true', requestProtocol: 'http', now }).secure).toBe(true);
    expect(sessionCookieOptions({ expiresAt: '2026-12-05T12:00:00Z', secureMode: 'false', requestProtocol: 'https', now }).secure).toBe(
      false,
    );
  });

  it('expires at once for a session already over or an unreadable expiry', () => {
    expect(sessionCookieOptions({ expiresAt: '2026-11-01T00:00:00Z', secureMode: 'auto', requestProtocol: 'http', now }).maxAge).toBe(0);
    expect(sessionCookieOptions({ expiresAt: 'soon', secureMode: 'auto', requestProtocol: 'http', now }).maxAge).toBe(0);
  });

  it('is cleared with the same path and flags', () => {
    expect(clearedSessionCookieOptions('auto', 'https')).toEqual({ httpOnly: true, sameSite: 'lax', path: '/', secure: true });
  });
});
