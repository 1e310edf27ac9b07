import { guideWarnings } from '@clipit/field-rules';
import { Badge, Button, formatDate, GuideChecks, type BadgeVariant } from '@clipit/ui';
import { useQuery } from '@tanstack/react-query';
import {
  formatCount,
  mySubmissionsKey,
  platformLabel,
  type GuideCheckList,
  type MySubmissions,
  type RecentSubmission,
} from '../lib/dashboard-data.js';
import { SubmissionViewHistory } from './submission-view-history.js';

const STATUS: Record<RecentSubmission['status'], { label: string; variant: BadgeVariant }> = {
  approved: { label: 'Approved', variant: 'success' },
  pending: { label: 'Pending', variant: 'warning' },
  rejected: { label: 'Rejected', variant: 'destructive' },
};

/** A submission's guide checks, folded under how many warn: the clipper opens them when they want the detail. */
function SubmissionGuideChecks({ checks }: { checks: GuideCheckList }) {
  const warnings = guideWarnings(checks);
  return (
    <details className="clipit-dash-guide">
      <summary>
        Guide checks{' '}
        <Badge variant={warnings > 0 ? 'warning' : 'success'}>
          {warnings === 0 ? 'No warnings' : warnings === 1 ? '1 warning' : `${warnings} warnings`}
        </Badge>
      </summary>
      <GuideChecks checks={checks} className="clipit-dash-guide__list" />
    </details>
  );
}

/**
 * The guide's checks of the clipper's processed videos, by submission id. The dashboard's recent submissions
 * do not carry them, so they come from the clipper's own list; until it answers, or when it fails, the rows
 * simply show none.
 */
function useGuideChecks(enabled: boolean): ReadonlyMap<string, GuideCheckList> {
  // Read again on each visit: a video the worker finished since carries its checks now.
  const mine = useQuery<MySubmissions>({ queryKey: mySubmissionsKey, enabled, refetchOnMount: 'always' });
  const checks = new Map<string, GuideCheckList>();
  for (const submission of mine.data ?? []) if (submission.guideChecks) checks.set(submission.id, submission.guideChecks);
  return checks;
}

/**
 * The Submissions tab (spec 02 §2.2): recent submissions with name, platform, views, date, status and rejection
 * reason; an approved one also with its view history, when its metrics were fetched and whether it is verified;
 * one with a processed video also with the guide's checks on it (issue 35).
 */
export function SubmissionsTab({ submissions, onSubmitClip }: { submissions: readonly RecentSubmission[]; onSubmitClip: () => void }) {
  const guideChecks = useGuideChecks(submissions.length > 0);
  if (submissions.length === 0) {
    return (
      <div className="clipit-dash-empty">
        <h2 className="clipit-dash-subtitle">No submissions yet</h2>
        <p className="clipit-dash-muted">Submit your first clip to start earning points and $CLIP.</p>
        <Button onClick={onSubmitClip}>Submit a clip</Button>
      </div>
    );
  }
  return (
    <section aria-labelledby="dash-submissions-title">
      <h2 id="dash-submissions-title" className="clipit-dash-subtitle">
        Recent Submissions
      </h2>
      <ul className="clipit-dash-list" aria-label="Recent submissions">
        {submissions.map((submission) => {
          const status = STATUS[submission.status];
          const checks = guideChecks.get(submission.id);
          return (
            <li key={submission.id} className="clipit-dash-list__item">
              <div className="clipit-dash-list__main">
                <h3 className="clipit-dash-list__title">
                  {submission.url ? (
                    <a href={submission.url} target="_blank" rel="noopener noreferrer">
                      {submission.name}
                    </a>
                  ) : (
                    submission.name
                  )}
                </h3>
                <p className="clipit-dash-muted">
                  {platformLabel(submission.platform)} · {formatCount(submission.views)} views ·{' '}
                  <time dateTime={submission.createdAt}>{formatDate(submission.createdAt)}</time>
                </p>
                {submission.status === 'rejected' && submission.rejectedReason ? (
                  <p className="clipit-dash-reason">Reason: {submission.rejectedReason}</p>
                ) : null}
                {checks ? <SubmissionGuideChecks checks={checks} /> : null}
                {submission.status === 'approved' ? <SubmissionViewHistory submissionId={submission.id} /> : null}
              </div>
              <Badge variant={status.variant}>{status.label}</Badge>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
