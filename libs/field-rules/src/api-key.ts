// API keys of the versioned read API (issue 37, ADR 0053): the dashboard's form, the gateway and the
// developer service check them alike.

import { parseIsoDateTime } from './stream-time.js';

/** What a key may read: each /api/v1 route names the one it needs. */
export const API_KEY_SCOPES = ['campaigns:read', 'submissions:read', 'leaderboards:read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_NAME_MAX = 60;
/** Keys a user may hold at once (revoked and expired ones do not count). */
export const API_KEYS_PER_USER_MAX = 20;
/** The furthest an expiry may be set: a year and a day from now. */
export const API_KEY_EXPIRY_MAX_DAYS = 366;

/** `clipit_`, the random part, the checksum: the fixed prefix is what secret scanners look for. */
export const API_KEY_PREFIX = 'clipit_';
export const API_KEY_RANDOM_LENGTH = 30;
export const API_KEY_CHECKSUM_LENGTH = 6;
/** How much of a key the list shows (and stores in the clear): `clipit_` and 5 characters of its random part. */
export const API_KEY_SHOWN_PREFIX_LENGTH = 12;

export const API_KEY_MESSAGES = {
  nameRequired: 'Please give the key a name',
  nameTooLong: `A key's name must be at most ${API_KEY_NAME_MAX} characters`,
  scopesRequired: 'Choose at least one scope',
  badScope: `Scopes must be among ${API_KEY_SCOPES.join(', ')}`,
  badExpiry: 'The expiry must be a date and time, such as 2027-01-31T00:00:00Z',
  expiryPast: 'The expiry must be in the future',
  expiryTooFar: `The expiry must be within ${API_KEY_EXPIRY_MAX_DAYS} days`,
  tooManyKeys: `You can have at most ${API_KEYS_PER_USER_MAX} keys; revoke one first`,
  keyNotFound: 'API key not found',
  invalidKeyId: 'Invalid key id',
  /** Any key the API does not accept: malformed, unknown, revoked or expired (which one is not revealed). */
  keyRefused: 'Invalid or revoked API key',
  keyMissing: 'This route needs an API key: Authorization: Bearer clipit_…',
  scopeMissing: (scope: ApiKeyScope) => `This API key lacks the ${scope} scope`,
} as const;

type Checked<T> = ({ error?: undefined } & T) | { error: string };

/** The name as stored: trimmed; `error` when blank or longer than 60 characters. */
export function checkApiKeyName(raw: unknown): Checked<{ name: string }> {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name) return { error: API_KEY_MESSAGES.nameRequired };
  if (name.length > API_KEY_NAME_MAX) return { error: API_KEY_MESSAGES.nameTooLong };
  return { name };
}

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return typeof value === 'string' && (API_KEY_SCOPES as readonly string[]).includes(value);
}

/** The scopes as stored: each once, in the order of API_KEY_SCOPES; `error` when none or one is unknown. */
export function checkApiKeyScopes(raw: unknown): Checked<{ scopes: ApiKeyScope[] }> {
  if (!Array.isArray(raw) || raw.length === 0) return { error: API_KEY_MESSAGES.scopesRequired };
  if (!raw.every(isApiKeyScope)) return { error: API_KEY_MESSAGES.badScope };
  return { scopes: API_KEY_SCOPES.filter((scope) => raw.includes(scope)) };
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The expiry as stored: none (null or absent), or a moment after `now` and within 366 days of it. */
export function checkApiKeyExpiry(raw: unknown, now: Date): Checked<{ expiresAt: Date | null }> {
  if (raw === null || raw === undefined || raw === '') return { expiresAt: null };
  if (typeof raw !== 'string' || !ISO_DATE_TIME.test(raw)) return { error: API_KEY_MESSAGES.badExpiry };
  // parseIsoDateTime also refuses a day that does not exist (Date alone rolls 2027-02-30 over to March).
  const expiresAt = parseIsoDateTime(raw);
  if (!expiresAt) return { error: API_KEY_MESSAGES.badExpiry };
  if (expiresAt.getTime() <= now.getTime()) return { error: API_KEY_MESSAGES.expiryPast };
  if (expiresAt.getTime() - now.getTime() > API_KEY_EXPIRY_MAX_DAYS * 86_400_000) return { error: API_KEY_MESSAGES.expiryTooFar };
  return { expiresAt };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${API_KEY_RANDOM_LENGTH + API_KEY_CHECKSUM_LENGTH}}$`);

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE) of ASCII text: the checksum GitHub's tokens carry too. */
export function crc32(text: string): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = crcTable[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The checksum of a key's body (`clipit_` and the random part): its CRC-32 in 6 base62 digits. */
export function apiKeyChecksum(body: string): string {
  let n = crc32(body);
  let digits = '';
  for (let i = 0; i < API_KEY_CHECKSUM_LENGTH; i++) {
    digits = BASE62[n % 62]! + digits;
    n = Math.floor(n / 62);
  }
  return digits;
}

/** A key from `randomPart` (30 base62 characters): `clipit_`, the random part, its checksum. */
export function apiKeyFrom(randomPart: string): string {
  const body = API_KEY_PREFIX + randomPart;
  return body + apiKeyChecksum(body);
}

/** Whether `key` has a key's shape and a checksum that matches: a typo or an invented key fails without a lookup. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_SHAPE.test(key)) return false;
  const split = key.length - API_KEY_CHECKSUM_LENGTH;
  return apiKeyChecksum(key.slice(0, split)) === key.slice(split);
}

/** The base62 alphabet keys are written in (the random part draws from it). */
export const API_KEY_ALPHABET = BASE62;
