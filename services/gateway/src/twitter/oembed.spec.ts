import { describe, expect, it } from '@jest/globals';
import { POST_MESSAGES } from '@clipit/field-rules';
import { oembedCacheKey, OEMBED_MESSAGES, OEMBED_URL_MAX_LENGTH, pickOembedFields, positiveTtlSeconds, statusRefOf } from './oembed.js';

// X's answer for a post, as publish.twitter.com gives it (trimmed html).
const X_ANSWER = {
  url: 'https://twitter.com/clipit/status/1862000000000000001',
  author_name: 'CLIP IT',
  author_url: 'https://twitter.com/clipit',
  html: '<blockquote class="twitter-tweet"><p lang="en" dir="ltr">A clip</p>&mdash; CLIP IT (@clipit)</blockquote>\n',
  width: 550,
  height: null,
  type: 'rich',
  cache_age: '3153600000',
  provider_name: 'Twitter',
  provider_url: 'https://twitter.com',
  version: '1.0',
};

describe('statusRefOf: which links are looked up', () => {
  it.each([
    ['https://x.com/clipit/status/1862000000000000001', 'clipit'],
    ['https://twitter.com/Clip_It/status/1862000000000000001?s=20', 'Clip_It'],
    ['http://www.twitter.com/clipit/status/1862000000000000001/photo/1', 'clipit'],
    ['https://mobile.x.com/clipit/status/1862000000000000001#m', 'clipit'],
    ['  https://x.com/clipit/status/1862000000000000001  ', 'clipit'],
  ])('takes the status link %s by its post id, asking X about one canonical link', (url, handle) => {
    expect(statusRefOf(url)).toEqual({
      statusId: '1862000000000000001',
      canonicalUrl: `https://twitter.com/${handle}/status/1862000000000000001`,
    });
  });

  it('drops leading zeros, so one post is one cache key', () => {
    expect(statusRefOf('https://x.com/a/status/00042')).toEqual({ statusId: '42', canonicalUrl: 'https://twitter.com/a/status/42' });
    expect(statusRefOf('https://x.com/a/status/0')?.statusId).toBe('0');
  });

  it.each([
    'https://x.com/clipit',
    'https://x.com/clipit/status/',
    'https://x.com/clipit/status/12ab',
    'https://evil.example/clipit/status/1',
    'https://x.com.evil.example/clipit/status/1',
    'https://evilx.com/clipit/status/1',
    'https://x.com/this_handle_is_too_long/status/1',
    'ftp://x.com/clipit/status/1',
    'javascript:alert(1)//x.com/a/status/1',
    '',
  ])('refuses %j, which is not an X status link', (url) => {
    expect(statusRefOf(url)).toBeNull();
  });

  it('refuses a repeated parameter, a non-string and an over-long link', () => {
    expect(statusRefOf(['https://x.com/a/status/1', 'https://x.com/b/status/2'])).toBeNull();
    expect(statusRefOf(undefined)).toBeNull();
    expect(statusRefOf(`https://x.com/a/status/1?${'q'.repeat(OEMBED_URL_MAX_LENGTH)}`)).toBeNull();
  });

  it('says so in the submission form’s words', () => {
    expect(OEMBED_MESSAGES.invalidUrl).toBe(POST_MESSAGES.invalidUrl);
  });
});

describe('pickOembedFields: what is passed on', () => {
  it('keeps the documented fields, each of its type (cache_age as a number)', () => {
    expect(pickOembedFields(X_ANSWER)).toEqual({ ...X_ANSWER, cache_age: 3153600000 });
  });

  it('drops fields X did not document, and ones of the wrong type', () => {
    const picked = pickOembedFields({
      ...X_ANSWER,
      extra: 'x',
      __proto__: { polluted: true },
      author_name: 42,
      width: 'wide',
      thumbnail_url: 'https://pbs.twimg.com/a.jpg',
    });
    expect(Object.keys(picked!).sort()).toEqual(
      ['author_url', 'cache_age', 'height', 'html', 'provider_name', 'provider_url', 'thumbnail_url', 'type', 'url', 'version'].sort(),
    );
    expect(picked).not.toHaveProperty('polluted');
  });

  it('is null without an html (all the site reads), or for what is not an object', () => {
    expect(pickOembedFields({ ...X_ANSWER, html: undefined })).toBeNull();
    expect(pickOembedFields([X_ANSWER])).toBeNull();
    expect(pickOembedFields('html')).toBeNull();
    expect(pickOembedFields(null)).toBeNull();
  });
});

describe('caching', () => {
  it('keeps a found post for X’s cache_age capped by ours, at least a minute', () => {
    const oembed = pickOembedFields(X_ANSWER)!;
    expect(positiveTtlSeconds(oembed, 86_400)).toBe(86_400);
    expect(positiveTtlSeconds({ ...oembed, cache_age: 3600 }, 86_400)).toBe(3600);
    expect(positiveTtlSeconds({ ...oembed, cache_age: 5 }, 86_400)).toBe(60);
    expect(positiveTtlSeconds({ ...oembed, cache_age: 5 }, 30)).toBe(30);
    expect(positiveTtlSeconds({ html: '<p></p>' }, 86_400)).toBe(86_400);
  });

  it('keys a post by its id under the gateway’s prefix', () => {
    expect(oembedCacheKey('clipit:', '42')).toBe('clipit:oembed:42');
  });
});
