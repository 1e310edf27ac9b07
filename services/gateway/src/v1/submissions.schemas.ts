import { HOLD_CAUSES, submissionStatusSchema, videoStateSchema, type submissionsV1 } from '@clipit/contracts';
import { GUIDE_CHECK_RULES, GUIDE_CHECK_VERDICTS } from '@clipit/field-rules';
import { z } from 'zod';
import { toGuideChecksJson } from '../media/guide-checks.schemas.js';
import { v1Page } from './v1-paging.js';

// A clipper's own submissions and their view histories as the versioned read API answers them (ADR 0053):
// shapes of their own, stable within v1. The checks are those the clipper already sees on the dashboard,
// in the words submissions gives them: the view-risk score stays the moderators' (ADR 0049).

// gRPC int64 arrives as a string (the loader's `longs: String`).
const num = (v: number | string | undefined): number => Number(v ?? 0);
const orNull = <T>(v: T | undefined): T | null => (v === undefined || v === '' ? null : v);

export const v1ViewPointSchema = z
  .object({
    at: z.string().meta({ description: 'When X was read (ISO 8601)' }),
    views: z.number().int(),
    likes: z.number().int(),
    retweets: z.number().int(),
    replies: z.number().int(),
  })
  .meta({ id: 'V1ViewPoint' });
export type V1ViewPoint = z.infer<typeof v1ViewPointSchema>;

export function toV1ViewPoints(points: readonly submissionsV1.MetricsPoint[] | undefined): V1ViewPoint[] {
  return (points ?? []).map((p) => ({
    at: p.at,
    views: num(p.views),
    likes: num(p.likes),
    retweets: num(p.retweets),
    replies: num(p.replies),
  }));
}

export const v1SubmissionChecksSchema = z
  .object({
    postVerified: z.boolean().meta({
      description:
        "The post was verified as the clipper's (its text holds the verification code, or its author is their linked X account); until then its views count 0",
    }),
    postVerifiedAt: z.string().nullable(),
    viewsReview: z
      .object({ reasons: z.array(z.string()).meta({ description: 'Why, each a sentence with its figures, strongest first' }) })
      .nullable()
      .meta({
        description: "Set while the clip's views are under review (ADR 0049): its post's view history looks inflated; null otherwise",
      }),
    flag: z
      .object({
        causes: z.array(z.enum(HOLD_CAUSES)).meta({
          description:
            '`reupload`: its video matches another clipper’s earlier clip; `duplicate`: one of your own; `views`: its views are under review',
        }),
        reasons: z.array(z.string()).meta({ description: 'In words for the clipper' }),
      })
      .nullable()
      .meta({ description: 'Set while the clip is flagged (ADR 0050): what it earns is held until an admin decides; null otherwise' }),
    reuploadChecked: z.boolean().meta({ description: 'Its current video was compared with earlier clips (re-uploads, duplicates)' }),
    videoState: videoStateSchema,
    videoRejectedReason: z.string().nullable().meta({ description: 'Why the video was refused, when videoState is rejected' }),
    guideChecks: z
      .array(
        z
          .object({
            rule: z.enum(GUIDE_CHECK_RULES),
            verdict: z
              .enum(GUIDE_CHECK_VERDICTS)
              .meta({ description: '`unsure`: only the watermark estimate, when the picture changes too little to tell' }),
            message: z.string(),
          })
          .meta({ id: 'V1GuideCheck' }),
      )
      .meta({
        description:
          "The clipping guide's checks on the processed video, in their order (warnings, never refusals); empty until it is processed",
      }),
  })
  .meta({ id: 'V1SubmissionChecks' });

export const v1SubmissionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    postUrl: z.string().meta({ description: 'The post on X' }),
    status: submissionStatusSchema,
    rejectedReason: z.string().nullable(),
    createdAt: z.string(),
    approvedAt: z.string().nullable(),
    views: z.number().int().meta({ description: "The post's views as X last gave them (they count once postVerified)" }),
    checks: v1SubmissionChecksSchema,
  })
  .meta({ id: 'V1Submission' });
export type V1Submission = z.infer<typeof v1SubmissionSchema>;
export const v1SubmissionPageSchema = v1Page(v1SubmissionSchema, 'V1SubmissionPage');

const HOLD_CAUSE_SET = new Set<string>(HOLD_CAUSES);

export function toV1Submission(s: submissionsV1.Submission): V1Submission {
  return {
    id: s.id,
    name: s.name,
    postUrl: s.url,
    status: submissionStatusSchema.catch('pending').parse(s.status),
    rejectedReason: orNull(s.rejectedReason),
    createdAt: s.createdAt,
    approvedAt: orNull(s.approvedAt),
    views: num(s.views),
    checks: {
      postVerified: !!s.verifiedAt,
      postVerifiedAt: orNull(s.verifiedAt),
      // The clipper is told why, not the score (ADR 0049).
      viewsReview: s.risk?.underReview ? { reasons: s.risk.reasons ?? [] } : null,
      flag: s.hold
        ? {
            causes: (s.hold.causes ?? []).filter((c): c is (typeof HOLD_CAUSES)[number] => HOLD_CAUSE_SET.has(c)),
            reasons: s.hold.reasons ?? [],
          }
        : null,
      reuploadChecked: s.matchesChecked,
      videoState: videoStateSchema.catch('none').parse(s.videoState),
      videoRejectedReason: orNull(s.videoRejectedReason),
      guideChecks: toGuideChecksJson(s.guideChecks) ?? [],
    },
  };
}

export const v1SubmissionViewsSchema = z
  .object({
    submissionId: z.string(),
    views: z.number().int().meta({ description: 'As X last gave them' }),
    likes: z.number().int(),
    retweets: z.number().int(),
    replies: z.number().int(),
    postVerified: z.boolean(),
    lastReadAt: z.string().nullable().meta({ description: 'When X was last read for the post' }),
    points: z.array(v1ViewPointSchema).meta({ description: 'The latest reads (at most 500), oldest first' }),
  })
  .meta({ id: 'V1SubmissionViews' });
export type V1SubmissionViews = z.infer<typeof v1SubmissionViewsSchema>;

export function toV1SubmissionViews(h: submissionsV1.GetMetricsHistoryResponse): V1SubmissionViews {
  return {
    submissionId: h.submissionId,
    views: num(h.views),
    likes: num(h.likes),
    retweets: num(h.retweets),
    replies: num(h.replies),
    postVerified: !!h.verifiedAt,
    lastReadAt: orNull(h.lastMetricsFetch),
    points: toV1ViewPoints(h.points),
  };
}
