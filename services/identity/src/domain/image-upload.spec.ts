import { status } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import type { ImageUploadEntity } from '../entities/image-upload.entity.js';
import {
  imageUploadKeys,
  imageUploadRef,
  newUploadToken,
  ownImageKey,
  parseImageUploadRequest,
  requireUsable,
  storedImageVerdict,
  uploadTokenMatches,
} from './image-upload.js';

const USER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const UPLOAD = '33333333-3333-4333-8333-333333333333';
const MB = 1024 * 1024;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

function rejection(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (err) {
    return err as { code: number; message: string };
  }
  throw new Error('did not throw');
}

describe('what an upload URL may be asked for', () => {
  it('takes the four image types, parameters and case aside, within the kind’s limit', () => {
    expect(parseImageUploadRequest({ kind: 'profile', contentType: 'Image/PNG; charset=x', size: 5 * MB })).toEqual({
      kind: 'profile',
      contentType: 'image/png',
      size: 5 * MB,
      maxBytes: 5 * MB,
    });
    expect(parseImageUploadRequest({ kind: 'banner', contentType: 'image/webp', size: '10485760' }).maxBytes).toBe(10 * MB);
  });

  it('refuses other kinds, types that are not images, unsupported images and sizes over the limit, in words', () => {
    expect(rejection(() => parseImageUploadRequest({ kind: 'avatar', contentType: 'image/png', size: 1 })).message).toBe(
      'Image kind must be profile or banner',
    );
    expect(rejection(() => parseImageUploadRequest({ kind: 'profile', contentType: 'text/html', size: 1 }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Profile picture must be an image file',
    });
    expect(rejection(() => parseImageUploadRequest({ kind: 'banner', contentType: '', size: 1 })).message).toBe(
      'Banner image must be an image file',
    );
    expect(rejection(() => parseImageUploadRequest({ kind: 'banner', contentType: 'image/svg+xml', size: 1 })).message).toBe(
      'Banner image must be a PNG, JPEG, GIF or WebP image',
    );
    expect(rejection(() => parseImageUploadRequest({ kind: 'profile', contentType: 'image/png', size: 5 * MB + 1 }))).toMatchObject({
      code: status.OUT_OF_RANGE,
      message: 'Profile picture must be 5 MB or smaller',
    });
    expect(
      rejection(() => parseImageUploadRequest({ kind: 'banner', contentType: 'image/png', size: Math.round(10.1 * MB) })).message,
    ).toBe('Banner image must be 10 MB or smaller');
    expect(rejection(() => parseImageUploadRequest({ kind: 'banner', contentType: 'image/png', size: 1.5 })).message).toBe(
      'Image size must be a whole number of bytes',
    );
  });
});

describe('keys and URLs', () => {
  it('keeps the bytes at a private key and publishes the image under the kind’s folder, named for the user', () => {
    expect(imageUploadKeys({ id: UPLOAD, userId: USER, kind: 'profile', contentType: 'image/jpeg' })).toEqual({
      uploadKey: `image-uploads/${UPLOAD}`,
      imageKey: `profile-images/${USER}-${UPLOAD}.jpg`,
    });
    expect(imageUploadKeys({ id: UPLOAD, userId: USER, kind: 'banner', contentType: 'image/webp' }).imageKey).toBe(
      `banner-images/${USER}-${UPLOAD}.webp`,
    );
  });

  it('finds the upload a URL names: the image URL, the gateway upload URL or a presigned one', () => {
    expect(imageUploadRef(`/media/profile-images/${USER}-${UPLOAD}.png`, '/media')).toEqual({
      imageKey: `profile-images/${USER}-${UPLOAD}.png`,
    });
    expect(imageUploadRef(`https://cdn.example.com/media/banner-images/${USER}-${UPLOAD}.png`, 'https://cdn.example.com/media/')).toEqual({
      imageKey: `banner-images/${USER}-${UPLOAD}.png`,
    });
    expect(imageUploadRef(`/api/user/image-uploads/${UPLOAD}?token=abc`, '/media')).toEqual({ uploadId: UPLOAD });
    expect(imageUploadRef(`https://clipit.example/api/user/image-uploads/${UPLOAD.toUpperCase()}?token=abc`, '/media')).toEqual({
      uploadId: UPLOAD,
    });
    expect(imageUploadRef(`http://minio:9000/clipit-media/image-uploads/${UPLOAD}?X-Amz-Signature=x`, '/media')).toEqual({
      uploadId: UPLOAD,
    });
  });

  it('names no upload for anything else', () => {
    for (const url of [
      '',
      '   ',
      'https://example.com/cat.png',
      '/media/../etc/passwd',
      '/mediax/profile-images/a.png',
      `/api/user/image-uploads/${UPLOAD}/x`,
      'not a url at all',
      `/api/user/image-uploads/not-a-uuid`,
    ]) {
      expect([url, imageUploadRef(url, '/media')]).toEqual([url, undefined]);
    }
  });

  it('knows which old images are this user’s own to remove', () => {
    expect(ownImageKey(`/media/profile-images/${USER}-abc.png`, '/media', USER)).toBe(`profile-images/${USER}-abc.png`);
    expect(ownImageKey(`/media/banner-images/${USER}-abc.png`, '/media', USER)).toBe(`banner-images/${USER}-abc.png`);
    expect(ownImageKey(`/media/profile-images/${OTHER}-abc.png`, '/media', USER)).toBeUndefined();
    expect(ownImageKey('https://example.com/me.png', '/media', USER)).toBeUndefined();
    expect(ownImageKey(null, '/media', USER)).toBeUndefined();
  });
});

describe('using an upload', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const upload = (patch: Partial<ImageUploadEntity> = {}): ImageUploadEntity => ({
    id: UPLOAD,
    userId: USER,
    kind: 'profile',
    uploadKey: `image-uploads/${UPLOAD}`,
    imageKey: `profile-images/${USER}-${UPLOAD}.png`,
    tokenHash: 'h',
    contentType: 'image/png',
    declaredSize: 10,
    status: 'pending',
    expiresAt: new Date(now.getTime() + 60_000),
    createdAt: now,
    usedAt: null,
    ...patch,
  });

  it('answers the caller’s own pending upload of the kind', () => {
    expect(requireUsable(upload(), USER, 'profile', now).id).toBe(UPLOAD);
  });

  it('refuses unknown, someone else’s, the other kind, used, refused and expired uploads, in that order', () => {
    const cases: [ImageUploadEntity | null, string, number, string][] = [
      [null, USER, status.NOT_FOUND, 'Image upload not found or expired; request a new upload URL'],
      [upload({ status: 'used' }), OTHER, status.PERMISSION_DENIED, 'You can only use an image you uploaded'],
      [upload({ kind: 'banner' }), USER, status.INVALID_ARGUMENT, 'This image was uploaded as a banner, not a profile picture'],
      [upload({ status: 'used' }), USER, status.ALREADY_EXISTS, 'This image upload was already used; request a new upload URL'],
      [upload({ status: 'refused' }), USER, status.NOT_FOUND, 'Image upload not found or expired; request a new upload URL'],
      [upload({ expiresAt: now }), USER, status.NOT_FOUND, 'Image upload not found or expired; request a new upload URL'],
    ];
    for (const [row, userId, code, message] of cases) {
      expect(rejection(() => requireUsable(row, userId, 'profile', now))).toMatchObject({ code, message });
    }
  });

  it('judges the stored bytes, not the declaration', () => {
    expect(storedImageVerdict('profile', { size: 12 }, PNG)).toEqual({ image: { kind: 'png', mime: 'image/png', ext: 'png' } });
    expect(storedImageVerdict('banner', { size: 10 * MB }, PNG)).toHaveProperty('image');
    const tooLarge = storedImageVerdict('profile', { size: 5 * MB + 1 }, PNG);
    expect('refusal' in tooLarge && [tooLarge.refusal.message, tooLarge.keep]).toEqual([
      'Profile picture must be 5 MB or smaller',
      undefined,
    ]);
    const html = storedImageVerdict('banner', { size: 20 }, Buffer.from('<html><body>'));
    expect('refusal' in html && html.refusal.message).toBe('Banner image must be an image file');
    const empty = storedImageVerdict('banner', { size: 0 }, Buffer.alloc(0));
    expect('refusal' in empty && empty.refusal.message).toBe('Banner image must be an image file');
    // Nothing stored yet: refused, but the upload stays usable (the PUT may still come).
    const missing = storedImageVerdict('profile', undefined, Buffer.alloc(0));
    expect('refusal' in missing && [missing.refusal.message, missing.keep]).toEqual([
      'The image has not been uploaded yet: PUT the file to the upload URL first',
      true,
    ]);
  });

  it('keeps only a hash of the upload token', () => {
    const { token, hash } = newUploadToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain(token);
    expect(uploadTokenMatches(hash, token)).toBe(true);
    expect(uploadTokenMatches(hash, `${token}x`)).toBe(false);
    expect(uploadTokenMatches(hash, '')).toBe(false);
    expect(uploadTokenMatches(hash, undefined)).toBe(false);
  });
});
