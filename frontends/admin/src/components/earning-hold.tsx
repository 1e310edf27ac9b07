import { Badge, Button, formatDate, useToast } from '@clipit/ui';
import type { AdminSubmission } from '@clipit/web-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { failureText, isUnauthorized } from '../lib/admin-api.js';
import { useAdminSession } from '../lib/admin-context.js';
import { replaceSubmission } from '../lib/queries.js';
import { ReasonDialog } from './reason-form.js';

type Hold = NonNullable<AdminSubmission['hold']>;
type Decision = 'release' | 'void';

const DECISIONS = {
  release: {
    label: 'Release',
    title: 'Release earning',
    description: 'It goes back to pending and is paid by the next Friday payout.',
    pending: 'Releasing...',
    success: 'Earning released',
    failure: 'Failed to release',
  },
  void: {
    label: 'Void',
    title: 'Void earning',
    description: 'It is never paid. The clipper sees your reason.',
    pending: 'Voiding...',
    success: 'Earning voided',
    failure: 'Failed to void',
  },
} as const;

const STATUS = {
  held: { label: 'Held', variant: 'warning' },
  pending: { label: 'Released', variant: 'success' },
  paid: { label: 'Released and paid', variant: 'success' },
  voided: { label: 'Voided', variant: 'destructive' },
} as const;

const formatClip = (amount: number) => `${amount.toLocaleString('en-US', { maximumFractionDigits: 6 })} $CLIP`;

/** The header badge of a clip whose earning waits for an admin (ADR 0050). */
export function holdBadge(hold: AdminSubmission['hold']): { label: string; variant: 'warning' } | undefined {
  return hold?.status === 'held' ? { label: 'Earning held', variant: 'warning' } : undefined;
}

/**
 * The hold on a flagged clip's earning (ADR 0050): the amount, why it was held in the clipper's words, and
 * while it is held the two decisions, each asking for the reason; once decided, who decided, when and why.
 */
export function EarningHold({ submission }: { submission: AdminSubmission }) {
  const hold = submission.hold;
  const { request } = useAdminSession();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [deciding, setDeciding] = useState<Decision | null>(null);

  const decide = useMutation({
    mutationFn: ({ decision, reason }: { decision: Decision; reason: string }) =>
      request<Hold>('POST', `/api/admin/earnings/${encodeURIComponent(hold!.earningId)}/${decision}`, { reason }),
    onSuccess: (updated, { decision }) => {
      setDeciding(null);
      toast({ title: DECISIONS[decision].success, description: submission.name, variant: 'success' });
      replaceSubmission(queryClient, { ...submission, hold: updated });
    },
    onError: (error, { decision }) => {
      if (isUnauthorized(error)) return;
      toast({ title: DECISIONS[decision].failure, description: failureText(error, 'Please try again.'), variant: 'destructive' });
    },
  });

  if (!hold) return null;
  const status = STATUS[hold.status];
  return (
    <div data-testid="earning-hold">
      <p className="clipit-admin-risk__score">
        <Badge variant={status.variant}>{status.label}</Badge> <strong>{formatClip(hold.amount)}</strong> held{' '}
        <time dateTime={hold.heldAt}>{formatDate(hold.heldAt)}</time>
      </p>
      <ul className="clipit-admin-risk" aria-label={`Why the earning of ${submission.name} is held`}>
        {hold.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      {hold.decision ? (
        <p className="clipit-admin-muted">
          {hold.decision.decision === 'released' ? 'Released' : 'Voided'} by {hold.decision.by} on{' '}
          <time dateTime={hold.decision.at}>{formatDate(hold.decision.at)}</time>: {hold.decision.reason}
        </p>
      ) : null}
      {hold.status === 'held' ? (
        <div className="clipit-admin-actions" role="group" aria-label={`Hold of ${submission.name}`}>
          {(['release', 'void'] as const).map((decision) => (
            <Button
              key={decision}
              size="sm"
              variant={decision === 'void' ? 'outline' : 'secondary'}
              disabled={decide.isPending}
              onClick={() => setDeciding(decision)}
            >
              {DECISIONS[decision].label}
            </Button>
          ))}
        </div>
      ) : null}
      <ReasonDialog
        words={deciding ? { ...DECISIONS[deciding], submit: DECISIONS[deciding].title } : null}
        destructive={deciding === 'void'}
        submissionName={submission.name}
        pending={decide.isPending}
        onClose={() => setDeciding(null)}
        onConfirm={(reason) => deciding && decide.mutate({ decision: deciding, reason })}
      />
    </div>
  );
}
