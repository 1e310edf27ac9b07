import { describe, expect, it } from '@jest/globals';
import { platformOf } from './post-url.js';

describe('platformOf (spec 02 §2.4)', () => {
  it.each([
    ['https://twitter.com/a/status/1', 'twitter'],
    ['https://www.x.com/a/status/1', 'twitter'],
    ['https://mobile.twitter.com/a', 'twitter'],
    ['https://www.instagram.com/reel/abc', 'instagram'],
    ['https://vm.tiktok.com/abc', 'tiktok'],
    ['https://www.youtube.com/shorts/abc', 'other'],
    ['https://notx.com/a', 'other'],
    ['not a url', 'other'],
  ])('%s is %s', (url, platform) => {
    expect(platformOf(url)).toBe(platform);
  });
});
