// The feed's data (spec 01 §2 Feed, §7, §9): cursor pages of 10 clips from GET /api/feed/clips, and
// where each like the server answered is written back.
import { apiJson, type ApiAnswer } from '@clipit/web-api';
import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';

export type FeedPage = ApiAnswer<'/api/feed/clips', 'get'>;
export type FeedClip = FeedPage['submissions'][number];
export type LikeState = ApiAnswer<'/api/feed/clips/{clipId}/like', 'post'>;

/** Spec 01 §9: the feed's page size. */
export const FEED_PAGE_SIZE = 10;

// The home preview reads the same path with limit=5: the limit in the key keeps the two apart, and
// the add-clip dialog's invalidation of ['/api/feed/clips'] still reaches both.
export const feedQueryKey = ['/api/feed/clips', { limit: FEED_PAGE_SIZE }] as const;

export function feedPageUrl(cursor: string | null): string {
  return `/api/feed/clips?limit=${FEED_PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
}

let early: Promise<FeedPage> | null = null;

/**
 * Asks for the first page as soon as the screen's code arrives on a visit to /feed, rather than once the
 * shell has rendered the screen: the first poster, the page's largest paint, waits on this answer. The
 * feed's first query takes it (once); any later read calls again.
 */
export function requestFirstPageEarly(): void {
  if (typeof window === 'undefined' || window.location.pathname !== '/feed' || early) return;
  early = apiJson<FeedPage>('GET', feedPageUrl(null));
  // The first poster starts downloading with the answer, while the page is still being rendered. Its
  // reader handles a failure; until it has one, the failure is not an unhandled rejection.
  early.then(
    (page) => {
      const poster = page.submissions[0]?.videoThumbnailUrl;
      if (!poster) return;
      const image = new Image();
      image.setAttribute('fetchpriority', 'high');
      image.src = poster;
    },
    () => undefined,
  );
}

/** One page: the early first page if there is one, else a call. */
export function readFeedPage(cursor: string | null): Promise<FeedPage> {
  const answer = cursor === null ? early : null;
  early = null;
  return answer ?? apiJson<FeedPage>('GET', feedPageUrl(cursor));
}

export function useFeedClips() {
  return useInfiniteQuery({
    queryKey: feedQueryKey,
    queryFn: ({ pageParam }) => readFeedPage(pageParam),
    initialPageParam: null as string | null,
    // null on the last page: no further page.
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** The clips of every page loaded so far, each once (a clip published between two pages must not repeat). */
export function clipsOf(data: InfiniteData<FeedPage> | undefined): FeedClip[] {
  const seen = new Set<string>();
  const clips: FeedClip[] = [];
  for (const page of data?.pages ?? []) {
    for (const clip of page.submissions) {
      if (seen.has(clip.id)) continue;
      seen.add(clip.id);
      clips.push(clip);
    }
  }
  return clips;
}

/**
 * Writes the like the server answered into the loaded pages, then marks them stale without refetching:
 * the feed's read model hears of the like a moment later, so reading it again right now could answer
 * the old count and undo the change on screen. The next visit reads it again.
 */
export function applyLikeState(queryClient: QueryClient, clipId: string, state: LikeState): void {
  queryClient.setQueryData<InfiniteData<FeedPage>>(feedQueryKey, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            submissions: page.submissions.map((clip) =>
              clip.id === clipId ? { ...clip, likeCount: state.likeCount, likedByCurrentUser: state.likedByCurrentUser } : clip,
            ),
          })),
        }
      : data,
  );
  void queryClient.invalidateQueries({ queryKey: feedQueryKey, refetchType: 'none' });
}
