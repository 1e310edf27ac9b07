import { Badge, Button, formatDate, useToast, type BadgeVariant } from '@clipit/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { failureText, isUnauthorized } from '../lib/admin-api.js';
import { useAdminSession } from '../lib/admin-context.js';
import {
  CAMPAIGN_STATUS_LABEL,
  DECISIONS,
  formatBudget,
  formatViews,
  previewOf,
  progressWidth,
  streamerLabel,
  type AdminCampaign,
  type CampaignDecision,
  type RejectCampaignRequest,
} from '../lib/campaign-view.js';
import { CAMPAIGNS_KEY, replaceCampaign } from '../lib/queries.js';
import { RejectDialog } from './reject-dialog.js';

const STATUS_VARIANT: Record<AdminCampaign['status'], BadgeVariant> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'destructive',
  completed: 'primary',
};

interface Review {
  decision: CampaignDecision;
  reason?: string | undefined;
}

/** One CPM campaign (ADR 0027): what the streamer bought, how far it has got, and Approve / Reject while pending. */
export function CampaignCard({ campaign }: { campaign: AdminCampaign }) {
  const { request } = useAdminSession();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const titleId = useId();
  const descriptionId = useId();
  const [rejecting, setRejecting] = useState(false);
  const [expanded, setExpanded] = useState(false);

  const review = useMutation({
    mutationFn: ({ decision, reason }: Review) => {
      const body: RejectCampaignRequest | Record<string, never> = decision === 'reject' && reason ? { reason } : {};
      return request<AdminCampaign>('POST', `/api/admin/campaigns/${encodeURIComponent(campaign.id)}/${decision}`, body);
    },
    onSuccess: async (updated, { decision }) => {
      setRejecting(false);
      toast({ title: DECISIONS[decision].success, description: updated.title, variant: 'success' });
      replaceCampaign(queryClient, updated);
      await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
    },
    onError: (error, { decision }) => {
      if (isUnauthorized(error)) return;
      toast({
        title: DECISIONS[decision].failureTitle,
        description: failureText(error, DECISIONS[decision].failure),
        variant: 'destructive',
      });
    },
  });

  const { preview, truncated } = previewOf(campaign.description);
  const percent = progressWidth(campaign.progressPercent);
  const percentText = `${campaign.progressPercent.toFixed(1)}%`;

  return (
    <article className="clip-card clipit-admin-entry" aria-labelledby={titleId} data-testid="campaign">
      <header className="clipit-admin-entry__header">
        <div>
          <h3 id={titleId} className="clipit-admin-entry__title">
            {campaign.title}
          </h3>
          <p className="clipit-admin-muted">{streamerLabel(campaign)}</p>
        </div>
        <Badge variant={STATUS_VARIANT[campaign.status]}>{CAMPAIGN_STATUS_LABEL[campaign.status]}</Badge>
      </header>

      <div className="clipit-admin-description">
        <p id={descriptionId} className="clipit-admin-prose clipit-admin-description__text">
          {expanded ? campaign.description : preview}
        </p>
        {truncated ? (
          <Button variant="ghost" size="sm" aria-expanded={expanded} aria-controls={descriptionId} onClick={() => setExpanded((v) => !v)}>
            {expanded ? 'Show less' : 'Show more'}
          </Button>
        ) : null}
      </div>

      <dl className="clipit-admin-fields">
        <div>
          <dt>Target views</dt>
          <dd>{formatViews(campaign.targetViews)}</dd>
        </div>
        <div>
          <dt>Budget</dt>
          <dd>{formatBudget(campaign.budgetAmount)}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <time dateTime={campaign.createdAt}>{formatDate(campaign.createdAt)}</time>
          </dd>
        </div>
        <div className="clipit-admin-fields__wide">
          <dt>Content link</dt>
          <dd>
            {campaign.contentLink ? (
              <a href={campaign.contentLink} target="_blank" rel="noopener noreferrer" className="clipit-admin-link">
                {campaign.contentLink}
                <span className="clip-sr-only"> (opens in a new tab)</span>
              </a>
            ) : (
              'Not provided'
            )}
          </dd>
        </div>
        {campaign.status === 'rejected' ? (
          <div className="clipit-admin-fields__wide">
            <dt>Rejection reason</dt>
            <dd>{campaign.rejectedReason ? campaign.rejectedReason : 'No reason given'}</dd>
          </div>
        ) : null}
        {campaign.approvedAt ? (
          <div>
            <dt>Approved on</dt>
            <dd>
              <time dateTime={campaign.approvedAt}>{formatDate(campaign.approvedAt)}</time>
            </dd>
          </div>
        ) : null}
        {campaign.completedAt ? (
          <div>
            <dt>Completed on</dt>
            <dd>
              <time dateTime={campaign.completedAt}>{formatDate(campaign.completedAt)}</time>
            </dd>
          </div>
        ) : null}
      </dl>

      <div className="clipit-admin-progress">
        <div className="clipit-admin-progress__label">
          <span>
            {formatViews(campaign.deliveredViews)} / {formatViews(campaign.targetViews)} views
          </span>
          <span>{percentText}</span>
        </div>
        <div
          className="clipit-admin-progress__track"
          role="progressbar"
          aria-label={`Delivered views of ${campaign.title}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${campaign.deliveredViews.toLocaleString('en-US')} of ${campaign.targetViews.toLocaleString('en-US')} views (${percentText})`}
        >
          <div className="clipit-admin-progress__fill" style={{ width: `${percent}%` }} />
        </div>
      </div>

      {campaign.status === 'pending' ? (
        <div className="clipit-admin-actions" role="group" aria-label={`Actions for ${campaign.title}`}>
          <Button
            size="sm"
            variant="primary"
            disabled={review.isPending}
            loading={review.isPending && review.variables?.decision === 'approve'}
            onClick={() => review.mutate({ decision: 'approve' })}
          >
            {DECISIONS.approve.label}
          </Button>
          <Button
            size="sm"
            variant="outline"
            disabled={review.isPending}
            loading={review.isPending && review.variables?.decision === 'reject'}
            onClick={() => setRejecting(true)}
          >
            {DECISIONS.reject.label}
          </Button>
        </div>
      ) : null}

      <RejectDialog
        open={rejecting}
        submissionName={campaign.title}
        noun="Campaign"
        audience="streamer"
        pending={review.isPending}
        onOpenChange={(open) => {
          if (!review.isPending) setRejecting(open);
        }}
        onConfirm={(reason) => review.mutate({ decision: 'reject', reason })}
      />
    </article>
  );
}
