import type { AdminSubmission } from '@clipit/web-api';

/**
 * The moderation queue's filter (GET /api/admin/submissions?status=&platform=&flags=): a status or every
 * status with the pending ones first, a platform or every one, and flags a submission must have one of.
 */
export interface QueueFilter {
  status: AdminSubmission['status'] | null;
  platform: AdminSubmission['platform'] | null;
  flags: QueueFlag[];
}

export const QUEUE_FLAGS = ['matched', 'risky', 'failed-checks'] as const;
export type QueueFlag = (typeof QUEUE_FLAGS)[number];

/** What each flag is called in the filter. */
export const FLAG_LABEL: Record<QueueFlag, string> = {
  matched: 'Matched an earlier clip',
  risky: 'Risky views',
  'failed-checks': 'Failed checks',
};

/** The queue as it opens: every status, pending ones first. */
export const DEFAULT_QUEUE_FILTER: QueueFilter = { status: null, platform: null, flags: [] };

export const STATUS_FILTER_OPTIONS = [
  { value: '', label: 'All (pending first)' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
] as const;

export const PLATFORM_FILTER_OPTIONS = [
  { value: '', label: 'All platforms' },
  { value: 'twitter', label: 'Twitter/X' },
  { value: 'instagram', label: 'Instagram' },
  { value: 'tiktok', label: 'TikTok' },
  { value: 'other', label: 'Other' },
] as const;

/** The filter as query parameters (`&status=…&platform=…&flags=a,b`; nothing for what is not filtered). */
export function queueQuery(filter: QueueFilter): string {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.platform) params.set('platform', filter.platform);
  if (filter.flags.length > 0) params.set('flags', [...filter.flags].sort().join(','));
  const query = params.toString();
  return query ? `&${query}` : '';
}

/** The filter with `flag` turned on or off. */
export function toggleFlag(filter: QueueFilter, flag: QueueFlag, on: boolean): QueueFilter {
  const flags = filter.flags.filter((f) => f !== flag);
  return { ...filter, flags: on ? [...flags, flag] : flags };
}

export const isFiltered = (filter: QueueFilter) => filter.status !== null || filter.platform !== null || filter.flags.length > 0;
