import { guideWarnings } from '@clipit/field-rules';
import { Badge, Button, formatDate, GuideChecks, useToast, type BadgeVariant } from '@clipit/ui';
import type { AdminSubmission, RejectSubmissionRequest } from '@clipit/web-api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { failureText, isUnauthorized } from '../lib/admin-api.js';
import { useAdminSession } from '../lib/admin-context.js';
import { refreshAfterModeration, replaceSubmission } from '../lib/queries.js';
import { queueCommand } from '../lib/queue-shortcuts.js';
import { ACTIONS, actionsFor, platformLabel, STATUS_LABEL, type ModerationAction } from '../lib/submission-view.js';
import { EarningHold, holdBadge } from './earning-hold.js';
import { RejectDialog } from './reject-dialog.js';
import { matchBadge, VideoMatches } from './video-matches.js';
import { riskBadge, ViewRisk } from './view-risk.js';

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
 * One post submission as a row of the moderation queue: its title, badges (status, feed, the guide's warnings,
 * the re-upload check, the view risk, the hold on its earning) and the commands its state allows on one line,
 * with the clipper, platform and date under it. The video is a poster until asked for, and the details (wallet,
 * notes, each check, match, risk reason and the hold's release and void, ADR 0050) open on demand, so a page of
 * fifty stays a page. The row takes the queue's keys while it has the focus (lib/queue-shortcuts.ts).
 */
export function SubmissionCard({ submission }: { submission: AdminSubmission }) {
  const { request } = useAdminSession();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const titleId = useId();
  const detailsId = useId();
  const [rejecting, setRejecting] = useState(false);
  const [open, setOpen] = useState(false);
  const [playing, setPlaying] = useState(false);

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
  const matched = matchBadge(submission.matches);
  const risky = riskBadge(submission.risk);
  const held = holdBadge(submission.hold);
  const feedAction = actions.find((a) => a === 'approve-and-add-to-feed' || a === 'add-to-feed');

  const run = (action: ModerationAction | undefined) => {
    if (!action || moderate.isPending) return;
    if (action === 'reject') setRejecting(true);
    else moderate.mutate({ action });
  };

  /** The queue's keys, while the focus is in this row (not in its dialog, which React portals elsewhere). */
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (rejecting || !event.currentTarget.contains(event.target as Node)) return;
    const command = queueCommand(event);
    if (!command) return;
    event.preventDefault();
    const row = event.currentTarget.closest('li');
    const sibling = command === 'next' ? row?.nextElementSibling : command === 'previous' ? row?.previousElementSibling : null;
    if (command === 'next' || command === 'previous') sibling?.querySelector<HTMLElement>('article')?.focus();
    else if (command === 'approve') run(actions.find((a) => a === 'approve'));
    else if (command === 'feed') run(feedAction);
    else if (command === 'reject') run(actions.find((a) => a === 'reject'));
    else if (command === 'video') setPlaying((on) => Boolean(submission.videoUrl) && !on);
    else setOpen((on) => !on);
  };

  return (
    <article
      className="clip-card clipit-admin-entry clipit-queue-row"
      aria-labelledby={titleId}
      data-testid="submission"
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div className="clipit-queue-row__main">
        {submission.videoUrl ? (
          <button
            type="button"
            className="clipit-queue-row__poster"
            aria-pressed={playing}
            aria-label={playing ? `Hide the video of ${submission.name}` : `Play the video of ${submission.name}`}
            onClick={() => setPlaying((on) => !on)}
          >
            {submission.posterUrl ? <img src={submission.posterUrl} alt="" loading="lazy" /> : null}
            <span aria-hidden="true" className="clipit-queue-row__play">
              {playing ? '■' : '▶'}
            </span>
          </button>
        ) : (
          // The details say it in words (Video, and the processing or refusal notice); this is the picture's place.
          <span className="clipit-queue-row__poster clipit-queue-row__poster--none" aria-hidden="true">
            {submission.isProcessing ? '…' : submission.videoState === 'rejected' ? '✕' : '—'}
          </span>
        )}
        <div className="clipit-queue-row__summary">
          <header className="clipit-admin-entry__header">
            <h3 id={titleId} className="clipit-admin-entry__title">
              {submission.name}
            </h3>
            <div className="clipit-admin-badges">
              <Badge variant={STATUS_VARIANT[submission.status]}>{STATUS_LABEL[submission.status]}</Badge>
              <Badge variant={inFeed ? 'primary' : 'outline'}>{inFeed ? 'In Feed' : 'Hidden'}</Badge>
              {warnings > 0 ? <Badge variant="warning">{warnings === 1 ? '1 guide warning' : `${warnings} guide warnings`}</Badge> : null}
              {matched ? <Badge variant={matched.variant}>{matched.label}</Badge> : null}
              {risky ? <Badge variant={risky.variant}>{risky.label}</Badge> : null}
              {held ? <Badge variant={held.variant}>{held.label}</Badge> : null}
            </div>
          </header>
          <p className="clipit-queue-row__meta">
            <span>{clipper}</span>
            <span>{platformLabel(submission.platform)}</span>
            <time dateTime={submission.createdAt}>{formatDate(submission.createdAt)}</time>
            <a href={submission.url} target="_blank" rel="noopener noreferrer" className="clipit-admin-link">
              View post<span className="clip-sr-only"> (opens in a new tab)</span>
            </a>
          </p>
        </div>
        <div className="clipit-admin-actions" role="group" aria-label={`Actions for ${submission.name}`}>
          {actions.map((action) => (
            <Button
              key={action}
              size="sm"
              variant={action === 'reject' || action === 'remove-from-feed' ? 'outline' : action === 'approve' ? 'secondary' : 'primary'}
              disabled={moderate.isPending}
              loading={moderate.isPending && moderate.variables?.action === action}
              onClick={() => run(action)}
            >
              {ACTIONS[action].label}
            </Button>
          ))}
          <Button size="sm" variant="ghost" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen((on) => !on)}>
            {open ? 'Hide details' : 'Details'}
          </Button>
        </div>
      </div>

      {playing && submission.videoUrl ? (
        <video
          className="clipit-admin-video"
          controls
          autoPlay
          muted
          playsInline
          preload="metadata"
          poster={submission.posterUrl ?? undefined}
          src={submission.videoUrl}
          aria-label={`Video of ${submission.name}`}
        />
      ) : null}

      <div id={detailsId} hidden={!open}>
        {open ? (
          <dl className="clipit-admin-fields">
            <div>
              <dt>Wallet</dt>
              <dd>{submission.walletAddress ? <code className="clipit-admin-code">{submission.walletAddress}</code> : 'Not provided'}</dd>
            </div>
            <div>
              <dt>Video</dt>
              <dd>{hasVideo ? 'Has video' : 'No video'}</dd>
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
            {hasVideo ? (
              <div className="clipit-admin-fields__wide">
                <dt>Re-upload check</dt>
                <dd>
                  <VideoMatches submission={submission} />
                </dd>
              </div>
            ) : null}
            {submission.status === 'approved' || submission.risk !== null ? (
              <div className="clipit-admin-fields__wide">
                <dt>View risk</dt>
                <dd>
                  <ViewRisk submission={submission} />
                </dd>
              </div>
            ) : null}
            {submission.hold ? (
              <div className="clipit-admin-fields__wide">
                <dt>Earning</dt>
                <dd>
                  <EarningHold submission={submission} />
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
        ) : null}
        {open && submission.isProcessing ? (
          <p className="clipit-admin-notice" role="status">
            The video is still processing.
          </p>
        ) : open && submission.videoState === 'rejected' && submission.videoRejectedReason ? (
          <p className="clipit-admin-notice clipit-admin-notice--warning">Video refused: {submission.videoRejectedReason}</p>
        ) : null}
      </div>

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
