import { describe, expect, it } from '@jest/globals';
import { parsePostUrl, platformOf } from './post-url.js';

describe('parsePostUrl', () => {
  it.each([
    ['https://twitter.com/clipper/status/1790000000000000000', 'clipper', '1790000000000000000'],
    ['https://x.com/Clip_Per/status/42', 'Clip_Per', '42'],
    ['http://www.x.com/a/status/1', 'a', '1'],
    ['https://mobile.twitter.com/abc/status/123?s=20&t=x', 'abc', '123'],
    ['https://x.com/abc/status/123/photo/1', 'abc', '123'],
    ['https://X.COM/abc/status/123#frag', 'abc', '123'],
    ['  https://x.com/abc/status/9  ', 'abc', '9'],
  ])('reads %s', (url, authorHandle, externalId) => {
    expect(parsePostUrl(url)).toEqual({ authorHandle, externalId });
  });

  it.each([
    'https://x.com/abc',
    'https://x.com/abc/status/',
    'https://x.com/abc/status/12a',
    'https://x.com/abc/statuses/12',
    'https://evil.com/x.com/abc/status/1',
    'https://x.com.evil.com/abc/status/1',
    'https://m.x.com/abc/status/1',
    'ftp://x.com/abc/status/1',
    'x.com/abc/status/1',
    'https://x.com/this_handle_is_too_long/status/1',
    'https://instagram.com/p/abc',
    '',
  ])('refuses %s', (url) => {
    expect(parsePostUrl(url)).toBeNull();
  });
});

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
