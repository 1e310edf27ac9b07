import { createHash } from 'node:crypto';
import { API_KEY_ALPHABET, API_KEY_RANDOM_LENGTH, isWellFormedApiKey } from '@clipit/field-rules';
import { describe, expect, it } from '@jest/globals';
import { apiKeyHash, newApiKey, randomBase62, toApiKeyMessage } from './api-key.js';

/** A source of "random" bytes that hands out `bytes` in turn, over and over. */
function scripted(bytes: number[]) {
  let at = 0;
  return (size: number) => Uint8Array.from({ length: size }, () => bytes[at++ % bytes.length]!);
}

describe('randomBase62', () => {
  it('maps each accepted byte to the alphabet and drops the bytes from 248 up (no modulo bias)', () => {
    // 248..255 would be 0..7 again under a plain modulo: they are skipped, not mapped.
    const drawn = randomBase62(5, scripted([0, 248, 61, 255, 62, 250, 247, 123]));
    expect(drawn).toBe([0, 61, 0, 247 % 62, 123 % 62].map((b) => API_KEY_ALPHABET[b]).join(''));
  });

  it('keeps drawing until it has enough, however many bytes are dropped', () => {
    expect(randomBase62(30, scripted([255, 255, 255, 1]))).toBe(API_KEY_ALPHABET[1]!.repeat(30));
  });

  it('draws every character about equally often', () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 2000);
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 2000 each expected (σ ≈ 45); a plain `byte % 62` would give 8 of them about 2420, outside this band.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(250);
  });
});

describe('newApiKey', () => {
  it('makes a well-formed key, keeps its SHA-256 and its first 12 characters', () => {
    const made = newApiKey();
    expect(made.secret).toMatch(new RegExp(`^clipit_[0-9A-Za-z]{${API_KEY_RANDOM_LENGTH + 6}}$`));
    expect(isWellFormedApiKey(made.secret)).toBe(true);
    expect(made.hash).toBe(createHash('sha256').update(made.secret).digest('hex'));
    expect(apiKeyHash(made.secret)).toBe(made.hash);
    expect(made.prefix).toBe(made.secret.slice(0, 12));
    expect(newApiKey().secret).not.toBe(made.secret);
  });
});

describe('toApiKeyMessage', () => {
  it('writes times as ISO strings and leaves out what is not set', () => {
    const row = {
      id: 'a1d2c3b4-0000-4000-8000-000000000001',
      userId: 'a1d2c3b4-0000-4000-8000-000000000002',
      name: 'CI',
      prefix: 'clipit_abcde',
      scopes: ['campaigns:read'],
      expiresAt: null,
      createdAt: new Date('2026-11-30T12:00:00Z'),
      lastUsedAt: null,
    };
    expect(toApiKeyMessage(row)).toEqual({
      id: row.id,
      name: 'CI',
      prefix: 'clipit_abcde',
      scopes: ['campaigns:read'],
      createdAt: '2026-11-30T12:00:00.000Z',
    });
    expect(
      toApiKeyMessage({ ...row, expiresAt: new Date('2027-01-01T00:00:00Z'), lastUsedAt: new Date('2026-12-01T00:00:00Z') }),
    ).toMatchObject({ expiresAt: '2027-01-01T00:00:00.000Z', lastUsedAt: '2026-12-01T00:00:00.000Z' });
  });
});
