import {
  API_KEY_ALPHABET,
  API_KEY_CHECKSUM_LENGTH,
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  API_KEY_SCOPES,
  apiKeyChecksum,
  apiKeyFrom,
  checkApiKeyExpiry,
  checkApiKeyName,
  checkApiKeyScopes,
  crc32,
  isWellFormedApiKey,
} from './api-key.js';

const now = new Date('2026-11-30T12:00:00.000Z');
const RANDOM = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0'; // 30 base62 characters

describe('API key name', () => {
  it('is trimmed, and refused when blank or over 60 characters', () => {
    expect(checkApiKeyName('  CI reader ')).toEqual({ name: 'CI reader' });
    expect(checkApiKeyName('x'.repeat(60))).toEqual({ name: 'x'.repeat(60) });
    expect(checkApiKeyName('x'.repeat(61))).toEqual({ error: API_KEY_MESSAGES.nameTooLong });
    for (const raw of ['', '   ', undefined, null, 42]) expect(checkApiKeyName(raw)).toEqual({ error: API_KEY_MESSAGES.nameRequired });
  });
});

describe('API key scopes', () => {
  it('keeps each scope once, in the order of API_KEY_SCOPES', () => {
    expect(checkApiKeyScopes(['leaderboards:read', 'campaigns:read', 'leaderboards:read'])).toEqual({
      scopes: ['campaigns:read', 'leaderboards:read'],
    });
    expect(checkApiKeyScopes([...API_KEY_SCOPES].reverse())).toEqual({ scopes: [...API_KEY_SCOPES] });
  });

  it('refuses none and an unknown one', () => {
    for (const raw of [[], undefined, 'campaigns:read']) expect(checkApiKeyScopes(raw)).toEqual({ error: API_KEY_MESSAGES.scopesRequired });
    expect(checkApiKeyScopes(['campaigns:read', 'campaigns:write'])).toEqual({ error: API_KEY_MESSAGES.badScope });
    expect(checkApiKeyScopes(['Campaigns:read'])).toEqual({ error: API_KEY_MESSAGES.badScope });
  });
});

describe('API key expiry', () => {
  it('is none when absent, else a zoned moment after now and within 366 days', () => {
    for (const raw of [undefined, null, '']) expect(checkApiKeyExpiry(raw, now)).toEqual({ expiresAt: null });
    expect(checkApiKeyExpiry('2027-01-31T00:00:00Z', now)).toEqual({ expiresAt: new Date('2027-01-31T00:00:00Z') });
    expect(checkApiKeyExpiry('2026-12-01T02:00+02:00', now)).toEqual({ expiresAt: new Date('2026-12-01T00:00:00Z') });
    expect(checkApiKeyExpiry('2027-12-01T12:00:00.000Z', now)).toEqual({ expiresAt: new Date('2027-12-01T12:00:00Z') });
  });

  it('refuses what is not a zoned date and time, or names a day that does not exist', () => {
    for (const raw of ['tomorrow', '2027-01-31', '2027-01-31T00:00:00', '2027-13-01T00:00:00Z', '2027-02-30T00:00:00Z', 1767225600000]) {
      expect(checkApiKeyExpiry(raw, now)).toEqual({ error: API_KEY_MESSAGES.badExpiry });
    }
  });

  it('refuses now and before, and more than 366 days ahead', () => {
    expect(checkApiKeyExpiry(now.toISOString(), now)).toEqual({ error: API_KEY_MESSAGES.expiryPast });
    expect(checkApiKeyExpiry('2026-11-30T11:59:59Z', now)).toEqual({ error: API_KEY_MESSAGES.expiryPast });
    expect(checkApiKeyExpiry('2027-12-01T12:00:00Z', now)).toEqual({ expiresAt: new Date('2027-12-01T12:00:00Z') });
    expect(checkApiKeyExpiry('2027-12-01T12:00:01Z', now)).toEqual({ error: API_KEY_MESSAGES.expiryTooFar });
  });
});

describe('API key form', () => {
  it('computes the IEEE CRC-32', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('makes clipit_, the random part and a 6-character base62 checksum of what precedes it', () => {
    const key = apiKeyFrom(RANDOM);
    expect(key).toHaveLength(API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH + API_KEY_CHECKSUM_LENGTH);
    expect(key.startsWith(`${API_KEY_PREFIX}${RANDOM}`)).toBe(true);
    expect(key.slice(-API_KEY_CHECKSUM_LENGTH)).toBe(apiKeyChecksum(`${API_KEY_PREFIX}${RANDOM}`));
    expect([...apiKeyChecksum('x')].every((c) => API_KEY_ALPHABET.includes(c))).toBe(true);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('refuses a key with any character changed, a wrong length, another prefix or foreign characters', () => {
    const key = apiKeyFrom(RANDOM);
    for (let i = API_KEY_PREFIX.length; i < key.length; i++) {
      const other = key[i] === 'A' ? 'B' : 'A';
      expect(isWellFormedApiKey(key.slice(0, i) + other + key.slice(i + 1))).toBe(false);
    }
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}0`)).toBe(false);
    expect(isWellFormedApiKey(key.replace('clipit_', 'clipin_'))).toBe(false);
    expect(isWellFormedApiKey(apiKeyFrom(`${RANDOM.slice(0, -1)}-`))).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('writes in base62', () => {
    expect(API_KEY_ALPHABET).toHaveLength(62);
    expect(new Set(API_KEY_ALPHABET).size).toBe(62);
    expect(API_KEY_ALPHABET).toMatch(/^[0-9A-Za-z]+$/);
  });
});
