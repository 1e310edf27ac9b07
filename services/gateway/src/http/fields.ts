import { z } from 'zod';

// Field builders shared by the route schemas. Each field says, in the spec's words, what is wrong:
// missing, wrong type and bad value each get a message a person can act on.

const isMissing = (input: unknown) => input === undefined || input === null;

/** A required text field, trimmed; missing or blank → `required`. */
export function requiredText(label: string, required: string, max: number) {
  return z
    .string({ error: (iss) => (isMissing(iss.input) ? required : `${label} must be text`) })
    .trim()
    .min(1, required)
    .max(max, `${label} is too long`);
}

/** An optional text field: absent, null or blank all mean "not given". */
export function optionalText(label: string, max: number, tooLong = `${label} is too long`) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, tooLong)
    .transform((v) => (v === '' ? undefined : v))
    .nullish()
    .transform((v) => v ?? undefined);
}

export const EMAIL_INVALID = 'Please enter a valid email address';

export const email = () =>
  z
    .string({ error: EMAIL_INVALID })
    .trim()
    .max(254, EMAIL_INVALID)
    .check(z.email({ error: EMAIL_INVALID }));

// Solana addresses are base58 (no 0, O, I, l) public keys: 32 to 44 characters.
const BASE58_WALLET = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
export const WALLET_INVALID = 'Please enter a valid Solana wallet address';

export function wallet(required: string) {
  return z
    .string({ error: (iss) => (isMissing(iss.input) ? required : WALLET_INVALID) })
    .trim()
    .min(1, required)
    .regex(BASE58_WALLET, WALLET_INVALID);
}

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;
export const PASSWORD_TOO_SHORT = 'Password must be at least 8 characters';
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX} characters`;

/** A new password: never trimmed (spaces are characters), 8 to 256 long (identity's bounds). */
export function newPassword() {
  return z
    .string({ error: (iss) => (isMissing(iss.input) ? PASSWORD_TOO_SHORT : 'Password must be text') })
    .min(PASSWORD_MIN, PASSWORD_TOO_SHORT)
    .max(PASSWORD_MAX, PASSWORD_TOO_LONG);
}

export const HANDLE_REQUIRED = 'Twitter handle is required';
export const HANDLE_INVALID = 'Twitter handle can only contain letters, numbers and underscores (at most 15 characters)';

/** A handle to look an account up by (login, reset): only presence is checked, a bad one matches nobody. */
export const twitterHandle = () => requiredText('Twitter handle', HANDLE_REQUIRED, 64);

/** A handle to register: one leading @ is dropped, then Twitter's own rule applies. */
export const newTwitterHandle = () =>
  requiredText('Twitter handle', HANDLE_REQUIRED, 64)
    .transform((v) => v.replace(/^@/, '').trim())
    .pipe(z.string().min(1, HANDLE_REQUIRED).regex(/^[A-Za-z0-9_]{1,15}$/, HANDLE_INVALID));

/** An object that names unknown fields instead of silently dropping them. */
export function strictBody<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Request body must be a JSON object'),
  });
}
