import { mediaKeys } from '@clipit/contracts';
import {
  isProfileImageContentType,
  isProfileImageKind,
  PROFILE_IMAGE_LIMITS,
  PROFILE_IMAGE_MESSAGES,
  type ProfileImageKind,
} from '@clipit/field-rules';
import { conflict, forbidden, invalid, newSecretToken, notFound, secretTokenMatches, tooLarge } from '@clipit/service-kit';
import { assertSafeKey } from '@clipit/storage';
import type { ImageUploadEntity } from '../entities/image-upload.entity.js';
import { imageTypes, sniffImage, type SniffedImage } from './image.js';

// The rules of profile image uploads (spec 02 §2.6): what an upload URL may be asked for, which URL
// names which upload, and when an upload's stored bytes may become a picture or banner. Pure: the
// service does the I/O.

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** The raw upload's key (never published), which both upload URLs end with: the gateway's and a presigned S3 one. */
const UPLOAD_PREFIX = 'image-uploads/';
const UPLOAD_PATH = new RegExp(`/image-uploads/(${UUID})$`);
/** Bytes enough to recognise every accepted format (WebP needs 12). */
export const SNIFF_BYTES = 16;

export interface ImageUploadSpec {
  kind: ProfileImageKind;
  /** Lower case, without parameters. */
  contentType: string;
  size: number;
  maxBytes: number;
}

export function requireKind(raw: string | undefined | null): ProfileImageKind {
  if (!isProfileImageKind(raw)) throw invalid('Image kind must be profile or banner');
  return raw;
}

/** What the browser declares about the file it is about to send: checked now, and again on the stored bytes. */
export function parseImageUploadRequest(req: { kind?: string; contentType?: string; size?: number | string }): ImageUploadSpec {
  const kind = requireKind(req.kind);
  const type = (req.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type.startsWith('image/')) throw invalid(PROFILE_IMAGE_MESSAGES.notImage(kind));
  if (!isProfileImageContentType(type)) throw invalid(PROFILE_IMAGE_MESSAGES.unsupported(kind));
  // int64 arrives as text from the gRPC loader (longs: String); a number from in-process callers.
  const size = Number(req.size ?? 0);
  if (!Number.isSafeInteger(size) || size < 0) throw invalid(PROFILE_IMAGE_MESSAGES.sizeInvalid);
  const { maxBytes } = PROFILE_IMAGE_LIMITS[kind];
  if (size > maxBytes) throw tooLarge(PROFILE_IMAGE_MESSAGES.tooLarge(kind));
  return { kind, contentType: type, size, maxBytes };
}

/** The extension of a declared image type (`image/jpeg` → `jpg`). */
export function extensionFor(contentType: string): string {
  return Object.values(imageTypes).find((t) => t.mime === contentType)?.ext ?? 'img';
}

/** Where the bytes go (private) and where the image is served once set (published). */
export function imageUploadKeys(upload: { id: string; userId: string; kind: ProfileImageKind; contentType: string }): {
  uploadKey: string;
  imageKey: string;
} {
  const ext = extensionFor(upload.contentType);
  const imageKey =
    upload.kind === 'banner' ? mediaKeys.bannerImage(upload.userId, upload.id, ext) : mediaKeys.profileImage(upload.userId, upload.id, ext);
  return { uploadKey: `${UPLOAD_PREFIX}${upload.id}`, imageKey };
}

const trimSlash = (base: string) => base.replace(/\/+$/, '');

/** The storage key a URL under MEDIA_PUBLIC_BASE_URL names, or undefined (another site, not a key). */
export function mediaKeyOf(url: string, mediaBase: string): string | undefined {
  const prefix = `${trimSlash(mediaBase)}/`;
  if (!url.startsWith(prefix)) return undefined;
  const key = url.slice(prefix.length).split(/[?#]/)[0]!;
  try {
    assertSafeKey(key);
    return key;
  } catch {
    return undefined;
  }
}

export type ImageUploadRef = { uploadId: string } | { imageKey: string };

/**
 * Which upload a URL the browser sends back names: the `imageUrl` it was given (by its image key), or
 * the URL it PUT the bytes to (the gateway's `/api/user/image-uploads/<id>?token=…`, or a presigned
 * `…/image-uploads/<id>?X-Amz-…` on S3; by the id). Anything else names no upload of ours. Nothing
 * from the URL is stored: the answer only finds a row, whose owner and kind are then checked.
 */
export function imageUploadRef(raw: string | undefined | null, mediaBase: string): ImageUploadRef | undefined {
  const url = (raw ?? '').trim();
  if (url === '' || url.length > 4096) return undefined;
  const imageKey = mediaKeyOf(url, mediaBase);
  if (imageKey !== undefined) return { imageKey };
  let path: string;
  try {
    path = new URL(url, 'http://relative.invalid').pathname;
  } catch {
    return undefined;
  }
  const match = UPLOAD_PATH.exec(path);
  return match ? { uploadId: match[1]!.toLowerCase() } : undefined;
}

/**
 * The key of an image of this user's own that a URL names (a sign-up picture, an earlier upload), so
 * it can be removed once replaced; undefined for external URLs and for keys that are not theirs (an
 * admin may point a placeholder at any published object).
 */
export function ownImageKey(url: string | null | undefined, mediaBase: string, userId: string): string | undefined {
  if (!url) return undefined;
  const key = mediaKeyOf(url, mediaBase);
  if (!key) return undefined;
  const own = [`profile-images/${userId}-`, `banner-images/${userId}-`];
  return own.some((prefix) => key.startsWith(prefix)) ? key : undefined;
}

/** Whether an upload can still take bytes (the gateway's upload URL). */
export function acceptsBytes(upload: ImageUploadEntity | null, now: Date): upload is ImageUploadEntity {
  return upload !== null && upload.status === 'pending' && upload.expiresAt.getTime() > now.getTime();
}

/** Refuses an upload the caller may not use as their `kind` image now; answers it when they may. */
export function requireUsable(upload: ImageUploadEntity | null, userId: string, kind: ProfileImageKind, now: Date): ImageUploadEntity {
  if (!upload) throw notFound(PROFILE_IMAGE_MESSAGES.uploadNotFound);
  if (upload.userId !== userId) throw forbidden(PROFILE_IMAGE_MESSAGES.notYourUpload);
  if (upload.kind !== kind) throw invalid(PROFILE_IMAGE_MESSAGES.wrongKind(kind));
  if (upload.status === 'used') throw conflict(PROFILE_IMAGE_MESSAGES.alreadyUsed);
  if (!acceptsBytes(upload, now)) throw notFound(PROFILE_IMAGE_MESSAGES.uploadNotFound);
  return upload;
}

/**
 * The verdict on the stored bytes (the declared type and size are not trusted): present, within the
 * kind's limit, and an image by its first bytes. Answers the image type, or the refusal.
 */
export function storedImageVerdict(
  kind: ProfileImageKind,
  stored: { size: number } | undefined,
  head: Uint8Array,
): { image: SniffedImage } | { refusal: Error; keep?: true } {
  if (!stored) return { refusal: invalid(PROFILE_IMAGE_MESSAGES.notUploaded), keep: true };
  if (stored.size > PROFILE_IMAGE_LIMITS[kind].maxBytes) return { refusal: tooLarge(PROFILE_IMAGE_MESSAGES.tooLarge(kind)) };
  const image = sniffImage(head);
  if (!image) return { refusal: invalid(PROFILE_IMAGE_MESSAGES.notImage(kind)) };
  return { image };
}

/** The secret of a gateway upload URL, and the hash that is all the database keeps of it. */
export const newUploadToken = newSecretToken;

export function uploadTokenMatches(storedHash: string, token: string | undefined | null): boolean {
  return typeof token === 'string' && secretTokenMatches(storedHash, token);
}
