import { Transform, type TransformCallback } from 'node:stream';
import { isProfileImageContentType, PROFILE_IMAGE_MESSAGES, type ProfileImageKind } from '@clipit/field-rules';
import { BadRequestException } from '@nestjs/common';
import { sniffImageType } from '../auth/profile-picture.js';

/** Enough bytes to recognise every accepted image format (WebP's signature ends at byte 12). */
const SNIFF_BYTES = 12;

/** The two image kinds as their routes name them. */
export const IMAGE_ROUTE_KINDS = { 'profile-picture': 'profile', banner: 'banner' } as const satisfies Record<string, ProfileImageKind>;

/** The fs upload URL's address: the upload's id and its one-time token. */
export function gatewayImageUploadUrl(uploadId: string, token: string): string {
  return `/api/user/image-uploads/${encodeURIComponent(uploadId)}?token=${encodeURIComponent(token)}`;
}

/** A declared content type a profile image may be stored under, or the refusal in the kind's words. */
export function imageContentTypeProblem(kind: ProfileImageKind, contentType: string | undefined): string | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type.startsWith('image/')) return PROFILE_IMAGE_MESSAGES.notImage(kind);
  if (!isProfileImageContentType(type)) return PROFILE_IMAGE_MESSAGES.unsupported(kind);
  return undefined;
}

/**
 * Holds the first bytes of an upload until they show an image type (the sign-up picture's sniffing),
 * then lets everything through; bytes that are no image fail the stream with 400 before a byte of them
 * is written, so storage keeps nothing. Identity judges the stored bytes again before using them.
 */
export class ImageSniff extends Transform {
  private head: Buffer[] = [];
  private headLength = 0;
  private decided = false;

  constructor(private readonly kind: ProfileImageKind) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.decided) return callback(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) return callback();
    this.release(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.decided) return callback();
    this.release(callback);
  }

  private release(callback: TransformCallback): void {
    const head = Buffer.concat(this.head, this.headLength);
    this.head = [];
    if (!sniffImageType(head)) return callback(new BadRequestException(PROFILE_IMAGE_MESSAGES.notImage(this.kind)));
    this.decided = true;
    callback(null, head);
  }
}
