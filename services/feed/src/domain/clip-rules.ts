import type { SubmissionSnapshot } from '@clipit/contracts';

// Whether a clip is in the feed is @clipit/contracts' isInFeed, the rule social applies to likes too.

/** The streamer a clip is tagged with: named directly, else the owner of the tagged token (once known). */
export function taggedStreamerOf(s: Pick<SubmissionSnapshot, 'streamerId' | 'tokenId'>, tokenStreamerId: string | null): string | null {
  if (s.streamerId) return s.streamerId;
  return s.tokenId ? tokenStreamerId : null;
}

/** A video uploaded and not settled yet (spec 01 §3 isProcessing). */
export function isProcessing(videoState: string): boolean {
  return videoState === 'awaiting-upload' || videoState === 'processing';
}

/** Share of all views, as a percent with two decimals; 0 when nothing has views (never NaN). */
export function mindshare(views: number, allViews: number): number {
  if (!(allViews > 0) || !(views > 0)) return 0;
  return Math.round((views / allViews) * 10_000) / 100;
}

/** Average views per approved clip, rounded to a whole view; 0 without approved clips. */
export function averageViews(totalViews: number, approvedClips: number): number {
  return approvedClips > 0 ? Math.round(totalViews / approvedClips) : 0;
}

/** The creators tabs of the discover page. */
export const CREATOR_TABS = { clippers: 'clipper', streamers: 'streamer' } as const;
export type CreatorTab = keyof typeof CREATOR_TABS;

export function isCreatorTab(tab: string): tab is CreatorTab {
  return Object.hasOwn(CREATOR_TABS, tab);
}
