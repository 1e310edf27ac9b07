// A client's rating of a completed hire (issue 33 §8, ADR 0040): the rating page checks it as the client
// chooses, the gateway and the campaigns service check it again before it is stored.

export const HIRE_RATING_LIMITS = { min: 1, max: 5, reviewMax: 1000 } as const;

export const HIRE_RATING_MESSAGES = {
  ratingRange: 'Rating must be a whole number from 1 to 5',
  reviewTooLong: 'Review must be at most 1,000 characters',
  tokenRequired: 'The rating link is incomplete: open the link you were given when you sent the request',
  /** The token does not match the hire's (403). */
  wrongToken: 'This rating link is not valid for this hire',
  /** The hire is rated already (409). */
  alreadyRated: 'This hire has already been rated',
  /** The clipper has not marked the hire completed yet (409). */
  notCompleted: 'Only a completed hire can be rated: the clipper has not marked it completed yet',
  /** What the client is told once it is stored. */
  saved: 'Thank you! Your rating was saved.',
  /** The rating page's fallback when the server says nothing. */
  failed: 'Failed to save your rating. Please try again.',
} as const;

export interface HireRatingInput {
  rating?: number | string | null | undefined;
  review?: string | null | undefined;
}

export interface HireRatingDraft {
  rating: number;
  /** Trimmed; null when empty. */
  review: string | null;
}

export type HireRatingCheck = { ok: true; value: HireRatingDraft } | { ok: false; errors: Partial<Record<'rating' | 'review', string>> };

/** The rating (a whole number of stars from 1 to 5) and the optional review (at most 1,000 characters). */
export function checkHireRating(input: HireRatingInput): HireRatingCheck {
  const errors: Partial<Record<'rating' | 'review', string>> = {};
  const raw = typeof input.rating === 'string' ? input.rating.trim() : input.rating;
  const rating = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(rating) || rating < HIRE_RATING_LIMITS.min || rating > HIRE_RATING_LIMITS.max)
    errors.rating = HIRE_RATING_MESSAGES.ratingRange;
  const review = (input.review ?? '').trim();
  if (review.length > HIRE_RATING_LIMITS.reviewMax) errors.review = HIRE_RATING_MESSAGES.reviewTooLong;
  if (errors.rating || errors.review) return { ok: false, errors };
  return { ok: true, value: { rating, review: review === '' ? null : review } };
}

/** The first message of a failed check: the rating's, then the review's. */
export function firstHireRatingError(errors: Partial<Record<'rating' | 'review', string>>): string | undefined {
  return errors.rating ?? errors.review;
}

/**
 * The page a client rates a hire on. The token (the one the hire request's answer carried) rides in the
 * fragment, which the browser never sends to a server, as the mailed links of identity do (ADR 0031);
 * the page reads it with `linkTokenFromHash`.
 */
export function hireRatingPath(hireId: string, token: string): string {
  return `/hires/${encodeURIComponent(hireId)}/rate#token=${encodeURIComponent(token)}`;
}

/** '4.5 (2 reviews)', '5.0 (1 review)', 'No reviews yet': a clipper's rating as the hire dialog shows it. */
export function ratingSummary(averageRating: number, totalReviews: number): string {
  if (totalReviews === 0) return 'No reviews yet';
  return `${averageRating.toFixed(1)} (${totalReviews} ${totalReviews === 1 ? 'review' : 'reviews'})`;
}
