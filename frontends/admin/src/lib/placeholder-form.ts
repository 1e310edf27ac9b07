import {
  DEFAULT_STREAMER_MULTIPLIER as DEFAULT_MULTIPLIER,
  DISPLAY_NAME_MAX,
  isHandle,
  isHttpUrl,
  normalizeHandle,
  normalizeMultiplier,
  PLACEHOLDER_MESSAGES,
} from '@clipit/field-rules';
import type { CreatePlaceholderStreamerRequest } from '@clipit/web-api';

/**
 * The placeholder streamer form (spec 02 §5), checked before anything is sent with @clipit/field-rules'
 * rules and words, the ones identity checks again, so the admin reads one wording whichever side refused.
 */
export interface PlaceholderForm {
  displayName: string;
  twitterUsername: string;
  profileImageUrl: string;
  bannerImageUrl: string;
  streamerMultiplier: string;
}

export const emptyPlaceholderForm: PlaceholderForm = {
  displayName: '',
  twitterUsername: '',
  profileImageUrl: '',
  bannerImageUrl: '',
  streamerMultiplier: DEFAULT_MULTIPLIER,
};

export type PlaceholderErrors = Partial<Record<keyof PlaceholderForm, string>>;

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
