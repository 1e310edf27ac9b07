import type { HoldCause, SubmissionHoldSnapshot, SubmissionRiskSnapshot } from '@clipit/contracts';
import type { VideoMatch } from './video-matches.js';

/** The words a clipper reads for each match kind: never the other clipper, never the figures of the comparison. */
export const HOLD_REASONS = {
  reupload: 'Its video matches a clip submitted earlier by another clipper.',
  duplicate: 'It duplicates a clip you submitted earlier.',
} as const;

/**
 * Whether a clip is flagged, so that rewards holds what it earns until an admin decides (ADR 0050): any
 * stored video match (ADR 0048) and a view risk under review (ADR 0049), each with its reasons; null when
 * neither. Submissions, the owner of both, decides; consumers read the causes and never a threshold.
 */
export function submissionHold(
  matches: readonly Pick<VideoMatch, 'kind'>[] | null,
  risk: SubmissionRiskSnapshot | null,
): SubmissionHoldSnapshot | null {
  const causes: HoldCause[] = [];
  const reasons: string[] = [];
  for (const kind of ['reupload', 'duplicate'] as const) {
    if (!(matches ?? []).some((m) => m.kind === kind)) continue;
    causes.push(kind);
    reasons.push(HOLD_REASONS[kind]);
  }
  if (risk?.underReview) {
    causes.push('views');
    reasons.push(...(risk.reasons.length > 0 ? risk.reasons : ['Its views are under review.']));
  }
  return causes.length > 0 ? { causes, reasons } : null;
}
