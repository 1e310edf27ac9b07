// A placeholder streamer profile (spec 02 §5 "Placeholder streamer"): the admin form checks it before
// sending, identity checks it again before it creates the profile, in the same words.
import { HANDLE_MESSAGES } from './handle.js';

export const DISPLAY_NAME_MAX = 100;
/** What a placeholder's streamerMultiplier is when none is given. */
export const DEFAULT_STREAMER_MULTIPLIER = '1.00';

export const PLACEHOLDER_MESSAGES = {
  displayNameRequired: 'Display name is required',
  displayNameTooLong: `Display name must be at most ${DISPLAY_NAME_MAX} characters`,
  twitterUsernameRequired: 'Twitter username is required',
  twitterUsernameInvalid: HANDLE_MESSAGES.invalid,
  profileImageUrlInvalid: 'Profile image URL must be a valid http(s) URL or an uploaded image',
  bannerImageUrlInvalid: 'Banner image URL must be a valid http(s) URL or an uploaded image',
  multiplierInvalid: 'Streamer multiplier must be a number from 1.00 to 2.00 in steps of 0.01',
} as const;

/** "1", "1.5", "1.50" → "1.50"; undefined when it is not 1.00 to 2.00 in steps of 0.01. */
export function normalizeMultiplier(raw: string): string | undefined {
  const match = /^(\d)(?:\.(\d{1,2}))?$/.exec(raw.trim());
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents < 100 || cents > 200) return undefined;
  return (cents / 100).toFixed(2);
}
