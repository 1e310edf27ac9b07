import { Button, Card, CardDescription, CardHeader, CardTitle, Select, Skeleton, Spinner } from '@clipit/ui';
import { useId, useState } from 'react';
import { useSubmissions } from '../lib/queries.js';
import {
  DEFAULT_QUEUE_FILTER,
  FLAG_LABEL,
  isFiltered,
  PLATFORM_FILTER_OPTIONS,
  QUEUE_FLAGS,
  STATUS_FILTER_OPTIONS,
  toggleFlag,
  type QueueFilter,
} from '../lib/queue-filter.js';
import { QUEUE_SHORTCUTS } from '../lib/queue-shortcuts.js';
import { useFailureToast } from '../lib/use-failure-toast.js';
import { SubmissionCard } from './submission-card.js';

export const SUBMISSIONS_ERROR_TITLE = 'Error Loading Submissions';
export const SUBMISSIONS_ERROR_TEXT = 'Unable to fetch submission data. Please try again later.';

/** The queue's filter: a status (or all, pending first), a platform, and flags a submission has one of. */
function QueueFilters({ filter, onChange }: { filter: QueueFilter; onChange: (next: QueueFilter) => void }) {
  const flagsId = useId();
  return (
    <div className="clipit-admin-filter clipit-queue-filters">
      <Select
        label="Status"
        name="queue-status"
        options={STATUS_FILTER_OPTIONS}
        value={filter.status ?? ''}
        onChange={(event) => onChange({ ...filter, status: (event.target.value || null) as QueueFilter['status'] })}
      />
      <Select
        label="Platform"
        name="queue-platform"
        options={PLATFORM_FILTER_OPTIONS}
        value={filter.platform ?? ''}
        onChange={(event) => onChange({ ...filter, platform: (event.target.value || null) as QueueFilter['platform'] })}
      />
      <fieldset className="clipit-queue-flags" aria-describedby={flagsId}>
        <legend>Flags</legend>
        {QUEUE_FLAGS.map((flag) => (
          <label key={flag} className="clipit-queue-flag">
            <input
              type="checkbox"
              checked={filter.flags.includes(flag)}
              onChange={(event) => onChange(toggleFlag(filter, flag, event.target.checked))}
            />
            {FLAG_LABEL[flag]}
          </label>
        ))}
        <span id={flagsId} className="clip-sr-only">
          Submissions with any of the ticked flags
        </span>
      </fieldset>
    </div>
  );
}

/** The keys of the queue, listed once above it. */
function ShortcutsHelp() {
  return (
    <p className="clipit-queue-help">
      Keys on a focused row:{' '}
      {QUEUE_SHORTCUTS.map((s, i) => (
        <span key={s.keys}>
          {i > 0 ? ' · ' : null}
          <kbd>{s.keys}</kbd> {s.label}
        </span>
      ))}
    </p>
  );
}

/**
 * Post Submissions as a moderation queue (issue 36): filtered by status (every status, pending first, by
 * default), platform and flags; compact rows with the video and the details on demand and the queue's keys;
 * a page at a time, refetched every 30 s.
 */
export function SubmissionsTab() {
  const [filter, setFilter] = useState<QueueFilter>(DEFAULT_QUEUE_FILTER);
  const submissions = useSubmissions(filter);
  useFailureToast(submissions.error, submissions.errorUpdatedAt, 'Failed to fetch submissions');
  const filters = <QueueFilters filter={filter} onChange={setFilter} />;

  if (submissions.isPending) {
    return (
      <div className="clipit-admin-list" aria-busy="true">
        {filters}
        <Spinner label="Loading submissions" />
        {[0, 1, 2].map((i) => (
          <div key={i} className="clip-card clipit-admin-entry">
            <Skeleton shape="text" className="clipit-admin-skeleton--title" />
            <Skeleton shape="text" />
          </div>
        ))}
      </div>
    );
  }

  if (submissions.isError && !submissions.data) {
    return (
      <div className="clipit-admin-list">
        {filters}
        <Card className="clipit-admin-error" role="alert">
          <CardHeader>
            <CardTitle level={3}>{SUBMISSIONS_ERROR_TITLE}</CardTitle>
            <CardDescription>{SUBMISSIONS_ERROR_TEXT}</CardDescription>
          </CardHeader>
        </Card>
      </div>
    );
  }

  const list = submissions.data.pages.flatMap((page) => page.submissions);
  if (list.length === 0) {
    return (
      <div className="clipit-admin-list">
        {filters}
        <p className="clipit-admin-empty">{isFiltered(filter) ? 'No submissions match these filters.' : 'No submissions yet.'}</p>
      </div>
    );
  }

  return (
    <div className="clipit-admin-list">
      {filters}
      <ShortcutsHelp />
      <ul className="clipit-admin-list__items clipit-queue" aria-label="Post submissions">
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
