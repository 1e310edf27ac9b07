import { Button, Card, CardDescription, CardHeader, CardTitle, Skeleton, Spinner } from '@clipit/ui';
import { useSubmissions } from '../lib/queries.js';
import { useFailureToast } from '../lib/use-failure-toast.js';
import { SubmissionCard } from './submission-card.js';

export const SUBMISSIONS_ERROR_TITLE = 'Error Loading Submissions';
export const SUBMISSIONS_ERROR_TEXT = 'Unable to fetch submission data. Please try again later.';

/** Post Submissions: newest first, a page at a time, refetched every 30 s. */
export function SubmissionsTab() {
  const submissions = useSubmissions();
  useFailureToast(submissions.error, submissions.errorUpdatedAt, 'Failed to fetch submissions');

  if (submissions.isPending) {
    return (
      <div className="clipit-admin-list" aria-busy="true">
        <Spinner label="Loading submissions" />
        {[0, 1, 2].map((i) => (
          <div key={i} className="clip-card clipit-admin-entry">
            <Skeleton shape="text" className="clipit-admin-skeleton--title" />
            <Skeleton shape="text" />
            <Skeleton shape="text" />
            <Skeleton className="clipit-admin-skeleton--block" />
          </div>
        ))}
      </div>
    );
  }

  if (submissions.isError && !submissions.data) {
    return (
      <Card className="clipit-admin-error" role="alert">
        <CardHeader>
          <CardTitle level={3}>{SUBMISSIONS_ERROR_TITLE}</CardTitle>
          <CardDescription>{SUBMISSIONS_ERROR_TEXT}</CardDescription>
        </CardHeader>
      </Card>
    );
  }

  const list = submissions.data.pages.flatMap((page) => page.submissions);
  if (list.length === 0) {
    return <p className="clipit-admin-empty">No submissions yet.</p>;
  }

  return (
    <div className="clipit-admin-list">
      <ul className="clipit-admin-list__items" aria-label="Post submissions">
        {list.map((submission) => (
          <li key={submission.id}>
            <SubmissionCard submission={submission} />
          </li>
        ))}
      </ul>
      {submissions.hasNextPage ? (
        <div className="clipit-admin-more">
          <Button
            variant="outline"
            loading={submissions.isFetchingNextPage}
            loadingText="Loading..."
            onClick={() => void submissions.fetchNextPage()}
          >
            Load more
          </Button>
        </div>
      ) : null}
    </div>
  );
}
