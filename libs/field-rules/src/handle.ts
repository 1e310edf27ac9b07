// A Twitter/X handle, by X's own rule: letters, digits and underscores, at most 15 of them.
// identity's users_twitter_username_check repeats the pattern in SQL; a spec there keeps the two equal.

export const HANDLE_MAX_LENGTH = 15;

/** The pattern without anchors, for patterns that contain a handle (the post link). */
export const HANDLE_CHARACTERS = `[A-Za-z0-9_]{1,${HANDLE_MAX_LENGTH}}`;

/** A whole handle (after normalizeHandle). */
export const HANDLE_PATTERN = new RegExp(`^${HANDLE_CHARACTERS}$`);

export const HANDLE_MESSAGES = {
  required: 'Twitter handle is required',
  invalid: `Twitter handle can only contain letters, numbers and underscores (at most ${HANDLE_MAX_LENGTH} characters)`,
} as const;

/** Trims and drops one leading `@`, so `@Alice ` and `Alice` are the same handle. */
export function normalizeHandle(raw: string | null | undefined): string {
  return (raw ?? '').trim().replace(/^@/, '').trim();
}

export function isHandle(handle: string): boolean {
  return HANDLE_PATTERN.test(handle);
}
