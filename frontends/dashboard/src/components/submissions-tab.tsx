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
import { SubmissionAppeal, useAppeals } from './submission-appeal.js';
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

type ViewsReview = NonNullable<MySubmissions[number]['viewsReview']>;

/**
 * A clip under review for its views (ADR 0049): the clipper is told so and why, each reason with its figures.
 * The score stays the moderators'.
 */
function SubmissionViewsReview({ name, review }: { name: string; review: ViewsReview }) {
  return (
    <div className="clipit-dash-review" role="note" aria-label={`Why ${name} is under review`}>
      <p className="clipit-dash-review__title">Under review: this clip's views look unusual, so moderators are checking them.</p>
      {review.reasons.length > 0 ? (
        <ul className="clipit-dash-review__reasons">
          {review.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * What only the clipper's own list carries, by submission id: the guide's checks of their processed videos and
 * whether a clip is under review for its views. The dashboard's recent submissions do not carry them; until the
 * list answers, or when it fails, the rows simply show none.
 */
function useMySubmissions(enabled: boolean): {
  guideChecks: ReadonlyMap<string, GuideCheckList>;
  reviews: ReadonlyMap<string, ViewsReview>;
} {
  // Read again on each visit: a video the worker finished since carries its checks now, a new read its review.
  const mine = useQuery<MySubmissions>({ queryKey: mySubmissionsKey, enabled, refetchOnMount: 'always' });
  const guideChecks = new Map<string, GuideCheckList>();
  const reviews = new Map<string, ViewsReview>();
  for (const submission of mine.data ?? []) {
    if (submission.guideChecks) guideChecks.set(submission.id, submission.guideChecks);
    if (submission.viewsReview) reviews.set(submission.id, submission.viewsReview);
  }
  return { guideChecks, reviews };
}

/**
 * The Submissions tab (spec 02 §2.2): recent submissions with name, platform, views, date, status and rejection
 * reason; an approved one also with its view history, when its metrics were fetched and whether it is verified;
 * one with a processed video also with the guide's checks on it (issue 35); one under review for its views with
 * an "Under review" badge and the reasons (issue 36); a rejected one, or one whose earning is held, with "Appeal"
 * and then the appeal's state (ADR 0051).
 */
export function SubmissionsTab({ submissions, onSubmitClip }: { submissions: readonly RecentSubmission[]; onSubmitClip: () => void }) {
  const { guideChecks, reviews } = useMySubmissions(submissions.length > 0);
  const { appeals, held } = useAppeals(submissions.length > 0);
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
          const review = reviews.get(submission.id);
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
                {review ? <SubmissionViewsReview name={submission.name} review={review} /> : null}
                {checks ? <SubmissionGuideChecks checks={checks} /> : null}
                <SubmissionAppeal submission={submission} appeals={appeals.get(submission.id) ?? []} held={held.has(submission.id)} />
                {submission.status === 'approved' ? <SubmissionViewHistory submissionId={submission.id} /> : null}
              </div>
              <div className="clipit-dash-list__badges">
                <Badge variant={status.variant}>{status.label}</Badge>
                {review ? <Badge variant="warning">Under review</Badge> : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
