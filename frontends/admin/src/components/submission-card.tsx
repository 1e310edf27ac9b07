import { guideWarnings } from '@clipit/field-rules';
import { Badge, Button, formatDate, GuideChecks, useToast, type BadgeVariant } from '@clipit/ui';
import type { AdminSubmission, RejectSubmissionRequest } from '@clipit/web-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { failureText, isUnauthorized } from '../lib/admin-api.js';
import { useAdminSession } from '../lib/admin-context.js';
import { refreshAfterModeration, replaceSubmission } from '../lib/queries.js';
import { ACTIONS, actionsFor, platformLabel, STATUS_LABEL, type ModerationAction } from '../lib/submission-view.js';
import { RejectDialog } from './reject-dialog.js';

const STATUS_VARIANT: Record<AdminSubmission['status'], BadgeVariant> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'destructive',
};

interface Command {
  action: ModerationAction;
  reason?: string | undefined;
}

/**
 * One post submission with everything the admin decides on, and the commands its state allows. The guide's
 * checks on its video are among them: warnings first and counted in the header, a signal, not a verdict.
 */
export function SubmissionCard({ submission }: { submission: AdminSubmission }) {
  const { request } = useAdminSession();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const titleId = useId();
  const [rejecting, setRejecting] = useState(false);

  const moderate = useMutation({
    mutationFn: ({ action, reason }: Command) => {
      const body: RejectSubmissionRequest | Record<string, never> = action === 'reject' && reason ? { reason } : {};
      return request<AdminSubmission>('POST', `/api/admin/submissions/${encodeURIComponent(submission.id)}/${action}`, body);
    },
    onSuccess: async (updated, { action }) => {
      setRejecting(false);
      toast({ title: ACTIONS[action].success, description: updated.name, variant: 'success' });
      replaceSubmission(queryClient, updated);
      await refreshAfterModeration(queryClient);
    },
    onError: (error, { action }) => {
      if (isUnauthorized(error)) return;
      toast({ title: ACTIONS[action].failureTitle, description: failureText(error, ACTIONS[action].failure), variant: 'destructive' });
    },
  });

  const inFeed = submission.addedToFeed === 'true';
  const hasVideo = submission.hasVideo === 'true';
  const actions = actionsFor(submission);
  const clipper = submission.clipperHandle
    ? `${submission.clipperDisplayName ? `${submission.clipperDisplayName} ` : ''}@${submission.clipperHandle}`
    : 'Unknown clipper';
  const warnings = submission.guideChecks ? guideWarnings(submission.guideChecks) : 0;

  return (
    <article className="clip-card clipit-admin-entry" aria-labelledby={titleId} data-testid="submission">
      <header className="clipit-admin-entry__header">
        <h3 id={titleId} className="clipit-admin-entry__title">
          {submission.name}
        </h3>
        <div className="clipit-admin-badges">
          <Badge variant={STATUS_VARIANT[submission.status]}>{STATUS_LABEL[submission.status]}</Badge>
          <Badge variant={inFeed ? 'primary' : 'outline'}>{inFeed ? 'In Feed' : 'Hidden'}</Badge>
          {warnings > 0 ? <Badge variant="warning">{warnings === 1 ? '1 guide warning' : `${warnings} guide warnings`}</Badge> : null}
        </div>
      </header>

      <dl className="clipit-admin-fields">
        <div>
          <dt>Created</dt>
          <dd>
            <time dateTime={submission.createdAt}>{formatDate(submission.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Clipper</dt>
          <dd>{clipper}</dd>
        </div>
        <div>
          <dt>Wallet</dt>
          <dd>{submission.walletAddress ? <code className="clipit-admin-code">{submission.walletAddress}</code> : 'Not provided'}</dd>
        </div>
        <div>
          <dt>Platform</dt>
          <dd>{platformLabel(submission.platform)}</dd>
        </div>
        <div>
          <dt>Video</dt>
          <dd>{hasVideo ? 'Has video' : 'No video'}</dd>
        </div>
        <div>
          <dt>Post</dt>
          <dd>
            <a href={submission.url} target="_blank" rel="noopener noreferrer" className="clipit-admin-link">
              View post<span className="clip-sr-only"> (opens in a new tab)</span>
            </a>
          </dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>Notes</dt>
          <dd>{submission.additionalInfo ? submission.additionalInfo : 'No notes'}</dd>
        </div>
        {submission.guideChecks ? (
          <div className="clipit-admin-fields__wide">
            <dt>Guide checks</dt>
            <dd>
              <GuideChecks checks={submission.guideChecks} warningsFirst aria-label={`Guide checks of ${submission.name}`} />
            </dd>
          </div>
        ) : null}
        {submission.status === 'rejected' ? (
          <div className="clipit-admin-fields__wide">
            <dt>Rejection reason</dt>
            <dd>{submission.rejectedReason ? submission.rejectedReason : 'No reason given'}</dd>
          </div>
        ) : null}
      </dl>

      {submission.videoUrl ? (
        <video
          className="clipit-admin-video"
          controls
          preload="none"
          playsInline
          poster={submission.posterUrl ?? undefined}
          src={submission.videoUrl}
          aria-label={`Video of ${submission.name}`}
        />
      ) : submission.isProcessing ? (
        <p className="clipit-admin-notice" role="status">
          The video is still processing.
        </p>
      ) : submission.videoState === 'rejected' && submission.videoRejectedReason ? (
        <p className="clipit-admin-notice clipit-admin-notice--warning">Video refused: {submission.videoRejectedReason}</p>
      ) : null}

      {actions.length > 0 ? (
        <div className="clipit-admin-actions" role="group" aria-label={`Actions for ${submission.name}`}>
          {actions.map((action) => (
            <Button
              key={action}
              size="sm"
              variant={action === 'reject' || action === 'remove-from-feed' ? 'outline' : action === 'approve' ? 'secondary' : 'primary'}
              disabled={moderate.isPending}
              loading={moderate.isPending && moderate.variables?.action === action}
              onClick={() => (action === 'reject' ? setRejecting(true) : moderate.mutate({ action }))}
            >
              {ACTIONS[action].label}
            </Button>
          ))}
        </div>
      ) : null}

      <RejectDialog
        open={rejecting}
        submissionName={submission.name}
        pending={moderate.isPending}
        onOpenChange={(open) => {
          if (!moderate.isPending) setRejecting(open);
        }}
        onConfirm={(reason) => moderate.mutate({ action: 'reject', reason })}
      />
    </article>
  );
}
