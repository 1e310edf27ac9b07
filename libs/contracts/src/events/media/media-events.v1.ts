import { GUIDE_CHECK_RULES, GUIDE_CHECK_VERDICTS } from '@clipit/field-rules';
import { z } from 'zod';

/** One of the guide's checks on a video (field-rules' guideChecks), as a person is shown it. */
export const guideCheckSchema = z.object({
  rule: z.enum(GUIDE_CHECK_RULES),
  verdict: z.enum(GUIDE_CHECK_VERDICTS),
  message: z.string().min(1),
});

/** One object the media worker wrote to storage. */
export const mediaObjectSchema = z.object({
  key: z.string().min(1),
  contentType: z.string().min(1),
  size: z.number().int().nonnegative(),
});
export type MediaObject = z.infer<typeof mediaObjectSchema>;

/**
 * The media worker processed an uploaded video: what ffprobe measured on the real file, the
 * web-playable MP4 (H.264/AAC, faststart, long side ≤ 1080 px) and the poster JPEG it stored.
 */
export const mediaProcessedV1 = z.object({
  videoId: z.uuid(),
  submissionId: z.uuid(),
  /** Seconds, as measured (not floored). */
  durationSeconds: z.number().nonnegative(),
  /** Of the source, after rotation. */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Reduced `w:h` of the source as displayed, e.g. `9:16`. */
  aspectRatio: z.string().regex(/^\d+:\d+$/),
  videoCodec: z.string(),
  audioCodec: z.string().nullable(),
  video: mediaObjectSchema,
  poster: mediaObjectSchema,
  /** The id a player asks for (the role Mux's playback id has in the spec). */
  playbackId: z.string().min(1),
  /**
   * How the served MP4 was made: `remux`, the upload's own streams (it plays as it is), or `transcode`.
   * Absent from events of workers older than issue 35.
   */
  processing: z.enum(['remux', 'transcode']).optional(),
  /** The guide's checks on the upload, in field-rules' order. Absent from events of workers older than issue 35. */
  guideChecks: z.array(guideCheckSchema).optional(),
});
export type MediaProcessedV1 = z.infer<typeof mediaProcessedV1>;

/**
 * Why a video was refused or could not be processed. `too-long` and `invalid` are verdicts on the
 * file (never retried); `processing-error` is what is left after the retries ran out.
 */
export const mediaFailureCodeSchema = z.enum(['too-long', 'invalid', 'too-large', 'processing-error']);
export type MediaFailureCode = z.infer<typeof mediaFailureCodeSchema>;

/** The media worker refused a video or gave up on it; `reason` is the message a person is shown. */
export const mediaFailedV1 = z.object({
  videoId: z.uuid(),
  submissionId: z.uuid(),
  code: mediaFailureCodeSchema,
  reason: z.string().min(1),
});
export type MediaFailedV1 = z.infer<typeof mediaFailedV1>;

/**
 * A processed clip's fingerprint (@clipit/media's ClipFingerprint, ADR 0048): perceptual hashes of frames
 * sampled at a fixed interval, letterbox removed and mirror-invariant, and the audio's Chromaprint.
 */
export const clipFingerprintSchema = z.object({
  version: z.literal(1),
  /** 64-bit frame hashes, 16 hex digits each. */
  frames: z.array(z.string().regex(/^[0-9a-f]{16}$/)).max(600),
  /** Chromaprint's raw fingerprint, base64 of little-endian uint32 values; null without audio. */
  audio: z.string().max(65_536).nullable(),
});

/**
 * The media worker fingerprinted a processed video, or could not (`fingerprint` null, `reason` says why):
 * submissions looks its matches up among earlier clips and flags a re-upload to the moderator.
 */
export const mediaFingerprintedV1 = z.object({
  videoId: z.uuid(),
  submissionId: z.uuid(),
  fingerprint: clipFingerprintSchema.nullable(),
  reason: z.string().min(1).optional(),
});
export type MediaFingerprintedV1 = z.infer<typeof mediaFingerprintedV1>;
