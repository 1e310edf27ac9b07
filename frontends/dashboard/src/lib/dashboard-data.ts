// What the clipper dashboard reads and writes (spec 02 §3, §7), typed by the gateway's generated API.
import { abbreviateNumber } from '@clipit/ui';
import { currentUserKey, type ApiAnswer } from '@clipit/web-api';
import type { QueryClient } from '@tanstack/react-query';

export type Dashboard = ApiAnswer<'/api/dashboard', 'get'>;
export type RecentSubmission = Dashboard['recentSubmissions'][number];
export type ClipperStats = ApiAnswer<'/api/clipper/stats/{userId}', 'get'>;
export type EarningsPage = ApiAnswer<'/api/earnings', 'get'>;
export type Earning = EarningsPage['earnings'][number];
export type PayoutsPage = ApiAnswer<'/api/earnings/payouts', 'get'>;
export type Payout = PayoutsPage['payouts'][number];
/** The clipper's own submissions in full: unlike the dashboard's recent ones, with the guide's checks. */
export type MySubmissions = ApiAnswer<'/api/submissions', 'get'>;
export type GuideCheckList = NonNullable<MySubmissions[number]['guideChecks']>;

/** Query keys: the default query function GETs the joined key (['/api/clipper/stats', id] → /api/clipper/stats/<id>). */
export const dashboardKey = ['/api/dashboard'] as const;
export const clipperStatsKey = (userId: string) => ['/api/clipper/stats', userId] as const;
/** The first page of each list (the gateway's default page size). */
export const earningsKey = ['/api/earnings'] as const;
export const payoutsKey = ['/api/earnings/payouts'] as const;
/** The key the public remote's submission form (the Submit New Clip tab) follows its video with: one cache for both. */
export const mySubmissionsKey = ['/api/submissions'] as const;

/**
 * After a profile change (spec 02 §7): the dashboard, the signed-in user (the header and the frame
 * read it) and the clipper's public profile show the new name and images.
 */
export async function refreshAfterProfileChange(queryClient: QueryClient, userId: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: dashboardKey }),
    queryClient.invalidateQueries({ queryKey: currentUserKey }),
    queryClient.invalidateQueries({ queryKey: ['/api/clipper', userId], exact: true }),
    queryClient.invalidateQueries({ queryKey: ['/api/featured-clippers'] }),
  ]);
}

/** '10 $CLIP', '12.5 $CLIP': amounts of the token, up to its six decimals, grouped. */
export function formatClip(amount: number): string {
  return `${amount.toLocaleString('en-US', { maximumFractionDigits: 6 })} $CLIP`;
}

/** A count as the spec shows counts: abbreviated from 1,000 (K) and 1,000,000 (M), one decimal. */
export const formatCount = abbreviateNumber;

/** 'twitter' → 'Twitter/X'; other platforms capitalised. */
export function platformLabel(platform: string): string {
  const lower = platform.toLowerCase();
  if (lower === 'twitter' || lower === 'x') return 'Twitter/X';
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
