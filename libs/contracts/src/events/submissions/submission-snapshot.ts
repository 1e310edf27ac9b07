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

/** A clip's view-risk assessment (ADR 0049). */
export const submissionRiskSchema = z.object({
  score: z.number().int().min(0).max(100),
  reasons: z.array(z.string()),
  underReview: z.boolean(),
});
export type SubmissionRiskSnapshot = z.infer<typeof submissionRiskSchema>;

/**
 * Why a clip's earning is held (ADR 0050), by kind: its video matches another clipper's earlier clip
 * (`reupload`), the same clipper's own (`duplicate`), or its views are under review (`views`, ADR 0049).
 * A consumer compares kinds, not the words, whose figures move from read to read.
 */
export const HOLD_CAUSES = ['reupload', 'duplicate', 'views'] as const;
export const holdCauseSchema = z.enum(HOLD_CAUSES);
export type HoldCause = z.infer<typeof holdCauseSchema>;

/**
 * The owner's word that a clip is flagged (ADR 0050): its causes and, for each, the reasons in words the
 * clipper may read (never naming another clipper).
 */
export const submissionHoldSchema = z.object({
  causes: z.array(holdCauseSchema).min(1),
  reasons: z.array(z.string()).min(1),
});
export type SubmissionHoldSnapshot = z.infer<typeof submissionHoldSchema>;

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
  /**
   * How likely the clip's views are inflated, judged from its post's read history (ADR 0049): a score of
   * 0 to 100, each reason in words, and whether it is under review (at or above the owner's
   * RISK_HOLD_THRESHOLD, so a consumer needs no copy of the number). Null until the post has been read
   * twice; absent in events published before it existed.
   */
  risk: submissionRiskSchema.nullable().optional(),
  /**
   * Whether the clip is flagged, so that what it earns is held until an admin decides (ADR 0050): by a
   * video match (ADR 0048) or its views under review (ADR 0049). Null when not; absent in events
   * published before it existed.
   */
  hold: submissionHoldSchema.nullable().optional(),
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
