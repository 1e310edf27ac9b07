import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are hashed with scrypt (memory-hard, built into Node) and stored as
 * `scrypt$N$r$p$<salt base64>$<key base64>`, so the cost can be raised later without breaking
 * existing hashes: each hash carries the parameters it was made with.
 */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** scrypt's cost as log2 of N (PASSWORD_HASH_COST): the default, and the lowest production accepts; lower ones are for tests. */
export const DEFAULT_HASH_COST = 15;
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** DEFAULT_HASH_COST, r: 8, p: 1 };

/** The scrypt parameters of a cost (log2 of N), r and p as in {@link DEFAULT_SCRYPT}. */
export function scryptParamsOf(cost: number): ScryptParams {
  return { ...DEFAULT_SCRYPT, N: 2 ** cost };
}
const MAXMEM = 64 * 1024 * 1024;
const SALT_BYTES = 16;
const KEY_BYTES = 64;

function derive(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: MAXMEM };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return undefined;
  // Refuse absurd costs from a corrupted row rather than burning memory on them.
  if (N > 2 ** 20 || r > 32 || p > 16 || (N & (N - 1)) !== 0) return undefined;
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || key.length === 0) return undefined;
  return { params: { N, r, p }, salt, key };
}

/** True when the password matches; the comparison takes the same time wherever the bytes differ. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(candidate, parsed.key);
}

/** True when the hash was made with other parameters than the current ones (rehash on next log-in). */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT): boolean {
  const parsed = parseHash(stored);
  return (
    !parsed ||
    parsed.params.N !== params.N ||
    parsed.params.r !== params.r ||
    parsed.params.p !== params.p ||
    parsed.key.length !== KEY_BYTES
  );
}

const dummyHashes = new Map<string, Promise<string>>();

/**
 * Spends the same work as a real check when no account matches, so the answer time does not tell
 * whether a handle exists: a hash made with the current parameters, as the accounts' are. Always answers false.
 */
export async function verifyAgainstDummy(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<false> {
  const key = `${params.N}$${params.r}$${params.p}`;
  let dummy = dummyHashes.get(key);
  if (!dummy) {
    dummy = hashPassword('dummy password that matches nothing', params);
    dummyHashes.set(key, dummy);
  }
  await verifyPassword(password, await dummy);
  return false;
}
