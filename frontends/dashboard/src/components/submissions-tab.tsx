import { Badge, Button, formatDate, type BadgeVariant } from '@clipit/ui';
import { formatCount, platformLabel, type RecentSubmission } from '../lib/dashboard-data.js';
import { SubmissionViewHistory } from './submission-view-history.js';

const STATUS: Record<RecentSubmission['status'], { label: string; variant: BadgeVariant }> = {
  approved: { label: 'Approved', variant: 'success' },
  pending: { label: 'Pending', variant: 'warning' },
  rejected: { label: 'Rejected', variant: 'destructive' },
};

/**
 * The Submissions tab (spec 02 §2.2): recent submissions with name, platform, views, date, status and rejection
 * reason; an approved one also with its view history, when its metrics were fetched and whether it is verified.
 */
export function SubmissionsTab({ submissions, onSubmitClip }: { submissions: readonly RecentSubmission[]; onSubmitClip: () => void }) {
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
