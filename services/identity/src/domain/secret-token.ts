import { createHash, randomBytes } from 'node:crypto';

/**
 * A secret handed to a person, which the database keeps only as a hash: an upload URL's token, a mailed
 * link's token. 32 random bytes (256 bits), base64url (43 characters); stored as its SHA-256, hex.
 * (Session ids are made the same way but stored under their own key format: session-token.ts.)
 */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: secretTokenHash(token) };
}

/** What is stored of a token, and looked up by. */
export function secretTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
