import { describe, expect, it } from '@jest/globals';
import { generateSessionId, isWellFormedSessionId, sessionKey } from './session-token.js';

describe('session ids', () => {
  it('are 32 random bytes in base64url', () => {
    const sid = generateSessionId();
    expect(sid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(sid, 'base64url')).toHaveLength(32);
    expect(generateSessionId()).not.toBe(sid);
    expect(isWellFormedSessionId(sid)).toBe(true);
  });

  it('refuses anything else before it reaches the database', () => {
    for (const bad of ['', 'short', `${generateSessionId()}x`, 'a'.repeat(42) + '=', undefined, null]) {
      expect(isWellFormedSessionId(bad)).toBe(false);
    }
  });

  it('are stored as their SHA-256, never as themselves', () => {
    const sid = generateSessionId();
    const key = sessionKey(sid);
    expect(key).not.toBe(sid);
    expect(key).toBe(sessionKey(sid));
    expect(key).not.toBe(sessionKey(generateSessionId()));
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
  });
});
