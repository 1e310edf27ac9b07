import { abbreviateNumber } from '@clipit/ui';
import type { ApiAnswer, ApiRequestBody } from '@clipit/web-api';

/** GET /api/admin/campaigns and one campaign of it (ADR 0027), as the gateway types them. */
export type AdminCampaignPage = ApiAnswer<'/api/admin/campaigns', 'get'>;
export type AdminCampaign = AdminCampaignPage['campaigns'][number];
export type CampaignStatus = AdminCampaign['status'];
export type RejectCampaignRequest = ApiRequestBody<'/api/admin/campaigns/{id}/reject', 'post'>;

export const CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['pending', 'approved', 'rejected', 'completed'];

export const CAMPAIGN_STATUS_LABEL: Record<CampaignStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  completed: 'Completed',
};

/** The review commands, each a POST /api/admin/campaigns/{id}/<decision>, and their words. */
export type CampaignDecision = 'approve' | 'reject';
export const DECISIONS: Record<CampaignDecision, { label: string; success: string; failureTitle: string; failure: string }> = {
  approve: { label: 'Approve', success: 'Campaign Approved', failureTitle: 'Failed to approve', failure: 'Failed to approve campaign' },
  reject: { label: 'Reject', success: 'Campaign Rejected', failureTitle: 'Failed to reject', failure: 'Failed to reject campaign' },
};

/** Dollars as the admin area shows amounts: '$500', '$1.3K', '$2.0M'. */
export function formatBudget(dollars: number): string {
  return `$${abbreviateNumber(dollars)}`;
}

/** A view count as the admin area shows counts: '950', '100.0K', '1.5M'. */
export function formatViews(views: number): string {
  return abbreviateNumber(views);
}

/** The streamer as the list names them: 'Name @handle', '@handle', 'Name', or 'Unknown streamer'. */
export function streamerLabel(campaign: Pick<AdminCampaign, 'streamerDisplayName' | 'streamerHandle'>): string {
  const name = campaign.streamerDisplayName?.trim();
  const handle = campaign.streamerHandle?.trim();
  if (name && handle) return `${name} @${handle}`;
  if (handle) return `@${handle}`;
  return name || 'Unknown streamer';
}

/** The progress bar's fill: the gateway's progressPercent, held to 0–100. */
export function progressWidth(percent: number): number {
  if (!Number.isFinite(percent)) return 0;
  return Math.min(100, Math.max(0, percent));
}

/** Descriptions longer than this are shown cut, with Show more. */
export const DESCRIPTION_PREVIEW = 160;

export function previewOf(text: string, max = DESCRIPTION_PREVIEW): { preview: string; truncated: boolean } {
  if (text.length <= max) return { preview: text, truncated: false };
  return { preview: `${text.slice(0, max).trimEnd()}…`, truncated: true };
}
