// The leaderboard's rules (spec 01 §2 Leaderboard, §3, §7): the order of the posts, what a post's
// preview shows, where its embed thumbnail comes from, and how mindshare reads.
import type { ApiAnswer } from '@clipit/web-api';

export type LeaderboardPost = ApiAnswer<'/api/leaderboard/posts', 'get'>[number];
export type LeaderboardUser = ApiAnswer<'/api/leaderboard/users', 'get'>[number];
export type LeaderboardStats = ApiAnswer<'/api/leaderboard/stats', 'get'>;

/** How many posts are highlighted, and how many creators stand on the podium. */
export const TOP_COUNT = 3;

/**
 * Posts with an uploaded video first, then by views, most first. The gateway sorts the same way, but the
 * page does not rely on it; the sort is stable, so ties keep the gateway's order.
 */
export function rankPosts(posts: readonly LeaderboardPost[]): LeaderboardPost[] {
  const withVideo = (post: LeaderboardPost) => (post.hasVideo === 'true' ? 1 : 0);
  return [...posts].sort((a, b) => withVideo(b) - withVideo(a) || b.views - a.views);
}

export type PreviewKind = 'video' | 'thumbnail' | 'upload-failed' | 'view-on-x';

/**
 * What a post's preview shows: its uploaded video; else the thumbnail of its X embed once one is
 * known; else, for a post flagged as uploading that has no video, that the upload failed; else a link
 * to the post on X.
 */
export function previewKind(post: Pick<LeaderboardPost, 'videoUrl' | 'isProcessing'>, thumbnail: string | null | undefined): PreviewKind {
  if (post.videoUrl) return 'video';
  if (thumbnail) return 'thumbnail';
  if (post.isProcessing) return 'upload-failed';
  return 'view-on-x';
}

/** The query key (a path, for the default query function) of a post's X embed. */
export function oembedKey(postUrl: string): [string] {
  return [`/api/twitter/oembed?url=${encodeURIComponent(postUrl)}`];
}

const IMG_SRC = /<img\b[^>]*?\bsrc\s*=\s*(["'])(.*?)\1/i;

/** Only an absolute https address is shown: the embed is someone else's HTML. */
function httpsUrl(value: string): string | null {
  try {
    const url = new URL(value.replace(/&amp;/g, '&'));
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The thumbnail in an oEmbed answer: its `thumbnail_url`, else the first image of its `html`; null when
 * there is none. The route's answer is not typed by the gateway yet, so anything is accepted and read
 * with care.
 */
export function embedThumbnail(answer: unknown): string | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const { thumbnail_url: thumbnail, html } = answer as Record<string, unknown>;
  if (typeof thumbnail === 'string') {
    const url = httpsUrl(thumbnail);
    if (url) return url;
  }
  if (typeof html !== 'string') return null;
  const src = IMG_SRC.exec(html)?.[2];
  return src ? httpsUrl(src) : null;
}

/** A mindshare percent (the gateway's two decimals at most): 33.33 → '33.33%', 50 → '50%'. */
export function formatMindshare(percent: number): string {
  return `${Number.isFinite(percent) ? Number(percent.toFixed(2)) : 0}%`;
}
