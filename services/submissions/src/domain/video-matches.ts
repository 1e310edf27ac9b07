import { compareFingerprints, isReupload, type ClipFingerprint } from '@clipit/fingerprint';
import type { VideoMatch } from '../entities/submission.entity.js';

export type { VideoMatch };

/** Most matches kept on a submission (closest first): enough for a moderator, bounded however often a clip circulates. */
export const MAX_MATCHES = 10;

/** An earlier clip's stored fingerprint, a candidate the index found. */
export interface StoredFingerprint {
  videoId: string;
  submissionId: string;
  userId: string;
  fingerprint: ClipFingerprint;
}

/**
 * The candidates that the new clip re-uploads, closest first, one per earlier submission (its closest
 * video), at most MAX_MATCHES. Another video of the same submission (a replaced upload) is not a match.
 */
export function findMatches(
  clip: { submissionId: string; userId: string; fingerprint: ClipFingerprint },
  candidates: readonly StoredFingerprint[],
): VideoMatch[] {
  const bySubmission = new Map<string, VideoMatch>();
  for (const candidate of candidates) {
    if (candidate.submissionId === clip.submissionId) continue;
    const comparison = compareFingerprints(clip.fingerprint, candidate.fingerprint);
    if (!isReupload(comparison)) continue;
    const match: VideoMatch = {
      submissionId: candidate.submissionId,
      userId: candidate.userId,
      videoDistance: Math.round(comparison.videoDistance * 1000) / 1000,
      audioMatches: comparison.audioMatches,
      kind: candidate.userId === clip.userId ? 'duplicate' : 'reupload',
    };
    const kept = bySubmission.get(match.submissionId);
    if (!kept || match.videoDistance < kept.videoDistance) bySubmission.set(match.submissionId, match);
  }
  return [...bySubmission.values()]
    .sort((a, b) => a.videoDistance - b.videoDistance || a.submissionId.localeCompare(b.submissionId))
    .slice(0, MAX_MATCHES);
}
