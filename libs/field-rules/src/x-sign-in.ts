// Sign in with X (ADR 0028): every way the OAuth round trip can end badly comes back to the browser as
// /login?error=<code>, and the Login page says what the code means. The codes, their texts and identity's
// refusals are written here once, for the gateway (which picks the code), identity (which refuses) and
// the web apps (which show the text).

/** identity's refusals of a sign-in with X, as a person reads them. */
export const X_SIGN_IN_MESSAGES = {
  /** The X account is already the sign-in of another CLIP IT account. */
  xLinkedElsewhere: 'This X account is already linked to another CLIP IT account',
  /** The signed-in account already has an X account, and it is another one. */
  accountLinkedToOtherX: 'Your account is already linked to a different X account',
  /** An account with the X handle exists and is linked to another X account (the handle changed hands on X). */
  handleLinkedToOtherX: 'The CLIP IT account with this X handle is linked to a different X account',
  /** What X answered is not an X user (no numeric id or no handle). */
  xProfileInvalid: 'X did not return a usable profile',
  /** The sign-in with X buttons, when the platform has no X app configured. */
  unavailable: 'Sign in with X is not available here',
} as const;

/**
 * The `error` codes of /login?error=<code>, with the toast's text. The gateway never sends another code;
 * the page shows `failed` for one it does not know (an old bookmark, a hand-made address).
 */
export const X_SIGN_IN_ERRORS = {
  /** The person said no on X's consent page (`error=access_denied`). */
  'x-denied': 'You cancelled signing in with X. Nothing was changed.',
  /** No state cookie, a state that does not match it, or a round trip older than its 10 minutes. */
  'x-state': 'Your sign-in with X expired or was started in another tab. Please try again.',
  /** X refused to exchange the code for a token, or did not answer. */
  'x-token': 'X did not confirm your sign-in. Please try again.',
  /** X's user lookup failed or answered something that is not a user. */
  'x-profile': 'We could not read your X profile. Please try again.',
  /** No X app is configured on this platform. */
  'x-unavailable': X_SIGN_IN_MESSAGES.unavailable,
  'x-linked-elsewhere': X_SIGN_IN_MESSAGES.xLinkedElsewhere,
  'x-account-linked': X_SIGN_IN_MESSAGES.accountLinkedToOtherX,
  'x-handle-linked': X_SIGN_IN_MESSAGES.handleLinkedToOtherX,
  /** Too many sign-in attempts from this address. */
  'x-rate-limited': 'Too many sign-in attempts. Please wait a few minutes and try again.',
  /** A service behind the gateway (identity, Redis) could not be reached. */
  'x-unavailable-now': 'Signing in is temporarily unavailable. Please try again in a moment.',
  /** Anything else. */
  failed: 'Signing in with X failed. Please try again.',
} as const;

export type XSignInErrorCode = keyof typeof X_SIGN_IN_ERRORS;

/** The toast title of every sign-in with X failure (spec 01 §8's 'Login Error'). */
export const X_SIGN_IN_ERROR_TITLE = 'Login Error';

export function isXSignInErrorCode(value: unknown): value is XSignInErrorCode {
  return typeof value === 'string' && Object.hasOwn(X_SIGN_IN_ERRORS, value);
}

/** The text for a /login?error= value: its own for a known code, the generic one otherwise. */
export function xSignInErrorText(code: string): string {
  return isXSignInErrorCode(code) ? X_SIGN_IN_ERRORS[code] : X_SIGN_IN_ERRORS.failed;
}

/** X's user ids are numbers of up to 19 digits (64-bit), sent as text. */
export function isXUserId(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,19}$/.test(value);
}
