import { describe, expect, it } from '@jest/globals';
import { isProfileImageContentType, isProfileImageKind, megabytes, PROFILE_IMAGE_LIMITS, PROFILE_IMAGE_MESSAGES } from './profile-image.js';

describe('profile images', () => {
  it('limits a picture to 5 MB and a banner to 10 MB (spec 02 §9), said in the sign-up picture’s words', () => {
    expect(PROFILE_IMAGE_LIMITS.profile.maxBytes).toBe(5 * 1024 * 1024);
    expect(PROFILE_IMAGE_LIMITS.banner.maxBytes).toBe(10 * 1024 * 1024);
    expect(PROFILE_IMAGE_MESSAGES.tooLarge('profile')).toBe('Profile picture must be 5 MB or smaller');
    expect(PROFILE_IMAGE_MESSAGES.tooLarge('banner')).toBe('Banner image must be 10 MB or smaller');
    expect(PROFILE_IMAGE_MESSAGES.notImage('profile')).toBe('Profile picture must be an image file');
    expect(megabytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });

  it('knows the kinds and the image types', () => {
    expect(['profile', 'banner', 'avatar', undefined].map(isProfileImageKind)).toEqual([true, true, false, false]);
    expect(
      ['image/png', 'image/JPEG; x=y', 'image/gif', 'image/webp', 'image/svg+xml', 'text/html', '', null].map(isProfileImageContentType),
    ).toEqual([true, true, true, true, false, false, false, false]);
  });
});
