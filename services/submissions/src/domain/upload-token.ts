import { createHash, randomBytes } from 'node:crypto';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The secret of a gateway upload URL, and the hash that is all the database keeps of it. */
export function newUploadToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hash(token) };
}

export function uploadTokenMatches(storedHash: string, token: string): boolean {
  return token !== '' && storedHash === hash(token);
}
