import type { identityV1 } from '@clipit/contracts';
import {
  DISPLAY_NAME_MAX,
  PASSWORD_MAX_LENGTH,
  PLACEHOLDER_MESSAGES,
  PROFILE_IMAGE_MESSAGES,
  WALLET_CHANGE_MESSAGES,
  WALLET_MESSAGES,
} from '@clipit/field-rules';
import { z } from 'zod';
import { strictBody, wallet } from '../http/fields.js';

// proto3 optional fields arrive as undefined or null when unset, depending on the loader's settings.
const orNull = (v: string | null | undefined): string | null => (v === undefined || v === null ? null : v);

/**
 * PATCH /api/user/profile: the payout wallet. Replacing an existing one needs `currentPassword` (or, for an
 * account made with X, a sign-in with X in the last 10 minutes); never trimmed, as passwords are not.
 */
export const updateProfileBody = strictBody({
  walletAddress: wallet(WALLET_MESSAGES.required),
  currentPassword: z
    .string({ error: 'currentPassword must be text' })
    .max(PASSWORD_MAX_LENGTH, WALLET_CHANGE_MESSAGES.passwordIncorrect)
    .nullish()
    .transform((v) => (v ? v : undefined))
    .describe('The account password; needed to replace an existing wallet'),
});
export type UpdateProfileBody = z.output<typeof updateProfileBody>;

/** One active session of the signed-in account (GET /api/user/sessions). */
export const activeSessionSchema = z
  .object({
    id: z.string().describe('A reference to the session (never its cookie)'),
    device: z.string().describe('e.g. "Chrome on macOS", from the browser\'s user agent'),
    address: z.string().nullable().describe('The network it signed in from: the /24 of an IPv4 address, the /48 of an IPv6 one'),
    createdAt: z.string().describe('ISO 8601: when it signed in'),
    lastSeenAt: z.string().describe('ISO 8601, to within 5 minutes'),
    method: z.enum(['password', 'x']).nullable().describe('How it signed in: password or X'),
    current: z.boolean().describe("This browser's session"),
  })
  .meta({ id: 'ActiveSession' });
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const activeSessionsSchema = z.object({ sessions: z.array(activeSessionSchema) });
export type ActiveSessions = z.infer<typeof activeSessionsSchema>;

export const endedSessionsSchema = z.object({ endedSessions: z.number().int().describe('How many other sessions were signed out') });

export function toActiveSession(s: identityV1.ActiveSession): ActiveSession {
  return {
    id: s.id,
    device: s.device,
    address: orNull(s.address),
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    method: s.method === 'password' || s.method === 'x' ? s.method : null,
    current: s.current === true,
  };
}

/** POST /api/user/profile-picture/upload-url, /api/user/banner/upload-url: what the browser declares about its file. */
export const imageUploadUrlBody = strictBody({
  contentType: z
    .string({ error: "contentType must be the file's content type, such as image/png" })
    .trim()
    .min(1, "contentType must be the file's content type, such as image/png")
    .max(255, 'contentType is too long'),
  size: z
    .number({ error: PROFILE_IMAGE_MESSAGES.sizeInvalid })
    .int(PROFILE_IMAGE_MESSAGES.sizeInvalid)
    .min(0, PROFILE_IMAGE_MESSAGES.sizeInvalid),
});
export type ImageUploadUrlBody = z.output<typeof imageUploadUrlBody>;

export const imageUploadUrlSchema = z
  .object({
    uploadURL: z
      .string()
      .describe(
        "PUT the raw file here with its Content-Type: a presigned storage URL, or the gateway's own upload URL carrying a one-time token",
      ),
    uploadId: z.string(),
    imageUrl: z.string().describe('Where the image is served once set; send it back to PUT /api/user/profile-picture or /api/user/banner'),
    maxBytes: z.number().int().describe('The most bytes the file may have'),
  })
  .meta({ id: 'ImageUploadUrl' });
export type ImageUploadUrl = z.infer<typeof imageUploadUrlSchema>;

const imageUrl = (required: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? required : 'Image URL must be text') })
    .trim()
    .min(1, required)
    .max(4096, 'Image URL is too long');

/** PUT /api/user/profile-picture */
export const setProfilePictureBody = strictBody({ profileImageUrl: imageUrl(PROFILE_IMAGE_MESSAGES.imageUrlRequired) });
export type SetProfilePictureBody = z.output<typeof setProfilePictureBody>;

/** PUT /api/user/banner: without an image, the spec's 'No banner image selected'. */
export const setBannerBody = strictBody({ bannerImageUrl: imageUrl(PROFILE_IMAGE_MESSAGES.noBannerSelected) });
export type SetBannerBody = z.output<typeof setBannerBody>;

/** POST /api/user/update-profile: the display name, in the sign-up form's words. */
export const updateDisplayNameBody = strictBody({
  displayName: z
    .string({
      error: (iss) =>
        iss.input === undefined || iss.input === null ? PLACEHOLDER_MESSAGES.displayNameRequired : 'Display name must be text',
    })
    .trim()
    .min(1, PLACEHOLDER_MESSAGES.displayNameRequired)
    .max(DISPLAY_NAME_MAX, PLACEHOLDER_MESSAGES.displayNameTooLong),
});
export type UpdateDisplayNameBody = z.output<typeof updateDisplayNameBody>;

/** PUT /api/user/image-uploads/:uploadId */
export const imageStoredSchema = z.object({ uploadId: z.string(), size: z.number().int() }).meta({ id: 'ImageStored' });
