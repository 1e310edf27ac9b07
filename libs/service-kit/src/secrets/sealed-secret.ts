import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A secret a service must use again itself, not only check (a webhook endpoint's signing secret), kept
 * sealed: AES-256-GCM under a 32-byte key from the configuration, `v1.<iv>.<tag>.<ciphertext>` in
 * base64url. Wherever a sealed secret travels (its database row, a queue's job) it reads as nothing
 * without the key; a sealed value changed on the way fails to open instead of opening to something else.
 */
export function sealSecret(key: Buffer, secret: string): string {
  assertKey(key);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The secret `sealed` holds; throws when it was sealed under another key, or changed since. */
export function openSealedSecret(key: Buffer, sealed: string): string {
  assertKey(key);
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Whether `value` is a sealing key's configured form: the base64 (or base64url) of exactly 32 bytes. */
export function isSealingKey(value: string): boolean {
  return /^[A-Za-z0-9+/_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32;
}

/** The sealing key from its configured form: 32 bytes in base64 (or base64url). */
export function sealingKey(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  assertKey(key);
  return key;
}

function assertKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('a sealing key is 32 bytes (base64 of 32 random bytes)');
}
