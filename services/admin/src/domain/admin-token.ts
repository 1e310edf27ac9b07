import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { messages } from './messages.js';

/**
 * Admin tokens (ADR 0020): `v1.<expires at, ms>.<random id>.<signature>`, the signature an
 * HMAC-SHA256 of the first three parts. The key is derived from ADMIN_TOKEN_SECRET and the password,
 * so changing the password ends every token at once. Stateless: any replica checks any token.
 */
export interface TokenKeys {
  secret: string;
  password: string;
}

export type TokenCheck = { ok: true; id: string; expiresAt: Date } | { ok: false; reason: string };

const VERSION = 'v1';

function signingKey(keys: TokenKeys): Buffer {
  return createHmac('sha256', keys.secret)
    .update('clipit-admin-token\0')
    .update(createHash('sha256').update(keys.password, 'utf8').digest())
    .digest();
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

export function issueAdminToken(keys: TokenKeys, ttlSeconds: number, now = new Date()): { token: string; id: string; expiresAt: Date } {
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  const id = randomBytes(12).toString('base64url');
  const payload = `${VERSION}.${expiresAt.getTime()}.${id}`;
  return { token: `${payload}.${sign(signingKey(keys), payload)}`, id, expiresAt };
}

/** Checks a token's shape, signature and expiry, in that order; the reason is the sentence to answer. */
export function checkAdminToken(token: string | undefined, keys: TokenKeys, now = new Date()): TokenCheck {
  const value = token?.trim() ?? '';
  if (value === '') return { ok: false, reason: messages.tokenMissing };
  const parts = value.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION || !/^\d{1,15}$/.test(parts[1]!) || !/^[\w-]{1,64}$/.test(parts[2]!))
    return { ok: false, reason: messages.tokenInvalid };
  const payload = parts.slice(0, 3).join('.');
  const expected = Buffer.from(sign(signingKey(keys), payload));
  const given = Buffer.from(parts[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: messages.tokenInvalid };
  const expiresAt = new Date(Number(parts[1]));
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: messages.tokenExpired };
  return { ok: true, id: parts[2]!, expiresAt };
}
