import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A secret handed to a person, which the database keeps only as a hash: an upload URL's token, a mailed
 * link's token, a hire's rating token. 32 random bytes (256 bits), base64url (43 characters); stored as
 * its SHA-256, hex. Every service that hands one out makes and checks it here.
 */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: secretTokenHash(token) };
}

/** What is stored of a token, and looked up by. */
export function secretTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether `token` is the one `storedHash` was made from, compared in constant time; never for an empty token. */
export function secretTokenMatches(storedHash: string, token: string): boolean {
  if (token === '') return false;
  const given = Buffer.from(secretTokenHash(token), 'hex');
  const held = Buffer.from(storedHash, 'hex');
  return given.length === held.length && timingSafeEqual(given, held);
}
