import { parsePostUrl, POST_MESSAGES } from '@clipit/field-rules';

// GET /api/twitter/oembed (spec 01 §2 Leaderboard post preview, §7): X's oEmbed answer for one status
// link, which the public site reads a thumbnail from. The rules here are pure: which links are asked
// for, the link X is asked about, the key a post is cached under and the fields passed on.

export const OEMBED_MESSAGES = {
  missingUrl: 'A post URL is required: ?url=https://x.com/{handle}/status/{id}',
  /** The submission form's words for a link that is not an X status link. */
  invalidUrl: POST_MESSAGES.invalidUrl,
  notFound: 'Post not found',
  unavailable: 'Could not load the post preview',
} as const;

/** Longer than any status link (the handle is at most 15 characters, the id 25 digits, plus a query). */
export const OEMBED_URL_MAX_LENGTH = 2048;

export interface StatusRef {
  /** The numeric post id: what a post is cached under, whatever handle or host the link names. */
  statusId: string;
  /** The link X is asked about: one form per post, so X's own cache sees the same request. */
  canonicalUrl: string;
}

/**
 * The post a `url` query parameter names, by the same rule the submissions service accepts post links
 * with (@clipit/field-rules' `parsePostUrl`); null when it is missing, repeated, too long or not an X
 * status link.
 */
export function statusRefOf(url: unknown): StatusRef | null {
  if (typeof url !== 'string' || url.length > OEMBED_URL_MAX_LENGTH) return null;
  const post = parsePostUrl(url);
  if (!post) return null;
  // Leading zeros would make one post two cache keys.
  const statusId = post.externalId.replace(/^0+(?=\d)/, '');
  return { statusId, canonicalUrl: `https://twitter.com/${post.authorHandle}/status/${statusId}` };
}

/** The fields of X's oEmbed answer passed on (https://developer.x.com/en/docs/x-for-websites/oembed-api). */
export const OEMBED_STRING_FIELDS = [
  'type',
  'version',
  'html',
  'author_name',
  'author_url',
  'provider_name',
  'provider_url',
  'url',
  'thumbnail_url',
] as const;
export const OEMBED_NUMBER_FIELDS = ['width', 'height', 'cache_age', 'thumbnail_width', 'thumbnail_height'] as const;

export type OembedString = (typeof OEMBED_STRING_FIELDS)[number];
export type OembedNumber = (typeof OEMBED_NUMBER_FIELDS)[number];
export type Oembed = { html: string } & Partial<Record<Exclude<OembedString, 'html'>, string>> &
  Partial<Record<OembedNumber, number | null>>;

/**
 * Only the known fields, each of its type (X sends `width` as a number, `height` as null, and
 * `cache_age` as a string of digits); null when there is no `html`, which is all the site reads.
 */
export function pickOembedFields(raw: unknown): Oembed | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const source = raw as Record<string, unknown>;
  if (typeof source['html'] !== 'string') return null;
  const picked: Record<string, string | number | null> = {};
  for (const field of OEMBED_STRING_FIELDS) {
    const value = source[field];
    if (typeof value === 'string') picked[field] = value;
  }
  for (const field of OEMBED_NUMBER_FIELDS) {
    const value = source[field];
    if (value === null) picked[field] = null;
    else if (typeof value === 'number' && Number.isFinite(value)) picked[field] = value;
    else if (typeof value === 'string' && /^\d{1,15}$/.test(value)) picked[field] = Number(value);
  }
  return picked as Oembed;
}

/**
 * How long a found post is kept: X's `cache_age` (seconds; it says 100 years) capped by ours, and
 * never under a minute unless ours is shorter.
 */
export function positiveTtlSeconds(oembed: Oembed, maxSeconds: number): number {
  const age = oembed.cache_age;
  if (typeof age !== 'number' || age <= 0) return maxSeconds;
  return Math.min(maxSeconds, Math.max(60, Math.floor(age)));
}

/** The Redis key of a post's answer: `<REDIS_KEY_PREFIX>oembed:<status id>`. */
export function oembedCacheKey(keyPrefix: string, statusId: string): string {
  return `${keyPrefix}oembed:${statusId}`;
}
