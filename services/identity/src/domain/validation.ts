import {
  DEFAULT_STREAMER_MULTIPLIER,
  DISPLAY_NAME_MAX,
  isEmail,
  isHandle,
  isHttpUrl,
  isSignUpRole,
  newPasswordProblem,
  normalizeHandle,
  normalizeMultiplier,
  URL_MAX_LENGTH,
  walletProblem,
  type SignUpRole,
} from '@clipit/field-rules';
import { invalid } from '@clipit/service-kit';
import { assertSafeKey } from '@clipit/storage';
import { MAX_PROFILE_PICTURE_BYTES, sniffImage, type SniffedImage } from './image.js';
import { messages } from './messages.js';

// Field rules shared by every command. Each check throws a DomainError (INVALID_ARGUMENT) whose
// message the person reads; commands run all of them before touching the database or storage. The
// rules the web apps and the gateway check too (handle, email, wallet, password, links) are
// @clipit/field-rules'.

const CLAIM_CODE_SHAPE = /^CLAIM-[A-Z0-9]{8}$/;

/** A required handle, normalized and checked. */
export function requireHandle(raw: string | undefined | null, requiredMessage: string = messages.handleRequired): string {
  const handle = normalizeHandle(raw);
  if (!handle) throw invalid(requiredMessage);
  if (!isHandle(handle)) throw invalid(messages.handleInvalid);
  return handle;
}

/** Emails are compared and stored lowercased. */
export function requireEmail(raw: string | undefined | null): string {
  const email = (raw ?? '').trim().toLowerCase();
  if (!isEmail(email)) throw invalid(messages.emailInvalid);
  return email;
}

export function requireWallet(raw: string | undefined | null, requiredMessage: string): string {
  const problem = walletProblem(raw, requiredMessage);
  if (problem) throw invalid(problem);
  return (raw ?? '').trim();
}

export function requireNewPassword(raw: string | undefined | null): string {
  const password = raw ?? '';
  const problem = newPasswordProblem(password);
  if (problem) throw invalid(problem);
  return password;
}

/** An image address identity accepts: an http(s) URL, or a key of our own storage under the media base. */
export function isImageUrl(value: string, mediaBase: string): boolean {
  if (isHttpUrl(value)) return true;
  const prefix = `${mediaBase.replace(/\/+$/, '')}/`;
  if (!prefix.startsWith('/') || !value.startsWith(prefix) || value.length > URL_MAX_LENGTH) return false;
  try {
    assertSafeKey(value.slice(prefix.length));
    return true;
  } catch {
    return false;
  }
}

/** Empty or whitespace-only optional text counts as absent. */
function optionalText(raw: string | undefined | null): string | null {
  const value = (raw ?? '').trim();
  return value === '' ? null : value;
}

// ---- Commands ----

export interface SignUpFields {
  email?: string;
  displayName?: string;
  twitterHandle?: string;
  walletAddress?: string;
  role?: string;
  tokenLink?: string;
  claimCode?: string;
  password?: string;
  profilePicture?: Uint8Array;
}

export interface SignUpInput {
  email: string;
  handle: string;
  walletAddress: string;
  role: SignUpRole;
  tokenLink: string | null;
  password: string;
  displayName: string | null;
  claimCode: string | null;
  picture: { bytes: Buffer; image: SniffedImage } | null;
}

/** Checks a whole sign-up in form order and answers it normalized; throws at the first problem. */
export function parseSignUp(req: SignUpFields): SignUpInput {
  const email = requireEmail(req.email);
  const handle = requireHandle(req.twitterHandle);
  const walletAddress = requireWallet(req.walletAddress, messages.walletRequiredSignUp);
  const role = (req.role ?? '').trim().toLowerCase();
  if (!isSignUpRole(role)) throw invalid(messages.roleInvalid);
  const tokenLink = optionalText(req.tokenLink);
  if (tokenLink !== null && !isHttpUrl(tokenLink)) throw invalid(messages.urlInvalid);
  const password = requireNewPassword(req.password);
  const displayName = optionalText(req.displayName);
  if (displayName !== null && displayName.length > DISPLAY_NAME_MAX) throw invalid(messages.displayNameTooLong);
  const claimCode = optionalText(req.claimCode)?.toUpperCase() ?? null;
  if (claimCode !== null) {
    if (role !== 'streamer') throw invalid(messages.claimCodeStreamerOnly);
    if (!CLAIM_CODE_SHAPE.test(claimCode)) throw invalid(messages.claimCodeInvalid);
  }
  const picture = parseProfilePicture(req.profilePicture);
  return { email, handle, walletAddress, role, tokenLink, password, displayName, claimCode, picture };
}

/** No bytes (or zero bytes) means no picture; otherwise a real image of at most 5 MB. */
export function parseProfilePicture(bytes: Uint8Array | undefined | null): SignUpInput['picture'] {
  if (!bytes || bytes.length === 0) return null;
  if (bytes.length > MAX_PROFILE_PICTURE_BYTES) throw invalid(messages.pictureTooLarge);
  const image = sniffImage(bytes);
  if (!image) throw invalid(messages.pictureNotImage);
  return { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), image };
}

export interface LogInInput {
  handle: string;
  password: string;
}

/** Only presence is checked: a malformed handle simply matches no account. */
export function parseLogIn(req: { twitterHandle?: string; password?: string }): LogInInput {
  const handle = normalizeHandle(req.twitterHandle);
  if (!handle) throw invalid(messages.handleRequired);
  const password = req.password ?? '';
  if (!password) throw invalid(messages.passwordRequired);
  return { handle, password };
}

export interface ResetPasswordInput {
  handle: string;
  email: string;
  newPassword: string;
}

export function parseResetPassword(req: { twitterHandle?: string; email?: string; newPassword?: string }): ResetPasswordInput {
  const handle = normalizeHandle(req.twitterHandle);
  if (!handle) throw invalid(messages.handleRequired);
  const email = requireEmail(req.email);
  const newPassword = requireNewPassword(req.newPassword);
  return { handle, email, newPassword };
}

/** A display name someone sets on their profile: required, at most 100 characters (the sign-up's and placeholder's words). */
export function requireDisplayName(raw: string | undefined | null): string {
  const displayName = (raw ?? '').trim();
  if (!displayName) throw invalid(messages.displayNameRequired);
  if (displayName.length > DISPLAY_NAME_MAX) throw invalid(messages.displayNameTooLong);
  return displayName;
}

export interface ProfilePatch {
  displayName?: string;
  profileImageUrl?: string;
  bannerImageUrl?: string;
}

/** UpdateProfile's fields: the display name (images change only through an upload, SetProfileImage). */
export function parseProfileUpdate(req: { displayName?: string }): ProfilePatch {
  const patch: ProfilePatch = {};
  if (req.displayName !== undefined) {
    patch.displayName = requireDisplayName(req.displayName);
  }
  return patch;
}

export interface PlaceholderInput {
  displayName: string;
  twitterUsername: string;
  profileImageUrl: string | null;
  bannerImageUrl: string | null;
  streamerMultiplier: string;
}

export function parsePlaceholder(
  req: { displayName?: string; twitterUsername?: string; profileImageUrl?: string; bannerImageUrl?: string; streamerMultiplier?: string },
  mediaBase: string,
): PlaceholderInput {
  const displayName = (req.displayName ?? '').trim();
  if (!displayName) throw invalid(messages.displayNameRequired);
  if (displayName.length > DISPLAY_NAME_MAX) throw invalid(messages.displayNameTooLong);
  const twitterUsername = requireHandle(req.twitterUsername, messages.placeholderHandleRequired);
  const profileImageUrl = optionalText(req.profileImageUrl);
  if (profileImageUrl !== null && !isImageUrl(profileImageUrl, mediaBase)) throw invalid(messages.profileImageUrlInvalid);
  const bannerImageUrl = optionalText(req.bannerImageUrl);
  if (bannerImageUrl !== null && !isImageUrl(bannerImageUrl, mediaBase)) throw invalid(messages.bannerImageUrlInvalid);
  const rawMultiplier = optionalText(req.streamerMultiplier);
  const streamerMultiplier = rawMultiplier === null ? DEFAULT_STREAMER_MULTIPLIER : normalizeMultiplier(rawMultiplier);
  if (streamerMultiplier === undefined) throw invalid(messages.multiplierInvalid);
  return { displayName, twitterUsername, profileImageUrl, bannerImageUrl, streamerMultiplier };
}
