import { describe, expect, it } from '@jest/globals';
import { checkHireRating, firstHireRatingError, HIRE_RATING_MESSAGES as M, hireRatingPath, ratingSummary } from './hire-rating.js';

describe('checkHireRating', () => {
  it.each([1, 2, 3, 4, 5, '5', ' 3 '])('takes the rating %p', (rating) => {
    expect(checkHireRating({ rating })).toEqual({ ok: true, value: { rating: Number(rating), review: null } });
  });

  it.each([0, 6, -1, 4.5, '4.5', '', 'five', null, undefined, Number.NaN])('refuses the rating %p', (rating) => {
    expect(checkHireRating({ rating })).toEqual({ ok: false, errors: { rating: M.ratingRange } });
  });

  it('trims the review, keeps it up to 1,000 characters and drops an empty one', () => {
    expect(checkHireRating({ rating: 4, review: '  Fast and sharp.  ' })).toEqual({
      ok: true,
      value: { rating: 4, review: 'Fast and sharp.' },
    });
    expect(checkHireRating({ rating: 4, review: 'x'.repeat(1000) })).toMatchObject({ ok: true });
    expect(checkHireRating({ rating: 4, review: '   ' })).toEqual({ ok: true, value: { rating: 4, review: null } });
  });

  it('refuses a review over 1,000 characters, the rating’s words first', () => {
    const both = checkHireRating({ rating: 9, review: 'x'.repeat(1001) });
    expect(both).toEqual({ ok: false, errors: { rating: M.ratingRange, review: M.reviewTooLong } });
    expect(firstHireRatingError(both.ok ? {} : both.errors)).toBe(M.ratingRange);
    expect(checkHireRating({ rating: 3, review: 'x'.repeat(1001) })).toEqual({ ok: false, errors: { review: M.reviewTooLong } });
  });
});

describe('hireRatingPath and ratingSummary', () => {
  it('builds the rating page’s link with the token escaped, in the fragment', () => {
    expect(hireRatingPath('a1', 'ab-_c+/')).toBe('/hires/a1/rate#token=ab-_c%2B%2F');
  });

  it('reads the average with one decimal and the count, or says there is none', () => {
    expect(ratingSummary(0, 0)).toBe('No reviews yet');
    expect(ratingSummary(5, 1)).toBe('5.0 (1 review)');
    expect(ratingSummary(4.5, 2)).toBe('4.5 (2 reviews)');
  });
});
