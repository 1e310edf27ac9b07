import {
  EMAIL_MAX_LENGTH,
  EMAIL_MESSAGES,
  EMAIL_PATTERN,
  HANDLE_MESSAGES,
  HANDLE_PATTERN,
  normalizeHandle,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  WALLET_MESSAGES,
  WALLET_PATTERN,
} from '@clipit/field-rules';
import { z } from 'zod';

// Field builders shared by the route schemas. Each field says, in the spec's words, what is wrong:
// missing, wrong type and bad value each get a message a person can act on. The rules and their
// words are @clipit/field-rules', which the web apps and the owning services use too.

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

export const email = () =>
  z
    .string({ error: EMAIL_MESSAGES.invalid })
    .trim()
    .max(EMAIL_MAX_LENGTH, EMAIL_MESSAGES.invalid)
    .check(z.email({ pattern: EMAIL_PATTERN, error: EMAIL_MESSAGES.invalid }));

/** A wallet address; `required` is the wording of the form it comes from (WALLET_MESSAGES). */
export function wallet(required: string) {
  return z
    .string({ error: (iss) => (isMissing(iss.input) ? required : WALLET_MESSAGES.invalid) })
    .trim()
    .min(1, required)
    .regex(WALLET_PATTERN, WALLET_MESSAGES.invalid);
}

/** A new password: never trimmed (spaces are characters), 8 to 256 long. */
export function newPassword() {
  return z
    .string({ error: (iss) => (isMissing(iss.input) ? PASSWORD_MESSAGES.tooShort : 'Password must be text') })
    .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.tooShort)
    .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.tooLong);
}

/** A handle to look an account up by (login, reset): only presence is checked, a bad one matches nobody. */
export const twitterHandle = () => requiredText('Twitter handle', HANDLE_MESSAGES.required, 64);

/** A handle to register: one leading @ is dropped, then X's own rule applies. */
export const newTwitterHandle = () =>
  requiredText('Twitter handle', HANDLE_MESSAGES.required, 64)
    .transform(normalizeHandle)
    .pipe(z.string().min(1, HANDLE_MESSAGES.required).regex(HANDLE_PATTERN, HANDLE_MESSAGES.invalid));

/** An object that names unknown fields instead of silently dropping them. */
export function strictBody<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Request body must be a JSON object'),
  });
}

/**
 * A body checked by its shape, then by the shared field rules (@clipit/field-rules) that its owner checks
 * again: the first broken rule in form order is the 400's text, and the parsed body is the rules' value.
 * So a request refused by the rules is refused with the shape's refusals, before any limit counts it.
 */
export function checkedBy<S extends z.ZodType, V, F extends string>(
  shape: S,
  check: (input: z.output<S>) => { ok: true; value: V } | { ok: false; errors: Partial<Record<F, string>> },
  first: (errors: Partial<Record<F, string>>) => string | undefined,
) {
  return shape.transform((input, ctx): V => {
    const checked = check(input);
    if (checked.ok) return checked.value;
    ctx.addIssue({ code: 'custom', message: first(checked.errors) ?? 'Invalid request body' });
    return z.NEVER;
  });
}
