import type { submissionsV1 } from '@clipit/contracts';
import { z } from 'zod';

const text = (field: string, max: number) =>
  z.string({ error: `${field} must be a string` }).max(max, `${field} must be at most ${max} characters`);
const optionalText = (field: string, max: number) => text(field, max).nullable().optional();
const id = (field: string) => z.string({ error: `${field} is required` }).min(1, `${field} is required`).max(64, `${field} is not an id`);

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
export const uploadVideoFields = z.object({ submissionId: id('submissionId') }).strict();
export type UploadVideoFields = z.infer<typeof uploadVideoFields>;

const flag = z.enum(['true', 'false']);

/**
 * A submission as the API answers it: the stored fields of spec 02 §3 with its names (muxPlaybackId is
 * the playback id of the platform's own pipeline). hasVideo and addedToFeed are the strings 'true' /
 * 'false' as the spec's clients read them; isProcessing is set while the video is being processed.
 */
export const submissionSchema = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  url: z.string(),
  platform: z.string(),
  externalId: z.string(),
  authorHandle: z.string(),
  walletAddress: z.string(),
  additionalInfo: z.string().nullable(),
  tokenId: z.string().nullable(),
  streamerId: z.string().nullable(),
  status: z.enum(['pending', 'approved', 'rejected']),
  addedToFeed: flag,
  rejectedReason: z.string().nullable(),
  approvedAt: z.string().nullable(),
  hasVideo: flag,
  isProcessing: z.boolean(),
  videoState: z.enum(['none', 'awaiting-upload', 'processing', 'ready', 'rejected']),
  videoRejectedReason: z.string().nullable(),
  videoUrl: z.string().nullable(),
  videoThumbnailUrl: z.string().nullable(),
  videoDuration: z.number().nullable(),
  videoAspectRatio: z.string().nullable(),
  muxPlaybackId: z.string().nullable(),
  videoFileName: z.string().nullable(),
  videoFileSize: z.number().nullable(),
  views: z.number(),
  likes: z.number(),
  retweets: z.number(),
  replies: z.number(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SubmissionJson = z.infer<typeof submissionSchema>;
export const submissionListSchema = z.array(submissionSchema);

export const videoUploadUrlSchema = z.object({ uploadUrl: z.string(), videoId: z.string() });

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
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}
