// Profile picture and banner uploads (spec 02 §2.6, §5, §7, §8): ask the gateway for an upload URL,
// PUT the file there with its content type (XMLHttpRequest, for the progress), then save the image's
// URL on the profile. Each failure is the spec's sentence, the cause's message as its description.
import {
  isProfileImageContentType,
  PROFILE_IMAGE_CONTENT_TYPES,
  PROFILE_IMAGE_LIMITS,
  PROFILE_IMAGE_MESSAGES,
  type ProfileImageKind,
} from '@clipit/field-rules';
import { apiJson, HttpError, type ApiAnswer, type ApiRequestBody, type CurrentUser } from '@clipit/web-api';

/** What the browser declares about its file, and where to PUT it (the gateway's generated types). */
export type ImageUploadRequest = ApiRequestBody<'/api/user/profile-picture/upload-url', 'post'>;
export type ImageUploadUrl = ApiAnswer<'/api/user/profile-picture/upload-url', 'post'>;
type SetProfilePicture = ApiRequestBody<'/api/user/profile-picture', 'put'>;
type SetBanner = ApiRequestBody<'/api/user/banner', 'put'>;

/** profile: the profile picture; banner: the banner image (the shared rules' names). */
export type ImageKind = ProfileImageKind;

interface KindRules {
  uploadUrl: string;
  save: (imageUrl: string) => Promise<CurrentUser>;
  uploadFailed: string;
  saveFailed: string;
}

export const NO_BANNER_SELECTED = PROFILE_IMAGE_MESSAGES.noBannerSelected;
/** Spec 02 §2.6, §9. */
export const BANNER_HINT = 'Recommended 1500x500 px, max 10 MB';
/** The file inputs' `accept`: the image types the gateway takes. */
export const IMAGE_ACCEPT = PROFILE_IMAGE_CONTENT_TYPES.join(',');

const RULES: Record<ImageKind, KindRules> = {
  profile: {
    uploadUrl: '/api/user/profile-picture/upload-url',
    save: (profileImageUrl) => apiJson<CurrentUser>('PUT', '/api/user/profile-picture', { profileImageUrl } satisfies SetProfilePicture),
    uploadFailed: 'Failed to upload profile picture',
    saveFailed: 'Failed to upload profile picture',
  },
  banner: {
    uploadUrl: '/api/user/banner/upload-url',
    save: (bannerImageUrl) => apiJson<CurrentUser>('PUT', '/api/user/banner', { bannerImageUrl } satisfies SetBanner),
    uploadFailed: 'Failed to upload banner image',
    saveFailed: 'Failed to update banner',
  },
};

/** A failed step: `title` is the spec's toast title, the message what went wrong. */
export class ImageUploadError extends Error {
  constructor(
    readonly title: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ImageUploadError';
  }
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Whole percent sent, 100 only once every byte is. */
export function uploadPercent({ loaded, total }: UploadProgress): number {
  if (total <= 0) return 0;
  if (loaded >= total) return 100;
  return Math.min(99, Math.floor((loaded / total) * 100));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** PUTs the raw file to the upload URL with its content type; XMLHttpRequest because only it reports bytes sent. */
export function putFile(uploadUrl: string, file: File, onProgress?: (progress: UploadProgress) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', uploadUrl);
    xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.({ loaded: file.size, total: file.size });
        resolve();
      } else {
        reject(new HttpError(xhr.status, xhr.responseText || xhr.statusText));
      }
    };
    xhr.onerror = () => reject(new Error('network error'));
    xhr.onabort = () => reject(new Error('upload aborted'));
    xhr.send(file);
  });
}

/** What is wrong with a chosen file before anything is sent, or null. */
export function checkImageFile(kind: ImageKind, file: File | null | undefined): ImageUploadError | null {
  const failed = RULES[kind].uploadFailed;
  if (!file)
    return kind === 'banner'
      ? new ImageUploadError(NO_BANNER_SELECTED, 'Choose a banner image first.')
      : new ImageUploadError(failed, 'Choose an image first.');
  if (!file.type.startsWith('image/')) return new ImageUploadError(failed, PROFILE_IMAGE_MESSAGES.notImage(kind));
  if (!isProfileImageContentType(file.type)) return new ImageUploadError(failed, PROFILE_IMAGE_MESSAGES.unsupported(kind));
  if (file.size > PROFILE_IMAGE_LIMITS[kind].maxBytes) return new ImageUploadError(failed, PROFILE_IMAGE_MESSAGES.tooLarge(kind));
  return null;
}

/** The whole upload; resolves to the updated user, rejects with an ImageUploadError naming the failed step. */
export async function uploadProfileImage(
  kind: ImageKind,
  file: File | null | undefined,
  onProgress?: (progress: UploadProgress) => void,
): Promise<CurrentUser> {
  const problem = checkImageFile(kind, file);
  if (problem) throw problem;
  if (!file) throw new ImageUploadError(RULES[kind].uploadFailed, 'Choose an image first.');
  const rules = RULES[kind];
  let upload: ImageUploadUrl;
  try {
    upload = await apiJson<ImageUploadUrl>('POST', rules.uploadUrl, {
      contentType: file.type,
      size: file.size,
    } satisfies ImageUploadRequest);
  } catch (error) {
    throw new ImageUploadError(rules.uploadFailed, messageOf(error), { cause: error });
  }
  if (file.size > upload.maxBytes) throw new ImageUploadError(rules.uploadFailed, PROFILE_IMAGE_MESSAGES.tooLarge(kind));
  onProgress?.({ loaded: 0, total: file.size });
  try {
    await putFile(upload.uploadURL, file, onProgress);
  } catch (error) {
    throw new ImageUploadError(rules.uploadFailed, messageOf(error), { cause: error });
  }
  try {
    return await rules.save(upload.imageUrl);
  } catch (error) {
    throw new ImageUploadError(rules.saveFailed, messageOf(error), { cause: error });
  }
}
