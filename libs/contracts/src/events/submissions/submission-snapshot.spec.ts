import { describe, expect, it } from '@jest/globals';
import { isInFeed } from './submission-snapshot.js';

const ready = { status: 'approved' as const, addedToFeed: true, videoState: 'ready' as const, videoUrl: '/media/videos/x/video.mp4' };

describe('isInFeed (the feed lists these clips; social lets only these be liked)', () => {
  it('holds an approved clip added to the feed with a playable video', () => {
    expect(isInFeed(ready)).toBe(true);
  });

  it('refuses anything less: not approved, not added, a video not ready, or none', () => {
    expect(isInFeed({ ...ready, status: 'pending' })).toBe(false);
    expect(isInFeed({ ...ready, status: 'rejected' })).toBe(false);
    expect(isInFeed({ ...ready, addedToFeed: false })).toBe(false);
    expect(isInFeed({ ...ready, videoState: 'processing' })).toBe(false);
    expect(isInFeed({ ...ready, videoState: 'awaiting-upload' })).toBe(false);
    expect(isInFeed({ ...ready, videoState: 'rejected' })).toBe(false);
    expect(isInFeed({ ...ready, videoState: 'none', videoUrl: null })).toBe(false);
    expect(isInFeed({ ...ready, videoUrl: null })).toBe(false);
  });
});
