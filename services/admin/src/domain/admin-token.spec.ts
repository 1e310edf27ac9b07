import { describe, expect, it } from '@jest/globals';
import { isAdminPassword } from './admin-password.js';
import { checkAdminToken, issueAdminToken } from './admin-token.js';

const keys = { secret: 'a-secret-of-enough-length', password: 'correct horse' };
const now = new Date('2026-11-24T02:00:00Z');

describe('admin password', () => {
  it('accepts exactly the password', () => {
    expect(isAdminPassword('correct horse', 'correct horse')).toBe(true);
    for (const attempt of ['', 'correct hors', 'correct horse ', 'Correct horse', 'correct horse battery'])
      expect(isAdminPassword(attempt, 'correct horse')).toBe(false);
  });
});

describe('admin tokens', () => {
  it('accepts a token it issued until it expires, then says it expired', () => {
    const { token, id, expiresAt } = issueAdminToken(keys, 3600, now);
    expect(expiresAt).toEqual(new Date('2026-11-24T03:00:00Z'));
    expect(checkAdminToken(token, keys, now)).toEqual({ ok: true, id, expiresAt });
    expect(checkAdminToken(token, keys, new Date('2026-11-24T02:59:59.999Z')).ok).toBe(true);
    expect(checkAdminToken(token, keys, expiresAt)).toEqual({
      ok: false,
      reason: 'Your admin session has expired. Enter the password again.',
    });
  });

  it('refuses a missing, malformed or forged token with the sentence for each', () => {
    const { token } = issueAdminToken(keys, 3600, now);
    expect(checkAdminToken(undefined, keys, now)).toEqual({ ok: false, reason: 'Admin authorization required' });
    expect(checkAdminToken('  ', keys, now)).toEqual({ ok: false, reason: 'Admin authorization required' });
    const [version, expires, id, signature] = token.split('.') as [string, string, string, string];
    const laterExpiry = `${version}.${Number(expires) + 86_400_000}.${id}.${signature}`;
    for (const bad of [
      'garbage',
      `${token}.x`,
      `v2.${expires}.${id}.${signature}`,
      laterExpiry,
      `${version}.${expires}.${id}.${signature.slice(0, -2)}AA`,
      'clipit-admin-dev',
    ]) {
      expect(checkAdminToken(bad, keys, now)).toEqual({ ok: false, reason: 'Invalid admin token' });
    }
  });

  it('ends every token when the password or the secret changes', () => {
    const { token } = issueAdminToken(keys, 3600, now);
    expect(checkAdminToken(token, { ...keys, password: 'a new password' }, now).ok).toBe(false);
    expect(checkAdminToken(token, { ...keys, secret: 'another-secret-of-length' }, now).ok).toBe(false);
  });

  it('gives each token its own id', () => {
    expect(issueAdminToken(keys, 60, now).id).not.toBe(issueAdminToken(keys, 60, now).id);
  });
});
