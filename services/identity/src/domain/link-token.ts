/** A token as a link carries it: 43 URL-safe characters (@clipit/field-rules); anything else is no token of ours. */
export { isLinkToken } from '@clipit/field-rules';

// A link's token is a secret token (the service kit's newSecretToken): 256 random bits, only its hash stored.

/** How long a password reset link stays good. */
export const RESET_LINK_TTL_MS = 30 * 60_000;
/** How long an e-mail verification link stays good. */
export const VERIFICATION_LINK_TTL_MS = 48 * 60 * 60_000;

/**
 * The link in a message. The token goes in the fragment, which browsers never send to a server: it stays
 * out of access logs and Referer headers, and the page posts it.
 */
export function linkTo(siteUrl: string, path: '/reset-password' | '/verify-email', token: string): string {
  return `${siteUrl}${path}#token=${token}`;
}
