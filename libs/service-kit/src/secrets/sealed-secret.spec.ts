import { randomBytes } from 'node:crypto';
import { openSealedSecret, sealingKey, sealSecret } from './sealed-secret.js';

describe('sealed secrets', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and seals the same secret differently each time', () => {
    const a = sealSecret(key, 'whsec_abc');
    const b = sealSecret(key, 'whsec_abc');
    expect(a).not.toBe(b);
    expect(a).not.toContain('abc');
    expect(openSealedSecret(key, a)).toBe('whsec_abc');
    expect(openSealedSecret(key, b)).toBe('whsec_abc');
  });

  it('refuses another key, a changed value and what is not a sealed secret', () => {
    const sealed = sealSecret(key, 'whsec_abc');
    expect(() => openSealedSecret(randomBytes(32), sealed)).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => openSealedSecret(key, [...parts.slice(0, 3), flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => openSealedSecret(key, 'whsec_abc')).toThrow('not a sealed secret');
  });

  it('takes a key of 32 bytes only', () => {
    expect(sealingKey(key.toString('base64'))).toEqual(key);
    expect(() => sealingKey(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });
});
