import type { AdminSubmission } from '@clipit/web-api';

type Risk = NonNullable<AdminSubmission['risk']>;

/**
 * The header badge of a clip under review for its views (ADR 0049): at or above the submissions service's
 * hold threshold, which the answer's `underReview` carries, so the card keeps no copy of the number.
 */
export function riskBadge(risk: AdminSubmission['risk']): { label: string; variant: 'destructive' } | undefined {
  return risk?.underReview ? { label: 'Risky views', variant: 'destructive' } : undefined;
}

/**
 * A clip's view risk as the moderator reads it: not judged yet (its post was read fewer than twice), or the
 * score out of 100 with each reason, strongest first. A flag to look at, never a verdict.
 */
export function ViewRisk({ submission }: { submission: AdminSubmission }) {
  const { risk } = submission;
  if (risk === null) return <span className="clipit-admin-muted">Not judged yet</span>;
  return (
    <div>
      <p className="clipit-admin-risk__score">
        <strong>{riskSummary(risk)}</strong>
      </p>
      {risk.reasons.length > 0 ? (
        <ul className="clipit-admin-risk" aria-label={`Why the views of ${submission.name} look inflated`}>
          {risk.reasons.map((reason) => (
            <li key={reason} data-testid="risk-reason">
              {reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function riskSummary(risk: Risk): string {
  const score = `Score ${risk.score} of 100`;
  if (risk.underReview) return `${score}: under review`;
  return risk.reasons.length === 0 ? `${score}: nothing unusual` : score;
}
