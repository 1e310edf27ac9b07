import type {
  AdminSubmission,
  AdminSubmissionPage,
  ApiAnswer,
  ClipperApplicationPage,
  PlaceholderStreamer,
  SystemMetrics,
} from '@clipit/web-api';
import type { AdminCampaign, AdminCampaignPage, CampaignStatus } from './campaign-view.js';
import { useInfiniteQuery, useQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useAdminSession } from './admin-context.js';
import { DEFAULT_QUEUE_FILTER, queueQuery, type QueueFilter } from './queue-filter.js';

export type AdminAppealPage = ApiAnswer<'/api/admin/appeals', 'get'>;
export type AdminAppeal = AdminAppealPage['appeals'][number];

/** The admin lists, keyed by their paths like every query of the site (spec 02 §7). */
export const SUBMISSIONS_KEY = ['/api/admin/submissions'] as const;
export const APPLICATIONS_KEY = ['/api/clipper-applications'] as const;
export const PLACEHOLDERS_KEY = ['/api/admin/placeholder-streamers'] as const;
/** Every campaigns list (one per status filter) starts with this key. */
export const CAMPAIGNS_KEY = ['/api/admin/campaigns'] as const;
export const SYSTEM_METRICS_KEY = ['/api/admin/system-metrics'] as const;
/** Clippers' appeals (ADR 0051), pending first. */
export const APPEALS_KEY = ['/api/admin/appeals'] as const;
export const ADMIN_KEYS = [SUBMISSIONS_KEY, APPLICATIONS_KEY, PLACEHOLDERS_KEY, CAMPAIGNS_KEY, SYSTEM_METRICS_KEY, APPEALS_KEY] as const;

/** What the public remote shows of moderated clips (its query keys): refreshed after every moderation. */
export const FEED_CLIPS_KEY = ['/api/feed/clips'] as const;
export const LEADERBOARD_POSTS_KEY = ['/api/leaderboard/posts'] as const;

/** Spec 02 §7, §9: every admin list is refetched every 30 s once unlocked. */
export const ADMIN_REFETCH_MS = 30_000;
export const PAGE_SIZE = 20;

const pageUrl = (path: string, cursor: string | null) =>
  `${path}?limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

/**
 * GET /api/admin/submissions: the moderation queue as `filter` picks it (pending first unless a status is
 * picked), a page at a time (Load more); one cached list per filter, all under SUBMISSIONS_KEY.
 */
export function useSubmissions(filter: QueueFilter = DEFAULT_QUEUE_FILTER) {
  const { request } = useAdminSession();
  const query = queueQuery(filter);
  return useInfiniteQuery({
    queryKey: [SUBMISSIONS_KEY[0], query] as const,
    queryFn: ({ pageParam }) => request<AdminSubmissionPage>('GET', `${pageUrl(SUBMISSIONS_KEY[0], pageParam)}${query}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: ADMIN_REFETCH_MS,
  });
}

/** GET /api/clipper-applications (admin bearer), a page at a time. */
export function useApplications() {
  const { request } = useAdminSession();
  return useInfiniteQuery({
    queryKey: APPLICATIONS_KEY,
    queryFn: ({ pageParam }) => request<ClipperApplicationPage>('GET', pageUrl(APPLICATIONS_KEY[0], pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: ADMIN_REFETCH_MS,
  });
}

/** GET /api/admin/appeals: pending first, then oldest first, a page at a time (ADR 0051). */
export function useAppeals() {
  const { request } = useAdminSession();
  return useInfiniteQuery({
    queryKey: APPEALS_KEY,
    queryFn: ({ pageParam }) => request<AdminAppealPage>('GET', pageUrl(APPEALS_KEY[0], pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: ADMIN_REFETCH_MS,
  });
}

/** GET /api/admin/placeholder-streamers, newest first. */
export function usePlaceholders() {
  const { request } = useAdminSession();
  return useQuery({
    queryKey: PLACEHOLDERS_KEY,
    queryFn: () => request<PlaceholderStreamer[]>('GET', PLACEHOLDERS_KEY[0]),
    refetchInterval: ADMIN_REFETCH_MS,
  });
}

/** GET /api/admin/campaigns (admin bearer), newest first, a page at a time, optionally of one status. */
export function useCampaigns(status: CampaignStatus | null = null) {
  const { request } = useAdminSession();
  return useInfiniteQuery({
    queryKey: [CAMPAIGNS_KEY[0], status ?? 'all'] as const,
    queryFn: ({ pageParam }) =>
      request<AdminCampaignPage>('GET', `${pageUrl(CAMPAIGNS_KEY[0], pageParam)}${status ? `&status=${encodeURIComponent(status)}` : ''}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: ADMIN_REFETCH_MS,
  });
}

/** GET /api/admin/system-metrics: the latest sample of the platform's health with each metric's 24 hours. */
export function useSystemMetrics() {
  const { request } = useAdminSession();
  return useQuery({
    queryKey: SYSTEM_METRICS_KEY,
    queryFn: () => request<SystemMetrics>('GET', SYSTEM_METRICS_KEY[0]),
    refetchInterval: ADMIN_REFETCH_MS,
  });
}

/** Puts a reviewed campaign's new state into every loaded campaigns list at once (the refetch confirms it). */
export function replaceCampaign(queryClient: QueryClient, updated: AdminCampaign): void {
  queryClient.setQueriesData<InfiniteData<AdminCampaignPage, string | null>>({ queryKey: CAMPAIGNS_KEY }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({ ...page, campaigns: page.campaigns.map((c) => (c.id === updated.id ? updated : c)) })),
        }
      : data,
  );
}

/** Puts a moderated submission's new state into the loaded pages of every filter at once (the refetch confirms it). */
export function replaceSubmission(queryClient: QueryClient, updated: AdminSubmission): void {
  queryClient.setQueriesData<InfiniteData<AdminSubmissionPage, string | null>>({ queryKey: SUBMISSIONS_KEY }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({ ...page, submissions: page.submissions.map((s) => (s.id === updated.id ? updated : s)) })),
        }
      : data,
  );
}

/** After a moderation: the admin list, and the feed and leaderboard of the public remote. */
export async function refreshAfterModeration(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [SUBMISSIONS_KEY, FEED_CLIPS_KEY, LEADERBOARD_POSTS_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
