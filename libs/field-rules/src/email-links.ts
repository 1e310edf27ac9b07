// Links identity mails (ADR 0031): what the reset dialog, the link pages and the services say, written once
// for identity (which refuses), the gateway (which answers) and the web apps (which show the texts).

/** Password reset by one-time link. */
export const RESET_LINK_MESSAGES = {
  /** The answer to every reset asked for, whether or not an account matched. */
  sent: 'If the Twitter handle and email match an account with a confirmed email address, we sent it a link to set the new password. The link works once, for 30 minutes.',
  /** A token unknown, used or past its 30 minutes. */
  invalid: 'This password reset link is invalid or has expired',
  /** The link page's answer once the new password is set (the spec's reset answer). */
  done: 'Password reset successfully',
} as const;

/** E-mail verification by link. */
export const EMAIL_VERIFICATION_MESSAGES = {
  invalid: 'This verification link is invalid or has expired',
  verified: 'Email address confirmed',
  sent: 'We sent a new confirmation link to your email address',
  alreadyVerified: 'Your email address is already confirmed',
} as const;

/** The token a link carries in its fragment (#token=…): 43 URL-safe characters. */
export function isLinkToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** The token in a link page's fragment (`#token=…`), or undefined. */
export function linkTokenFromHash(hash: string): string | undefined {
  const token = /(?:^|[#&])token=([^&]*)/.exec(hash)?.[1];
  return isLinkToken(token) ? token : undefined;
}
