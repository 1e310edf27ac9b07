import type { SubmissionSnapshot, submissionsV1 } from '@clipit/contracts';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import { submissionHold } from './hold.js';
import { countedMetrics } from './post-metrics.js';
import { submissionRisk } from './view-risk.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** A record with its null fields left out (proto3 optionals are absent, never null). */
type NullsAbsent<T> = { [K in keyof T]: null extends T[K] ? Exclude<T[K], null> | undefined : T[K] };

function nullsAbsent<T extends object>(record: T): NullsAbsent<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)) as NullsAbsent<T>;
}

/**
 * A submission as the gRPC contract carries it: the event snapshot, plus what only its owner and
 * moderators read: the counts X gave even before the post is verified, the verification code, the last read.
 * `riskHoldThreshold` (RISK_HOLD_THRESHOLD) decides whether a scored clip is under review.
 */
export function toSubmissionMessage(s: SubmissionEntity, riskHoldThreshold: number): submissionsV1.Submission {
  return {
    ...nullsAbsent(toSnapshot(s, riskHoldThreshold)),
    views: s.views,
    likes: s.likes,
    retweets: s.retweets,
    replies: s.replies,
    verificationCode: s.verificationCode,
    lastMetricsFetch: opt(iso(s.lastMetricsFetch)),
    isProcessing: s.videoState === 'processing',
    videoRejectedReason: opt(s.videoRejectedReason),
    videoFileName: opt(s.videoFileName),
    videoFileSize: opt(s.videoFileSize),
    guideChecks: s.guideChecks ?? [],
    videoProcessing: opt(s.videoProcessing),
    matches: (s.videoMatches ?? []).map((m) => ({
      submissionId: m.submissionId,
      userId: m.userId,
      videoDistance: m.videoDistance,
      kind: m.kind,
      ...(m.audioMatches === null ? {} : { audioMatches: m.audioMatches }),
    })),
    matchesChecked: s.videoMatches !== null,
  };
}

/**
 * A submission as every submission event carries it (the read models' source). Its counts are those
 * that count: 0 until the post is verified as the submitter's (ADR 0029). Its view risk (ADR 0049) is
 * judged under review against `riskHoldThreshold` (RISK_HOLD_THRESHOLD) as it is now; its `hold` (ADR 0050)
 * says whether what it earns is held, from its video matches and that risk.
 */
export function toSnapshot(s: SubmissionEntity, riskHoldThreshold: number): SubmissionSnapshot {
  const risk = submissionRisk(s, riskHoldThreshold);
  return {
    id: s.id,
    userId: s.userId,
    name: s.name,
    url: s.url,
    platform: s.platform,
    externalId: s.externalId,
    authorHandle: s.authorHandle,
    walletAddress: s.walletAddress,
    additionalInfo: s.additionalInfo,
    tokenId: s.tokenId,
    streamerId: s.streamerId,
    status: s.status,
    addedToFeed: s.addedToFeed,
    rejectedReason: s.rejectedReason,
    approvedAt: iso(s.approvedAt),
    videoState: s.videoState,
    hasVideo: s.hasVideo,
    videoUrl: s.videoUrl,
    videoThumbnailUrl: s.videoThumbnailUrl,
    videoDuration: s.videoDuration,
    videoAspectRatio: s.videoAspectRatio,
    playbackId: s.muxPlaybackId,
    ...countedMetrics(s),
    publishedAt: iso(s.publishedAt),
    verifiedAt: iso(s.verifiedAt),
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
    risk,
    hold: submissionHold(s.videoMatches, risk),
  };
}
