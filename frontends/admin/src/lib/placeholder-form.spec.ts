import { describe, expect, it } from '@jest/globals';
import { normalizeMultiplier, PLACEHOLDER_MESSAGES } from '@clipit/field-rules';
import { emptyPlaceholderForm, placeholderRequestBody, validatePlaceholder } from './placeholder-form.js';

const valid = { ...emptyPlaceholderForm, displayName: 'Streamer', twitterUsername: 'streamer' };

describe('the placeholder streamer form (spec 02 §5)', () => {
  it('takes a multiplier from 1.00 to 2.00 in steps of 0.01', () => {
    expect(normalizeMultiplier('1')).toBe('1.00');
    expect(normalizeMultiplier('1.5')).toBe('1.50');
    expect(normalizeMultiplier('2.00')).toBe('2.00');
    for (const bad of ['0.99', '2.01', '1.234', 'abc', '-1', '']) expect(normalizeMultiplier(bad)).toBeUndefined();
  });

  it('requires a display name and a handle; the image URLs are optional but must be http(s)', () => {
    expect(validatePlaceholder(emptyPlaceholderForm)).toEqual({
      displayName: PLACEHOLDER_MESSAGES.displayNameRequired,
      twitterUsername: PLACEHOLDER_MESSAGES.twitterUsernameRequired,
    });
    expect(validatePlaceholder(valid)).toEqual({});
    expect(validatePlaceholder({ ...valid, displayName: 'x'.repeat(101) })).toEqual({
      displayName: PLACEHOLDER_MESSAGES.displayNameTooLong,
    });
    expect(validatePlaceholder({ ...valid, twitterUsername: '@' })).toEqual({
      twitterUsername: PLACEHOLDER_MESSAGES.twitterUsernameRequired,
    });
    expect(validatePlaceholder({ ...valid, twitterUsername: 'has space' })).toEqual({
      twitterUsername: PLACEHOLDER_MESSAGES.twitterUsernameInvalid,
    });
    expect(validatePlaceholder({ ...valid, profileImageUrl: 'javascript:alert(1)', bannerImageUrl: '/relative.png' })).toEqual({
      profileImageUrl: PLACEHOLDER_MESSAGES.profileImageUrlInvalid,
      bannerImageUrl: PLACEHOLDER_MESSAGES.bannerImageUrlInvalid,
    });
    expect(validatePlaceholder({ ...valid, streamerMultiplier: '3' })).toEqual({
      streamerMultiplier: PLACEHOLDER_MESSAGES.multiplierInvalid,
    });
  });

  it('sends the handle without @, the multiplier normalised and only the URLs given', () => {
    expect(placeholderRequestBody({ ...valid, twitterUsername: ' @Streamer ', streamerMultiplier: '1.5' })).toEqual({
      displayName: 'Streamer',
      twitterUsername: 'Streamer',
      streamerMultiplier: '1.50',
    });
    expect(placeholderRequestBody({ ...valid, bannerImageUrl: ' https://example.com/b.png ' })).toEqual({
      displayName: 'Streamer',
      twitterUsername: 'streamer',
      streamerMultiplier: '1.00',
      bannerImageUrl: 'https://example.com/b.png',
    });
  });
});
