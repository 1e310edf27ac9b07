// An email address: the shape zod's z.email() checks by default, written out so the web apps need no
// zod: a local part of dot-separated runs (no leading, trailing or doubled dot), '@', dotted labels
// and a top-level domain of two letters or more. At most 254 characters (the SMTP path limit).

export const EMAIL_MAX_LENGTH = 254;

export const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export const EMAIL_MESSAGES = {
  invalid: 'Please enter a valid email address',
} as const;

/** Whether the value, exactly as given (callers trim; identity also lowercases), is an email address. */
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}
