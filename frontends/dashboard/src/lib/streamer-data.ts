// What the streamer dashboard reads and writes (spec 02 §2.3, §3, §7), typed by the gateway's generated API.
import { apiJson, currentUserKey, type ApiAnswer, type ApiRequestBody, type CurrentUser } from '@clipit/web-api';
import { useInfiniteQuery, type InfiniteData, type QueryClient, type UseInfiniteQueryResult } from '@tanstack/react-query';
import { dashboardKey } from './dashboard-data.js';

export type FollowerCount = ApiAnswer<'/api/followers/{userId}', 'get'>;
export type FollowersPage = ApiAnswer<'/api/followers/list/{userId}', 'get'>;
export type Follower = FollowersPage['followers'][number];
export type TaggedVideos = ApiAnswer<'/api/tagged-videos/{userId}', 'get'>;
export type TaggedVideo = TaggedVideos['videos'][number];
export type StreamState = ApiAnswer<'/api/users/stream-time', 'patch'>;
export type GoLiveResult = ApiAnswer<'/api/users/go-live', 'post'>;
export type StreamTimeRequest = ApiRequestBody<'/api/users/stream-time', 'patch'>;

/** Query keys: the default query function GETs the joined key (['/api/followers', id] → /api/followers/<id>). */
export const followerCountKey = (userId: string) => ['/api/followers', userId] as const;
/** The followers, a page at a time (the gateway's default page size: 50); the tagged videos' first page (50). */
export const followersListKey = (userId: string) => ['/api/followers/list', userId] as const;
export const taggedVideosKey = (userId: string) => ['/api/tagged-videos', userId] as const;
/** Every page the tagged-videos tab has loaded (under the first page's key: invalidating one invalidates both). */
export const taggedVideosPagesKey = (userId: string) => [...taggedVideosKey(userId), 'pages'] as const;
/** The tagged videos' path; later pages add the cursor of the page before ({@link useCursorPages}). */
export const taggedVideosPath = (userId: string) => `/api/tagged-videos/${encodeURIComponent(userId)}`;

/**
 * After a stream-time or live call (spec 02 §7): the signed-in user takes the state the call answered (the
 * summary card and the streaming tab read it), and the dashboard, the streamer's public profile and the
 * featured clippers are read again. /api/user/me is not read again: the social service owns the live state
 * and identity mirrors it a moment later (ADR 0021), so a read right now could answer the old one.
 */
export async function refreshAfterStreamChange(queryClient: QueryClient, userId: string, state: StreamState): Promise<void> {
  queryClient.setQueryData<CurrentUser | null>(currentUserKey, (user) =>
    user ? { ...user, isLive: state.isLive, nextStreamTime: state.nextStreamTime } : user,
  );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: dashboardKey }),
    queryClient.invalidateQueries({ queryKey: ['/api/clipper', userId], exact: true }),
    queryClient.invalidateQueries({ queryKey: ['/api/featured-clippers'] }),
  ]);
}

/** A list read a page at a time by the cursor each page answers (followers, tagged videos). */
export interface CursorPage {
  nextCursor: string | null;
}
export type CursorPages<P extends CursorPage> = UseInfiniteQueryResult<InfiniteData<P, string | null>>;
export type FollowerPages = CursorPages<FollowersPage>;

/**
 * Every page of a cursor-paged list: the first at the plain path (as the dashboard's first read), each
 * next one with the cursor the page before answered. `first`, when the screen has already read the first
 * page under another key, seeds it rather than reading it again.
 */
export function useCursorPages<P extends CursorPage>(
  queryKey: readonly unknown[],
  path: string,
  first?: { data: P | undefined; dataUpdatedAt: number; isSuccess: boolean },
): CursorPages<P> {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => apiJson<P>('GET', pageParam ? `${path}?cursor=${encodeURIComponent(pageParam)}` : path),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    ...(first
      ? {
          initialData: first.data ? { pages: [first.data], pageParams: [null] } : undefined,
          initialDataUpdatedAt: first.dataUpdatedAt,
          enabled: first.isSuccess,
        }
      : {}),
  });
}

/** A streamer's followers, newest first, a page at a time (spec 02 §2.3); every page carries the total. */
export const useFollowerPages = (userId: string): FollowerPages =>
  useCursorPages<FollowersPage>(followersListKey(userId), `/api/followers/list/${encodeURIComponent(userId)}`);

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a datetime-local input's value ('2026-11-20T15:07', local time); '' for none or an invalid one. */
export function toLocalInputValue(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A datetime-local input's value as the stream time sent (spec 02 §5): an ISO string (UTC) for the local
 * time written, null when the input is empty; undefined when it is not a time at all.
 */
export function streamTimeOf(value: string): string | null | undefined {
  if (value.trim() === '') return null;
  // 'yyyy-MM-ddTHH:mm' without a zone is local time to Date.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value.trim())) return undefined;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** 'N followers will be notified.' (spec 02 §8), in the singular for one. */
export function notifiedText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'follower' : 'followers'} will be notified.`;
}
