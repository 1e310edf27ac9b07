import { Badge, Button, formatDate, Skeleton, Spinner, type BadgeVariant } from '@clipit/ui';
import type { ClipperApplication } from '@clipit/web-api';
import { useId } from 'react';
import { useApplications } from '../lib/queries.js';
import { useFailureToast } from '../lib/use-failure-toast.js';

export const APPLICATIONS_ERROR = 'Failed to fetch applications';

const STATUS: Record<ClipperApplication['status'], { label: string; variant: BadgeVariant }> = {
  pending: { label: 'Pending', variant: 'warning' },
  approved: { label: 'Approved', variant: 'success' },
  rejected: { label: 'Rejected', variant: 'destructive' },
};

const orNone = (value: string | number | null) => (value === null || value === '' ? 'Not provided' : String(value));
const dateOrNone = (value: string | null) => (value ? formatDate(value) : 'Not provided');

/** One clipper job application, every field of it; read-only (spec 02 §2.4: no action is offered). */
function ApplicationCard({ application }: { application: ClipperApplication }) {
  const titleId = useId();
  const status = STATUS[application.status];
  return (
    <article className="clip-card clipit-admin-entry" aria-labelledby={titleId}>
      <header className="clipit-admin-entry__header">
        <h3 id={titleId} className="clipit-admin-entry__title">
          {application.fullName}
        </h3>
        <Badge variant={status.variant}>{status.label}</Badge>
      </header>
      <dl className="clipit-admin-fields">
        <div>
          <dt>Email</dt>
          <dd>
            <a className="clipit-admin-link" href={`mailto:${application.email}`}>
              {application.email}
            </a>
          </dd>
        </div>
        <div>
          <dt>Applied</dt>
          <dd>{formatDate(application.createdAt)}</dd>
        </div>
        <div>
          <dt>Social media handles</dt>
          <dd>{orNone(application.socialMediaHandles)}</dd>
        </div>
        <div>
          <dt>Availability</dt>
          <dd>{application.availabilityHours === null ? 'Not provided' : `${application.availabilityHours} hours per week`}</dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>Experience</dt>
          <dd className="clipit-admin-prose">{application.experience}</dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>Why join</dt>
          <dd className="clipit-admin-prose">{application.whyJoin}</dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>Portfolio links</dt>
          <dd className="clipit-admin-prose">{orNone(application.portfolioLinks)}</dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>Notes</dt>
          <dd className="clipit-admin-prose">{orNone(application.notes)}</dd>
        </div>
        <div>
          <dt>Reviewed by</dt>
          <dd>{orNone(application.reviewedBy)}</dd>
        </div>
        <div>
          <dt>Reviewed</dt>
          <dd>{dateOrNone(application.reviewedAt)}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{formatDate(application.updatedAt)}</dd>
        </div>
        <div>
          <dt>Application id</dt>
          <dd>
            <code className="clipit-admin-code">{application.id}</code>
          </dd>
        </div>
      </dl>
    </article>
  );
}

/** Job Applications: every application, newest first, a page at a time. */
export function ApplicationsTab() {
  const applications = useApplications();
  useFailureToast(applications.error, applications.errorUpdatedAt, APPLICATIONS_ERROR);

  if (applications.isPending) {
    return (
      <div className="clipit-admin-list" aria-busy="true">
        <Spinner label="Loading applications" />
        {[0, 1].map((i) => (
          <div key={i} className="clip-card clipit-admin-entry">
            <Skeleton shape="text" className="clipit-admin-skeleton--title" />
            <Skeleton shape="text" />
            <Skeleton shape="text" />
          </div>
        ))}
      </div>
    );
  }
  if (applications.isError && !applications.data) {
    return (
      <p className="clipit-admin-error-text" role="alert">
        {APPLICATIONS_ERROR}
      </p>
    );
  }
  const list = applications.data.pages.flatMap((page) => page.applications);
  if (list.length === 0) return <p className="clipit-admin-empty">No job applications yet.</p>;
  return (
    <div className="clipit-admin-list">
      <ul className="clipit-admin-list__items" aria-label="Job applications">
        {list.map((application) => (
          <li key={application.id}>
            <ApplicationCard application={application} />
          </li>
        ))}
      </ul>
      {applications.hasNextPage ? (
        <div className="clipit-admin-more">
          <Button
            variant="outline"
            loading={applications.isFetchingNextPage}
            loadingText="Loading..."
            onClick={() => void applications.fetchNextPage()}
          >
            Load more
          </Button>
        </div>
      ) : null}
    </div>
  );
}
