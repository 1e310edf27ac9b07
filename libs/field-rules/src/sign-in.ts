// The rest of the /login page's rules (login, sign-up, reset; spec 01 §5) and the answer to a failed login.

export const SIGN_UP_ROLES = ['clipper', 'streamer'] as const;
export type SignUpRole = (typeof SIGN_UP_ROLES)[number];

/** The longest link (a streamer's token link, an image address) a field accepts. */
export const URL_MAX_LENGTH = 2048;

export const SIGN_IN_MESSAGES = {
  /** A wrong handle or password, without saying which (placeholders, which have no password, too). */
  invalidCredentials: 'Invalid Twitter handle or password',
  roleRequired: 'Please select a role',
  urlInvalid: 'Please enter a valid URL',
} as const;

export function isSignUpRole(value: unknown): value is SignUpRole {
  return (SIGN_UP_ROLES as readonly unknown[]).includes(value);
}

/** An absolute http(s) address with a host, at most URL_MAX_LENGTH characters. */
export function isHttpUrl(value: string): boolean {
  if (value.length > URL_MAX_LENGTH) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** What identity hashes a password for (ADR 0044): each has its words when the hashing line is full. */
export type HashedOperation = 'log-in' | 'sign-up' | 'reset-request' | 'wallet-password';

const BUSY_WHAT: Record<HashedOperation, string> = {
  'log-in': 'sign-ins',
  'sign-up': 'sign-ups',
  'reset-request': 'password resets',
  'wallet-password': 'password checks',
};

/**
 * "Too many sign-ins right now; please try again in 3 seconds": identity's refusal when it could not hash
 * in time; the seconds are the Retry-After sent with it ('N' in the API document).
 */
export function busyText(operation: HashedOperation, seconds: number | 'N'): string {
  return `Too many ${BUSY_WHAT[operation]} right now; please try again in ${seconds} second${seconds === 1 ? '' : 's'}`;
}
