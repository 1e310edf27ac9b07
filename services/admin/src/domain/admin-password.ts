import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether `attempt` is the admin password, in time that depends on neither: both sides are hashed to
 * 32 bytes first, so the comparison never stops early at a differing character or a differing length.
 */
export function isAdminPassword(attempt: string, password: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(attempt), digest(password));
}
