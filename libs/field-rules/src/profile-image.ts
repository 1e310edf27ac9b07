// The images of a profile (spec 02 §2.6, §5 "Profile editing", §9): a picture and a banner, image
// files only, with a size limit each. The browser checks them before an upload, the gateway while the
// bytes arrive, and identity (which owns them) on the stored bytes before it accepts one.

/** The image types a profile image may be: what every browser shows, and no SVG (it can carry script). */
export const PROFILE_IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ProfileImageContentType = (typeof PROFILE_IMAGE_CONTENT_TYPES)[number];

export const PROFILE_IMAGE_KINDS = ['profile', 'banner'] as const;
export type ProfileImageKind = (typeof PROFILE_IMAGE_KINDS)[number];

const MB = 1024 * 1024;

/** Per kind: the words a person reads it by and the most bytes it may have (the banner's 10 MB is spec 02 §9's). */
export const PROFILE_IMAGE_LIMITS: Record<ProfileImageKind, { label: string; maxBytes: number }> = {
  profile: { label: 'Profile picture', maxBytes: 5 * MB },
  banner: { label: 'Banner image', maxBytes: 10 * MB },
};

export function isProfileImageKind(value: unknown): value is ProfileImageKind {
  return (PROFILE_IMAGE_KINDS as readonly unknown[]).includes(value);
}

/** Whether a declared content type (parameters ignored, any case) is one of the accepted image types. */
export function isProfileImageContentType(type: string | null | undefined): type is string {
  const bare = (type ?? '').split(';')[0]!.trim().toLowerCase();
  return (PROFILE_IMAGE_CONTENT_TYPES as readonly string[]).includes(bare);
}

/** "5 MB", "10 MB": the limit as the messages say it. */
export function megabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

export const PROFILE_IMAGE_MESSAGES = {
  /** 'Profile picture must be an image file' (also the sign-up picture's words), 'Banner image must be an image file'. */
  notImage: (kind: ProfileImageKind): string => `${PROFILE_IMAGE_LIMITS[kind].label} must be an image file`,
  unsupported: (kind: ProfileImageKind): string => `${PROFILE_IMAGE_LIMITS[kind].label} must be a PNG, JPEG, GIF or WebP image`,
  /** 'Profile picture must be 5 MB or smaller', 'Banner image must be 10 MB or smaller'. */
  tooLarge: (kind: ProfileImageKind): string =>
    `${PROFILE_IMAGE_LIMITS[kind].label} must be ${megabytes(PROFILE_IMAGE_LIMITS[kind].maxBytes)} or smaller`,
  sizeInvalid: 'Image size must be a whole number of bytes',
  /** Spec 02 §8: the banner form sent without a file. */
  noBannerSelected: 'No banner image selected',
  uploadNotFound: 'Image upload not found or expired; request a new upload URL',
  notYourUpload: 'You can only use an image you uploaded',
  imageUrlRequired: 'Image URL is required',
  wrongKind: (kind: ProfileImageKind): string =>
    kind === 'banner'
      ? 'This image was uploaded as a profile picture, not a banner'
      : 'This image was uploaded as a banner, not a profile picture',
  notUploaded: 'The image has not been uploaded yet: PUT the file to the upload URL first',
  alreadyUsed: 'This image upload was already used; request a new upload URL',
} as const;
