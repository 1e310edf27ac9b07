import { describe, expect, it } from '@jest/globals';
import { parsePostUrl, POST_MESSAGES, POST_PROBLEMS } from './post-url.js';

describe('X post link', () => {
  it.each([
    ['https://twitter.com/clipper/status/1790000000000000000', 'clipper', '1790000000000000000'],
    ['https://x.com/Clip_Per/status/42', 'Clip_Per', '42'],
    ['http://www.x.com/a/status/1', 'a', '1'],
    ['https://www.twitter.com/a/status/1', 'a', '1'],
    ['https://mobile.twitter.com/abc/status/123?s=20&t=x', 'abc', '123'],
    ['https://mobile.x.com/abc/status/123', 'abc', '123'],
    ['https://x.com/abc/status/123/photo/1', 'abc', '123'],
    ['https://X.COM/abc/status/123#frag', 'abc', '123'],
    ['  https://x.com/abc/status/9  ', 'abc', '9'],
    ['https://x.com/fifteen_chars_x/status/1', 'fifteen_chars_x', '1'],
    [`https://x.com/a/status/${'9'.repeat(25)}`, 'a', '9'.repeat(25)],
  ])('reads %s', (url, authorHandle, externalId) => {
    expect(parsePostUrl(url)).toEqual({ authorHandle, externalId });
  });

  it.each([
    '',
    'x.com/abc/status/1',
    'ftp://x.com/abc/status/1',
    'https://x.com/abc',
    'https://x.com/abc/status/',
    'https://x.com/status/42',
    'https://x.com/abc/status/12a',
    'https://x.com/abc/statuses/12',
    'https://evil.com/x.com/abc/status/1',
    'https://evilx.com/abc/status/1',
    'https://x.com.evil.com/abc/status/1',
    'https://m.x.com/abc/status/1',
    'https://m.twitter.com/abc/status/1',
    'https://youtube.com/abc/status/1',
    'https://instagram.com/p/abc',
    'https://x.com/dash-ed/status/1',
  ])('refuses %j', (url) => {
    expect(parsePostUrl(url)).toBeNull();
  });

  // The add-clip dialog used to read any handle length and any number of digits, so it sent links
  // the submissions service then refused with the same message; both now use this one rule.
  it.each([
    ['a handle longer than 15 characters', 'https://x.com/this_handle_is_too_long/status/1'],
    ['an id of more than 25 digits', `https://x.com/a/status/${'9'.repeat(26)}`],
  ])('refuses %s, which the browser and the service once disagreed on', (_case, url) => {
    expect(parsePostUrl(url)).toBeNull();
  });

  it('has the spec messages, as a toast and as one line', () => {
    expect(POST_PROBLEMS.missingInformation).toEqual({
      title: 'Missing Information',
      description: 'Please fill in the clip title and Twitter URL.',
    });
    expect(POST_MESSAGES).toEqual({
      missingInformation: 'Missing Information: Please fill in the clip title and Twitter URL.',
      invalidUrl: 'Invalid Twitter URL: Please enter a valid Twitter/X post URL.',
    });
  });
});
