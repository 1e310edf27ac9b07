import { z } from 'zod';

/** Moderation state of a post submission (spec 02 §4): pending → approved | rejected; rejected is terminal. */
export const submissionStatusSchema = z.enum(['pending', 'approved', 'rejected']);
export type SubmissionStatus = z.infer<typeof submissionStatusSchema>;

/**
 * Where a submission's video stands: none attached, uploaded and being processed, ready to play, or
 * rejected (too long, unreadable, too large; `videoRejectedReason` says which, in words a person reads).
 */
export const videoStateSchema = z.enum(['none', 'awaiting-upload', 'processing', 'ready', 'rejected']);
export type VideoState = z.infer<typeof videoStateSchema>;

/**
 * A submission as the submissions service publishes it in every submission event, so read models
 * (feed, leaderboard, rewards) are fed by events alone. Counts are the post's metrics; URLs are
 * root-relative (`/media/videos/<id>/video.mp4`) and served by the gateway.
 */
export const submissionSnapshotSchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  name: z.string(),
  url: z.string(),
  platform: z.string(),
  externalId: z.string(),
  authorHandle: z.string(),
  walletAddress: z.string(),
  additionalInfo: z.string().nullable(),
  tokenId: z.string().nullable(),
  streamerId: z.string().nullable(),
  status: submissionStatusSchema,
  addedToFeed: z.boolean(),
  rejectedReason: z.string().nullable(),
  approvedAt: z.iso.datetime({ offset: true }).nullable(),
  videoState: videoStateSchema,
  hasVideo: z.boolean(),
  videoUrl: z.string().nullable(),
  videoThumbnailUrl: z.string().nullable(),
  videoDuration: z.number().nullable(),
  videoAspectRatio: z.string().nullable(),
  playbackId: z.string().nullable(),
  views: z.number().int().nonnegative(),
  likes: z.number().int().nonnegative(),
  retweets: z.number().int().nonnegative(),
  replies: z.number().int().nonnegative(),
  publishedAt: z.iso.datetime({ offset: true }).nullable(),
  /**
   * When the post was verified as the submitter's (its text holds the submission's verification code,
   * or its author is the submitter's linked X account); until then its counts above are 0. Absent in
   * events published before X metrics existed.
   */
  verifiedAt: z.iso.datetime({ offset: true }).nullable().optional(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});

export type SubmissionSnapshot = z.infer<typeof submissionSnapshotSchema>;

/** What a submission's feed membership is decided by: the fields of its snapshot that read models keep. */
export type FeedPlacement = Pick<SubmissionSnapshot, 'status' | 'addedToFeed' | 'videoState' | 'videoUrl'>;

/**
 * Whether a clip is in the public feed: approved, added to the feed, and with a processed video a
 * browser can play (a clip without one never reaches the feed). The one rule: the feed lists exactly
 * these clips and social lets only these be liked, each from the snapshots of the events it keeps.
 */
export function isInFeed(s: FeedPlacement): boolean {
  return s.status === 'approved' && s.addedToFeed && s.videoState === 'ready' && s.videoUrl !== null;
}
