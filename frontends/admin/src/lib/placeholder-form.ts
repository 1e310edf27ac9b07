import { HANDLE_MESSAGES, isHandle, isHttpUrl, normalizeHandle } from '@clipit/field-rules';
import type { CreatePlaceholderStreamerRequest } from '@clipit/web-api';

/**
 * The placeholder streamer form (spec 02 §5), checked before anything is sent with the words identity
 * answers with when it checks the same fields again (its messages, word for word), so the admin reads
 * one wording whichever side refused.
 */
export interface PlaceholderForm {
  displayName: string;
  twitterUsername: string;
  profileImageUrl: string;
  bannerImageUrl: string;
  streamerMultiplier: string;
}

export const DISPLAY_NAME_MAX = 100;
export const DEFAULT_MULTIPLIER = '1.00';

export const PLACEHOLDER_MESSAGES = {
  displayNameRequired: 'Display name is required',
  displayNameTooLong: `Display name must be at most ${DISPLAY_NAME_MAX} characters`,
  twitterUsernameRequired: 'Twitter username is required',
  twitterUsernameInvalid: HANDLE_MESSAGES.invalid,
  profileImageUrlInvalid: 'Profile image URL must be a valid http(s) URL or an uploaded image',
  bannerImageUrlInvalid: 'Banner image URL must be a valid http(s) URL or an uploaded image',
  multiplierInvalid: 'Streamer multiplier must be a number from 1.00 to 2.00 in steps of 0.01',
} as const;

export const emptyPlaceholderForm: PlaceholderForm = {
  displayName: '',
  twitterUsername: '',
  profileImageUrl: '',
  bannerImageUrl: '',
  streamerMultiplier: DEFAULT_MULTIPLIER,
};

export type PlaceholderErrors = Partial<Record<keyof PlaceholderForm, string>>;

/** "1", "1.5", "1.50" → "1.50"; undefined unless it is 1.00 to 2.00 in steps of 0.01. */
export function normalizeMultiplier(raw: string): string | undefined {
  const match = /^(\d)(?:\.(\d{1,2}))?$/.exec(raw.trim());
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents < 100 || cents > 200) return undefined;
  return (cents / 100).toFixed(2);
}

export function validatePlaceholder(form: PlaceholderForm): PlaceholderErrors {
  const errors: PlaceholderErrors = {};
  const displayName = form.displayName.trim();
  if (!displayName) errors.displayName = PLACEHOLDER_MESSAGES.displayNameRequired;
  else if (displayName.length > DISPLAY_NAME_MAX) errors.displayName = PLACEHOLDER_MESSAGES.displayNameTooLong;
  const handle = normalizeHandle(form.twitterUsername);
  if (!handle) errors.twitterUsername = PLACEHOLDER_MESSAGES.twitterUsernameRequired;
  else if (!isHandle(handle)) errors.twitterUsername = PLACEHOLDER_MESSAGES.twitterUsernameInvalid;
  const profile = form.profileImageUrl.trim();
  if (profile && !isHttpUrl(profile)) errors.profileImageUrl = PLACEHOLDER_MESSAGES.profileImageUrlInvalid;
  const banner = form.bannerImageUrl.trim();
  if (banner && !isHttpUrl(banner)) errors.bannerImageUrl = PLACEHOLDER_MESSAGES.bannerImageUrlInvalid;
  const multiplier = form.streamerMultiplier.trim();
  if (multiplier && normalizeMultiplier(multiplier) === undefined) errors.streamerMultiplier = PLACEHOLDER_MESSAGES.multiplierInvalid;
  return errors;
}

/** The body of POST /api/admin/placeholder-streamers for a valid form (the handle without '@'). */
export function placeholderRequestBody(form: PlaceholderForm): CreatePlaceholderStreamerRequest {
  const body: CreatePlaceholderStreamerRequest = {
    displayName: form.displayName.trim(),
    twitterUsername: normalizeHandle(form.twitterUsername),
    streamerMultiplier: normalizeMultiplier(form.streamerMultiplier) ?? DEFAULT_MULTIPLIER,
  };
  const profile = form.profileImageUrl.trim();
  const banner = form.bannerImageUrl.trim();
  if (profile) body.profileImageUrl = profile;
  if (banner) body.bannerImageUrl = banner;
  return body;
}
