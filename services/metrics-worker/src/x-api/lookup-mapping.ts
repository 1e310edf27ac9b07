import type { FetchedPost, PostMetrics, RefreshMetricsJob } from '@clipit/contracts';
import { z } from 'zod';

type JobPost = RefreshMetricsJob['posts'][number];

/** X's answer to GET /2/tweets, as far as the worker reads it; anything else in it is kept as it came. */
const lookupBodySchema = z
  .object({
    data: z.array(z.object({ id: z.string() }).loose()).optional(),
    errors: z.array(z.object({}).loose()).optional(),
    // The posts' media (expansions=attachments.media_keys); an unreadable one is left out, never the answer.
    includes: z
      .object({ media: z.array(z.unknown()).optional() })
      .loose()
      .optional(),
  })
  .loose();

/** X answered 200 with a body that is not a lookup answer (a changed API, a proxy): not the posts' fault, worth a retry. */
export class UnreadableAnswerError extends Error {
  constructor(detail: string) {
    super(`X's lookup answer could not be read: ${detail}`);
    this.name = 'UnreadableAnswerError';
  }
}

export interface MappedLookup {
  /** Every post of the job X said something about, in the job's order: found (with metrics) or missing (X's reason). */
  stated: FetchedPost[];
  /** Posts X said nothing about (a partial answer): neither in `data` nor in `errors`. */
  unanswered: JobPost[];
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0);

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The view counts of the answer's videos by media key (`includes.media[]` of type video with `public_metrics.view_count`). */
export function videoViewsByMediaKey(media: readonly unknown[] | undefined): Map<string, number> {
  const views = new Map<string, number>();
  for (const item of media ?? []) {
    const m = record(item);
    const viewCount = record(m['public_metrics'])['view_count'];
    if (m['type'] !== 'video' || typeof m['media_key'] !== 'string') continue;
    if (typeof viewCount === 'number' && Number.isSafeInteger(viewCount) && viewCount >= 0) views.set(m['media_key'], viewCount);
  }
  return views;
}

/**
 * The views of the post's video: the `view_count` X gives its video media (the largest, should a post carry
 * several); null for a post without a video, or when X gave no count for it.
 */
function videoViewsOf(post: Record<string, unknown>, videoViews: ReadonlyMap<string, number>): number | null {
  const keys = record(post['attachments'])['media_keys'];
  if (!Array.isArray(keys)) return null;
  const counts = keys.flatMap((key) => (typeof key === 'string' && videoViews.has(key) ? [videoViews.get(key)!] : []));
  return counts.length > 0 ? Math.max(...counts) : null;
}

/**
 * X's `public_metrics` as the platform names them: impressions are the views; a field X left out counts 0.
 * `videoViews` is the post's video's own view count from the answer's media (`videoViewsByMediaKey`).
 */
export function metricsOf(post: Record<string, unknown>, videoViews: ReadonlyMap<string, number> = new Map()): PostMetrics {
  const m = record(post['public_metrics']);
  return {
    views: count(m['impression_count']),
    likes: count(m['like_count']),
    retweets: count(m['retweet_count']),
    replies: count(m['reply_count']),
    quotes: count(m['quote_count']),
    bookmarks: count(m['bookmark_count']),
    videoViews: videoViewsOf(post, videoViews),
  };
}

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * What X's answer says about each post of the job. A post of `data` is found; an entry of `errors` about
 * a post (`resource_type` tweet with its id, e.g. 'Not Found Error' for a deleted post, 'Authorization
 * Error' for a protected one) makes it missing, with X's title as the reason; a post in neither is
 * unanswered, and is not stated at all. Two submissions of the same post get the same answer.
 */
export function mapLookup(posts: readonly JobPost[], body: unknown): MappedLookup {
  const parsed = lookupBodySchema.safeParse(body);
  if (!parsed.success)
    throw new UnreadableAnswerError(parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; '));
  const found = new Map<string, Record<string, unknown>>();
  for (const post of parsed.data.data ?? []) found.set(post.id, post);
  const videoViews = videoViewsByMediaKey(parsed.data.includes?.media);
  const missing = new Map<string, string>();
  for (const error of parsed.data.errors ?? []) {
    const e = error as Record<string, unknown>;
    if (e['resource_type'] !== 'tweet') continue;
    const id = typeof e['resource_id'] === 'string' ? e['resource_id'] : typeof e['value'] === 'string' ? e['value'] : undefined;
    if (!id) continue;
    missing.set(
      id,
      typeof e['title'] === 'string' && e['title'] !== ''
        ? e['title']
        : typeof e['detail'] === 'string' && e['detail'] !== ''
          ? e['detail']
          : 'Unavailable',
    );
  }

  const stated: FetchedPost[] = [];
  const unanswered: JobPost[] = [];
  for (const { submissionId, externalId } of posts) {
    const post = found.get(externalId);
    if (post) {
      const createdAt = post['created_at'];
      stated.push({
        submissionId,
        externalId,
        outcome: 'found',
        metrics: metricsOf(post, videoViews),
        publishedAt: typeof createdAt === 'string' && isoDateTime.safeParse(createdAt).success ? createdAt : null,
        authorId: typeof post['author_id'] === 'string' ? post['author_id'] : null,
        text: typeof post['text'] === 'string' ? post['text'] : '',
        raw: post,
      });
      continue;
    }
    const reason = missing.get(externalId);
    if (reason !== undefined) stated.push({ submissionId, externalId, outcome: 'missing', reason });
    else unanswered.push({ submissionId, externalId });
  }
  return { stated, unanswered };
}
