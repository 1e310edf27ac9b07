import type { AppealOutcome } from '@clipit/field-rules';
import { Badge, Button, formatDate, Skeleton, Spinner, useToast, type BadgeVariant } from '@clipit/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { failureText, isUnauthorized } from '../lib/admin-api.js';
import { useAdminSession } from '../lib/admin-context.js';
import { APPEALS_KEY, SUBMISSIONS_KEY, useAppeals, type AdminAppeal } from '../lib/queries.js';
import { useFailureToast } from '../lib/use-failure-toast.js';
import { ReasonDialog } from './reason-form.js';

export const APPEALS_ERROR = 'Failed to fetch appeals';

const STATUS: Record<AdminAppeal['status'], { label: string; variant: BadgeVariant }> = {
  pending: { label: 'Pending', variant: 'warning' },
  upheld: { label: 'Upheld', variant: 'destructive' },
  overturned: { label: 'Overturned', variant: 'success' },
};

const KIND = { rejection: 'Rejection', hold: 'Held earning' } as const;

const OUTCOMES = {
  upheld: {
    label: 'Uphold',
    title: 'Uphold the decision',
    description: 'The decision stands. The clipper sees your reason.',
    pending: 'Upholding...',
    success: 'Appeal upheld',
  },
  overturned: {
    label: 'Overturn',
    title: 'Overturn the decision',
    description: 'A rejected clip is approved; a held earning is released and paid by the next payout. The clipper sees your reason.',
    pending: 'Overturning...',
    success: 'Appeal overturned',
  },
} as const;

/** One appeal: the clip, the clipper, what was appealed and their words; Uphold / Overturn while pending, else the outcome. */
function AppealCard({ appeal }: { appeal: AdminAppeal }) {
  const titleId = useId();
  const { request } = useAdminSession();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [deciding, setDeciding] = useState<AppealOutcome | null>(null);
  const status = STATUS[appeal.status];

  const decide = useMutation({
    mutationFn: ({ outcome, reason }: { outcome: AppealOutcome; reason: string }) =>
      request<AdminAppeal>('POST', `/api/admin/appeals/${encodeURIComponent(appeal.id)}/decide`, { outcome, reason }),
    onSuccess: async (_decided, { outcome }) => {
      setDeciding(null);
      toast({ title: OUTCOMES[outcome].success, description: appeal.submissionName, variant: 'success' });
      // An overturn changes the clip (approved) or its earning (released): the moderation list follows.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: APPEALS_KEY }),
        queryClient.invalidateQueries({ queryKey: SUBMISSIONS_KEY }),
      ]);
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({ title: 'Failed to decide the appeal', description: failureText(error, 'Please try again.'), variant: 'destructive' });
    },
  });

  return (
    <article className="clip-card clipit-admin-entry" aria-labelledby={titleId}>
      <header className="clipit-admin-entry__header">
        <h3 id={titleId} className="clipit-admin-entry__title">
          <a className="clipit-admin-link" href={appeal.postUrl} target="_blank" rel="noopener noreferrer">
            {appeal.submissionName || appeal.postUrl}
          </a>
        </h3>
        <Badge variant="secondary">{KIND[appeal.kind]}</Badge>
        <Badge variant={status.variant}>{status.label}</Badge>
      </header>
      <dl className="clipit-admin-fields">
        <div>
          <dt>Clipper</dt>
          <dd>{appeal.clipperHandle ? `@${appeal.clipperHandle}` : appeal.userId}</dd>
        </div>
        <div>
          <dt>Appealed</dt>
          <dd>{formatDate(appeal.createdAt)}</dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>Post</dt>
          <dd className="clipit-admin-prose">{appeal.postUrl}</dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>{appeal.kind === 'rejection' ? 'Rejection reason' : 'Hold reasons'}</dt>
          <dd className="clipit-admin-prose">
            {appeal.kind === 'rejection' ? (
              (appeal.rejectedReason ?? 'No reason was given')
            ) : (
              <ul aria-label={`Why the earning of ${appeal.submissionName} is held`}>
                {appeal.holdReasons.map((reason) => (
                  <li key={reason}>{reason}</li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>The clipper says</dt>
          <dd className="clipit-admin-prose">{appeal.text}</dd>
        </div>
        {appeal.status !== 'pending' ? (
          <div className="clipit-admin-fields__wide">
            <dt>{status.label}</dt>
            <dd className="clipit-admin-prose">
              {appeal.decisionReason}
              {appeal.decidedAt ? ` (${formatDate(appeal.decidedAt)}${appeal.decidedBy ? `, ${appeal.decidedBy}` : ''})` : ''}
            </dd>
          </div>
        ) : null}
      </dl>
      {appeal.status === 'pending' ? (
        <div className="clipit-admin-actions" role="group" aria-label={`Appeal of ${appeal.submissionName}`}>
          {(['upheld', 'overturned'] as const).map((outcome) => (
            <Button
              key={outcome}
              size="sm"
              variant={outcome === 'overturned' ? 'primary' : 'outline'}
              disabled={decide.isPending}
              onClick={() => setDeciding(outcome)}
            >
              {OUTCOMES[outcome].label}
            </Button>
          ))}
        </div>
      ) : null}
      <ReasonDialog
        words={deciding ? { ...OUTCOMES[deciding], submit: OUTCOMES[deciding].label } : null}
        destructive={deciding === 'upheld'}
        submissionName={appeal.submissionName}
        pending={decide.isPending}
        onClose={() => setDeciding(null)}
        onConfirm={(reason) => deciding && decide.mutate({ outcome: deciding, reason })}
      />
    </article>
  );
}

/** Appeals (ADR 0051): pending first, then oldest first, a page at a time. */
export function AppealsTab() {
  const appeals = useAppeals();
  useFailureToast(appeals.error, appeals.errorUpdatedAt, APPEALS_ERROR);

  if (appeals.isPending) {
    return (
      <div className="clipit-admin-list" aria-busy="true">
        <Spinner label="Loading appeals" />
        {[0, 1].map((i) => (
          <div key={i} className="clip-card clipit-admin-entry">
            <Skeleton shape="text" className="clipit-admin-skeleton--title" />
            <Skeleton shape="text" />
          </div>
        ))}
      </div>
    );
  }
  if (appeals.isError && !appeals.data) {
    return (
      <p className="clipit-admin-error-text" role="alert">
        {APPEALS_ERROR}
      </p>
    );
  }
  const list = appeals.data.pages.flatMap((page) => page.appeals);
  if (list.length === 0) return <p className="clipit-admin-empty">No appeals yet.</p>;
  return (
    <div className="clipit-admin-list">
      <ul className="clipit-admin-list__items" aria-label="Appeals">
        {list.map((appeal) => (
          <li key={appeal.id}>
            <AppealCard appeal={appeal} />
          </li>
        ))}
      </ul>
      {appeals.hasNextPage ? (
        <div className="clipit-admin-more">
          <Button
            variant="outline"
            loading={appeals.isFetchingNextPage}
            loadingText="Loading..."
            onClick={() => void appeals.fetchNextPage()}
          >
            Load more
          </Button>
        </div>
      ) : null}
    </div>
  );
}
