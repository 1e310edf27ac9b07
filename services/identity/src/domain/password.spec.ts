import { describe, expect, it } from '@jest/globals';
import { DEFAULT_SCRYPT, hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './password.js';

// A cheap cost keeps most of these fast; one test runs the real parameters end to end.
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('password hashing', () => {
  it('stores scrypt$N$r$p$salt$hash with the production parameters, a 16-byte salt and a 64-byte key', async () => {
    const stored = await hashPassword('correct horse battery');
    const [scheme, N, r, p, salt, key] = stored.split('$');
    expect(scheme).toBe('scrypt');
    expect([Number(N), Number(r), Number(p)]).toEqual([2 ** 15, 8, 1]);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64')).toHaveLength(64);
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('salts every hash differently', async () => {
    const [a, b] = await Promise.all([hashPassword('same password', FAST), hashPassword('same password', FAST)]);
    expect(a).not.toBe(b);
    await expect(verifyPassword('same password', a)).resolves.toBe(true);
    await expect(verifyPassword('same password', b)).resolves.toBe(true);
  });

  it('verifies with the parameters stored in the hash, and flags old ones for rehash', async () => {
    const stored = await hashPassword('pässwörd', FAST);
    expect(stored.startsWith('scrypt$1024$8$1$')).toBe(true);
    await expect(verifyPassword('pässwörd', stored)).resolves.toBe(true);
    expect(needsRehash(stored)).toBe(true);
    expect(needsRehash(stored, FAST)).toBe(false);
    expect(DEFAULT_SCRYPT.N).toBe(32768);
  });

  it('treats unicode compositions of the same text as the same password', async () => {
    const composed = 'caf\u00e9 au lait';
    const decomposed = 'cafe\u0301 au lait';
    const stored = await hashPassword(composed, FAST);
    await expect(verifyPassword(decomposed, stored)).resolves.toBe(true);
  });

  it.each([
    '',
    'plain',
    'bcrypt$1$2$3$a$b',
    'scrypt$x$8$1$c2FsdA==$a2V5',
    'scrypt$1048577$8$1$c2FsdA==$a2V5',
    'scrypt$1000$8$1$c2FsdA==$a2V5',
  ])('answers false for the malformed hash %j', async (stored) => {
    await expect(verifyPassword('anything', stored)).resolves.toBe(false);
  });

  it('answers false from the dummy check, after doing the work of a real one', async () => {
    await expect(verifyAgainstDummy('whatever')).resolves.toBe(false);
  });
});
