import type { AdminSubmission } from '@clipit/web-api';

type Match = NonNullable<AdminSubmission['matches']>[number];

/** How a match is named on the card and in its header badge. */
export const MATCH_KIND_LABEL: Record<Match['kind'], string> = {
  reupload: "Re-upload of another clipper's clip",
  duplicate: 'Duplicate of their own clip',
};

function clipperName(match: Match): string {
  const { handle, displayName } = match.clipper;
  if (!handle) return 'an unknown clipper';
  return `${displayName ? `${displayName} ` : ''}@${handle}`;
}

function soundText(audioMatches: boolean | null): string {
  if (audioMatches === null) return 'no sound to compare';
  return audioMatches ? 'sound matches' : 'sound differs';
}

/** The header badge for a card whose video matches earlier clips (ADR 0048); none when it matches nothing. */
export function matchBadge(matches: AdminSubmission['matches']): { label: string; variant: 'destructive' | 'warning' } | undefined {
  if (!matches || matches.length === 0) return undefined;
  return matches.some((m) => m.kind === 'reupload')
    ? { label: 'Possible re-upload', variant: 'destructive' }
    : { label: 'Duplicate', variant: 'warning' };
}

/**
 * The re-upload check of a submission's video, as the moderator reads it: not checked yet, no match, or
 * each earlier clip it matches with its clipper, how close the pictures are and whether the sound matches.
 * A flag to look at, never a verdict.
 */
export function VideoMatches({ submission }: { submission: AdminSubmission }) {
  const { matches } = submission;
  if (matches === null) return <span className="clipit-admin-muted">Not checked yet</span>;
  if (matches.length === 0) return <span>No earlier clip matches</span>;
  return (
    <ul className="clipit-admin-matches" aria-label={`Earlier clips ${submission.name} matches`}>
      {matches.map((match) => (
        <li key={match.submissionId} data-testid="video-match">
          <strong>{MATCH_KIND_LABEL[match.kind]}</strong> by {clipperName(match)}: picture distance {match.videoDistance.toFixed(2)},{' '}
          {soundText(match.audioMatches)} (submission <code className="clipit-admin-code">{match.submissionId}</code>)
        </li>
      ))}
    </ul>
  );
}
