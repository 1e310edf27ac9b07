import { describe, expect, it } from '@jest/globals';
import { isPublishedMediaKey, mediaKeys } from './media-keys.js';

describe('published media keys', () => {
  const id = '0f4b2a9e-1111-4222-8333-0123456789ab';

  it('publishes what the media worker made and identity stored', () => {
    for (const key of [
      mediaKeys.video(id),
      mediaKeys.poster(id),
      mediaKeys.profileImage(id, 'ab12', 'png'),
      mediaKeys.bannerImage(id, 'cd34', 'webp'),
    ]) {
      expect(isPublishedMediaKey(key)).toBe(true);
    }
  });

  it('keeps raw uploads and anything unlisted private', () => {
    for (const key of [mediaKeys.upload(id), 'uploads/', 'videos/', 'video/x.mp4', 'other/videos/x.mp4', '', 'profile-images']) {
      expect(isPublishedMediaKey(key)).toBe(false);
    }
  });
});
