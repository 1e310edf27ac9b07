// A new password: 8 to 256 characters, never trimmed (spaces are characters). The upper bound keeps
// a hash request cheap; a longer password at login simply matches nobody.

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const PASSWORD_MESSAGES = {
  /** Login: the field is empty. */
  required: 'Password is required',
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  /** The forms' confirmation differs (checked in the browser only; it is never sent). */
  mismatch: "Passwords don't match",
} as const;

/** What is wrong with a new password; undefined when it is fine. */
export function newPasswordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  return undefined;
}
