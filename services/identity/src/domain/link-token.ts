import { createHash, randomBytes } from 'node:crypto';

/** A token as a link carries it: 43 URL-safe characters (@clipit/field-rules); anything else is no token of ours. */
export { isLinkToken } from '@clipit/field-rules';

/** How long a password reset link stays good. */
export const RESET_LINK_TTL_MS = 30 * 60_000;
/** How long an e-mail verification link stays good. */
export const VERIFICATION_LINK_TTL_MS = 48 * 60 * 60_000;

/** A link's token: 256 random bits, URL-safe. Only its hash is stored. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a token, and looked up by: its SHA-256, hex. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The link in a message. The token goes in the fragment, which browsers never send to a server: it stays
 * out of access logs and Referer headers, and the page posts it.
 */
export function linkTo(siteUrl: string, path: '/reset-password' | '/verify-email', token: string): string {
  return `${siteUrl}${path}#token=${token}`;
}
