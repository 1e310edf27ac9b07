import { randomBytes } from 'node:crypto';
import type { developerV1 } from '@clipit/contracts';
import { API_KEY_ALPHABET, API_KEY_RANDOM_LENGTH, API_KEY_SHOWN_PREFIX_LENGTH, apiKeyFrom } from '@clipit/field-rules';
import { secretTokenHash } from '@clipit/service-kit';

/** An API key as developer keeps it: never the key itself, only its hash and its first characters. */
export interface ApiKeyRow {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A key just made: `secret` is told once, to its owner; `hash` and `prefix` are what is stored. */
export interface NewApiKey {
  secret: string;
  hash: string;
  prefix: string;
}

// The largest multiple of the alphabet's size a byte can hold (62 × 4 = 248): bytes from 248 up are
// dropped, so each character is drawn uniformly (a plain `byte % 62` would favour the first 8).
const ACCEPTED_BYTES = 256 - (256 % API_KEY_ALPHABET.length);

/** `length` characters drawn uniformly from the base62 alphabet, by rejection sampling. */
export function randomBase62(length: number, random: (size: number) => Uint8Array = randomBytes): string {
  let out = '';
  while (out.length < length) {
    // A few more bytes than needed: about 3 % of them are dropped.
    for (const byte of random(length - out.length + 8)) {
      if (byte >= ACCEPTED_BYTES) continue;
      out += API_KEY_ALPHABET[byte % API_KEY_ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** What a key is stored and looked up by: the SHA-256 of the whole key (hex). */
export function apiKeyHash(key: string): string {
  return secretTokenHash(key);
}

/** A new key: `clipit_`, 30 random base62 characters, their checksum. */
export function newApiKey(random?: (size: number) => Uint8Array): NewApiKey {
  const secret = apiKeyFrom(randomBase62(API_KEY_RANDOM_LENGTH, random));
  return { secret, hash: apiKeyHash(secret), prefix: secret.slice(0, API_KEY_SHOWN_PREFIX_LENGTH) };
}

/** A key as its owner's list shows it. */
export function toApiKeyMessage(row: ApiKeyRow): developerV1.ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt.toISOString() } : {}),
  };
}
