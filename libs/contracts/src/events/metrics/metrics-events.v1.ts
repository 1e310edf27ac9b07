import { z } from 'zod';
import { submissionSnapshotSchema } from '../submissions/submission-snapshot.js';
import { xPostIdSchema } from '../../queues/metrics-queue.js';

const count = z.number().int().nonnegative();

/**
 * A post's public metrics as X's API v2 `public_metrics` gives them (impressions are the views), and
 * `videoViews`, the `public_metrics.view_count` of the post's video (its media object): null for a post
 * without a video or when X did not give it, absent in events of workers from before it was read.
 */
export const postMetricsSchema = z.object({
  views: count,
  likes: count,
  retweets: count,
  replies: count,
  quotes: count,
  bookmarks: count,
  videoViews: count.nullable().optional(),
});
export type PostMetrics = z.infer<typeof postMetricsSchema>;

/**
 * What X said about one post of a batch:
 * - `found`: its metrics, when it was published, its author's X user id, its text (for the
 *   verification code) and `raw`, the post object as X returned it (stored as rawMetrics);
 * - `missing`: X answered that the post does not exist or cannot be seen (deleted, protected,
 *   suspended author), with X's error title in `reason`.
 */
export const fetchedPostSchema = z.discriminatedUnion('outcome', [
  z.object({
    submissionId: z.uuid(),
    externalId: xPostIdSchema,
    outcome: z.literal('found'),
    metrics: postMetricsSchema,
    publishedAt: z.iso.datetime({ offset: true }).nullable(),
    authorId: z.string().nullable(),
    text: z.string(),
    raw: z.record(z.string(), z.unknown()),
  }),
  z.object({
    submissionId: z.uuid(),
    externalId: xPostIdSchema,
    outcome: z.literal('missing'),
    reason: z.string(),
  }),
]);
export type FetchedPost = z.infer<typeof fetchedPostSchema>;

/**
 * The metrics worker fetched one batch (one `refresh-metrics` job) from X. Every post of the job is
 * in `posts` exactly once; `fetchedAt` is when X answered. Published straight to JetStream with an
 * event id derived from the batch id, so a job run again states the same fact.
 */
export const metricsFetchedV1 = z.object({
  batchId: z.string(),
  fetchedAt: z.iso.datetime({ offset: true }),
  posts: z.array(fetchedPostSchema).min(1),
});
export type MetricsFetchedV1 = z.infer<typeof metricsFetchedV1>;

/**
 * A submission's post metrics changed (or its post was verified): the submission as it now stands.
 * Its counts are those that count (0 until the post is verified as the submitter's), so read models
 * apply it exactly as any other submission event. `previousViews` is what counted before.
 */
export const metricsUpdatedV1 = z.object({
  submission: submissionSnapshotSchema,
  previousViews: count,
  fetchedAt: z.iso.datetime({ offset: true }),
});
export type MetricsUpdatedV1 = z.infer<typeof metricsUpdatedV1>;
