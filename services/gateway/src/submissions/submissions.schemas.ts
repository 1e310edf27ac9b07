import { submissionSnapshotSchema, type identityV1, type submissionsV1 } from '@clipit/contracts';
import { z } from 'zod';
import { guideChecksField, toGuideChecksJson } from '../media/guide-checks.schemas.js';

const text = (field: string, max: number) =>
  z.string({ error: `${field} must be a string` }).max(max, `${field} must be at most ${max} characters`);
const optionalText = (field: string, max: number) => text(field, max).nullable().optional();
const id = (field: string) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(64, `${field} is not an id`);

/**
 * POST /api/submissions: the add-clip dialog's payload (walletAddress 'pending', tokenId) or the
 * submission form's (walletAddress '', additionalInfo, streamerId), spec 01 §3. Lengths are checked
 * loosely here (so the owner's words reach the person) and exactly by the submissions service.
 */
export const createSubmissionBody = z
  .object({
    name: text('name', 1000).optional().default(''),
    url: text('url', 2000).optional().default(''),
    externalId: optionalText('externalId', 64),
    authorHandle: optionalText('authorHandle', 64),
    walletAddress: optionalText('walletAddress', 64),
    additionalInfo: optionalText('additionalInfo', 1000),
    tokenId: optionalText('tokenId', 64),
    streamerId: optionalText('streamerId', 64),
  })
  .strict();
export type CreateSubmissionBody = z.infer<typeof createSubmissionBody>;

export const videoUploadUrlBody = z.object({ submissionId: id('submissionId') }).strict();
export type VideoUploadUrlBody = z.infer<typeof videoUploadUrlBody>;

export const finalizeVideoUploadBody = z.object({ submissionId: id('submissionId'), videoId: id('videoId') }).strict();
export type FinalizeVideoUploadBody = z.infer<typeof finalizeVideoUploadBody>;

/** The text fields of POST /api/submissions/upload-video (the file is the `video` part). */
export const uploadVideoFields = videoUploadUrlBody;
export type UploadVideoFields = z.infer<typeof uploadVideoFields>;

const flag = z.enum(['true', 'false']);

/**
 * A submission as the API answers it: the submissions service's snapshot (the stored fields of spec 02
 * §3, as its events carry them) with the spec's names and shapes where the clients differ: hasVideo and
 * addedToFeed are the strings 'true' / 'false' the spec's clients read, the playback id is muxPlaybackId
 * (the platform's own pipeline plays Mux's role), plus what only the owner reads: isProcessing while the
 * video is being processed, why a video was refused, the uploaded file's name and size. Its id names
 * the OpenAPI component the web apps' `Submission` type is generated from.
 */
export const submissionSchema = submissionSnapshotSchema
  .omit({ playbackId: true, risk: true, hold: true })
  .extend({
    verificationCode: z
      .string()
      .meta({ description: "'CLIP-' and 6 characters: put in the post's text, it verifies the post as the submitter's (ADR 0029)" }),
    verifiedAt: z.string().nullable().meta({
      description: "When the post was verified as the submitter's; until then its views count 0 in points, earnings and leaderboards",
    }),
    lastMetricsFetch: z.string().nullable().meta({ description: "When X was last asked for the post's metrics" }),
    addedToFeed: flag,
    hasVideo: flag,
    isProcessing: z.boolean(),
    videoRejectedReason: z.string().nullable(),
    muxPlaybackId: z.string().nullable(),
    videoFileName: z.string().nullable(),
    videoFileSize: z.number().nullable(),
    guideChecks: guideChecksField,
    viewsReview: z
      .object({
        reasons: z.array(z.string()).meta({ description: 'Why, each a sentence with its figures, strongest first' }),
      })
      .nullable()
      .meta({
        description:
          "Set while the clip is under review for its views (ADR 0049): its post's view history looks inflated (a views jump without likes and retweets, engagement far below the platform's norm, video views far from the post's views, growth that does not decay). Null otherwise. The score itself is the moderators'.",
      }),
  })
  .meta({ id: 'Submission' });
export type SubmissionJson = z.infer<typeof submissionSchema>;
export const submissionListSchema = z.array(submissionSchema);

export const videoUploadUrlSchema = z.object({ uploadUrl: z.string(), videoId: z.string() }).meta({ id: 'VideoUploadUrl' });

const orNull = <T>(v: T | undefined): T | null => (v === undefined || v === '' ? null : v);
// gRPC int64 arrives as a string (the loader's `longs: String`).
const num = (v: number | string | undefined): number => Number(v ?? 0);
const numOrNull = (v: number | string | undefined): number | null => (v === undefined ? null : Number(v));

export function toSubmissionJson(s: submissionsV1.Submission): SubmissionJson {
  return {
    id: s.id,
    userId: s.userId,
    name: s.name,
    url: s.url,
    platform: s.platform,
    externalId: s.externalId,
    authorHandle: s.authorHandle,
    walletAddress: s.walletAddress,
    additionalInfo: orNull(s.additionalInfo),
    tokenId: orNull(s.tokenId),
    streamerId: orNull(s.streamerId),
    status: s.status as SubmissionJson['status'],
    addedToFeed: s.addedToFeed ? 'true' : 'false',
    rejectedReason: orNull(s.rejectedReason),
    approvedAt: orNull(s.approvedAt),
    hasVideo: s.hasVideo ? 'true' : 'false',
    isProcessing: s.isProcessing,
    videoState: s.videoState as SubmissionJson['videoState'],
    videoRejectedReason: orNull(s.videoRejectedReason),
    videoUrl: orNull(s.videoUrl),
    videoThumbnailUrl: orNull(s.videoThumbnailUrl),
    videoDuration: numOrNull(s.videoDuration),
    videoAspectRatio: orNull(s.videoAspectRatio),
    muxPlaybackId: orNull(s.playbackId),
    videoFileName: orNull(s.videoFileName),
    videoFileSize: numOrNull(s.videoFileSize),
    views: num(s.views),
    likes: num(s.likes),
    retweets: num(s.retweets),
    replies: num(s.replies),
    publishedAt: orNull(s.publishedAt),
    verificationCode: s.verificationCode,
    verifiedAt: orNull(s.verifiedAt),
    lastMetricsFetch: orNull(s.lastMetricsFetch),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    guideChecks: toGuideChecksJson(s.guideChecks),
    // The clipper is told why, not the score: a number to stay under would teach how to inflate unseen (ADR 0049).
    viewsReview: s.risk?.underReview ? { reasons: s.risk.reasons ?? [] } : null,
  };
}

const count = z.number().int().nonnegative();

/**
 * GET /api/submissions/:id/metrics-history: a submission's post metrics as X gave them (whether
 * verified or not), its verification state, and its latest reads (at most 500), oldest first.
 */
export const metricsHistorySchema = z
  .object({
    submissionId: z.string(),
    views: count,
    likes: count,
    retweets: count,
    replies: count,
    quoteCount: count,
    bookmarkCount: count,
    verificationCode: z.string(),
    verifiedAt: z.string().nullable(),
    lastMetricsFetch: z.string().nullable(),
    publishedAt: z.string().nullable(),
    points: z.array(z.object({ at: z.string(), views: count, likes: count, retweets: count, replies: count }).meta({ id: 'MetricsPoint' })),
  })
  .meta({ id: 'MetricsHistory' });
export type MetricsHistoryJson = z.infer<typeof metricsHistorySchema>;

export function toMetricsHistoryJson(h: submissionsV1.GetMetricsHistoryResponse): MetricsHistoryJson {
  return {
    submissionId: h.submissionId,
    views: num(h.views),
    likes: num(h.likes),
    retweets: num(h.retweets),
    replies: num(h.replies),
    quoteCount: num(h.quoteCount),
    bookmarkCount: num(h.bookmarkCount),
    verificationCode: h.verificationCode,
    verifiedAt: orNull(h.verifiedAt),
    lastMetricsFetch: orNull(h.lastMetricsFetch),
    publishedAt: orNull(h.publishedAt),
    points: (h.points ?? []).map((p) => ({
      at: p.at,
      views: num(p.views),
      likes: num(p.likes),
      retweets: num(p.retweets),
      replies: num(p.replies),
    })),
  };
}

/** A new submission as the submissions service takes it: the body's fields, by the signed-in user with their wallet. */
export function toCreateSubmission(user: identityV1.User, body: CreateSubmissionBody): submissionsV1.CreateSubmissionRequest {
  return {
    userId: user.id,
    name: body.name,
    url: body.url,
    externalId: body.externalId ?? undefined,
    authorHandle: body.authorHandle ?? undefined,
    walletAddress: body.walletAddress ?? undefined,
    additionalInfo: body.additionalInfo ?? undefined,
    tokenId: body.tokenId ?? undefined,
    streamerId: body.streamerId ?? undefined,
    userWalletAddress: user.walletAddress || undefined,
  };
}
