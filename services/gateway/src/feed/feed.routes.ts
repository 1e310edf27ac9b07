import type { EndpointDef } from '../http/endpoint.js';
import { SERVICE_UNAVAILABLE } from '../http/messages.js';
import {
  clipperProfileSchema,
  creatorsSchema,
  featuredClippersSchema,
  feedPageSchema,
  leaderboardPostsSchema,
  leaderboardStatsSchema,
  leaderboardUsersSchema,
  taggedVideosSchema,
  topStreamersSchema,
} from './feed.schemas.js';

// The public reads, each answered from the feed service's read models through the gateway's read
// cache (ETag, 304; dropped when the feed applies an event). The words are the feed service's
// (services/feed/src/domain/messages.ts), as the reference lists them.
const UNAVAILABLE = { status: 503, description: `'${SERVICE_UNAVAILABLE}': the feed service is away (and nothing is cached)` } as const;
const INVALID_CURSOR = { status: 400, description: "'Invalid cursor'" } as const;
const limit = (fallback: number, max: number) => `How many (default ${fallback}, at most ${max})`;

export const feedRoutes = {
  clips: {
    method: 'GET',
    publicRead: { query: ['limit', 'cursor'], visitorOnly: true },
    path: '/api/feed/clips',
    tag: 'feed',
    summary: 'The clip feed: approved clips in the feed with a playable video, newest first',
    query: { limit: limit(10, 50), cursor: 'The nextCursor of the page before (opaque)' },
    response: feedPageSchema,
    errors: [INVALID_CURSOR, UNAVAILABLE],
  },
  leaderboardPosts: {
    method: 'GET',
    publicRead: { query: ['limit'] },
    path: '/api/leaderboard/posts',
    tag: 'leaderboard',
    summary: 'Approved posts: those with an uploaded video first, then by views, most first',
    query: { limit: limit(50, 100) },
    response: leaderboardPostsSchema,
    errors: [UNAVAILABLE],
  },
  leaderboardUsers: {
    method: 'GET',
    publicRead: { query: ['limit'] },
    path: '/api/leaderboard/users',
    tag: 'leaderboard',
    summary: 'Clippers with an approved post by total views, with their share of all views',
    query: { limit: limit(50, 100) },
    response: leaderboardUsersSchema,
    errors: [UNAVAILABLE],
  },
  leaderboardStats: {
    method: 'GET',
    publicRead: { query: [] },
    path: '/api/leaderboard/stats',
    tag: 'leaderboard',
    summary: 'The leaderboard stats card: approved posts, clippers with an approved post, all their views',
    response: leaderboardStatsSchema,
    errors: [UNAVAILABLE],
  },
  featuredClippers: {
    method: 'GET',
    publicRead: { query: ['limit'] },
    path: '/api/featured-clippers',
    tag: 'feed',
    summary: 'Goated clippers: the clippers with the most approved clips (ADR 0022)',
    query: { limit: limit(10, 50) },
    response: featuredClippersSchema,
    errors: [UNAVAILABLE],
  },
  topStreamers: {
    method: 'GET',
    publicRead: { query: ['limit'] },
    path: '/api/top-streamers',
    tag: 'feed',
    summary: 'Top streamers: the streamers with the most followers (ADR 0022)',
    query: { limit: limit(10, 50) },
    response: topStreamersSchema,
    errors: [UNAVAILABLE],
  },
  creators: {
    method: 'GET',
    publicRead: { query: [] },
    path: '/api/creators/:tab',
    tag: 'feed',
    summary: 'Every clipper or streamer with their figures (the discover page)',
    params: { tab: 'clippers or streamers' },
    response: creatorsSchema,
    errors: [{ status: 400, description: "'Tab must be clippers or streamers'" }, UNAVAILABLE],
  },
  clipperProfile: {
    method: 'GET',
    publicRead: { query: ['limit', 'cursor'] },
    path: '/api/clipper/:userId',
    tag: 'feed',
    summary: 'A public profile: the person, their figures and their approved clips, newest first',
    params: { userId: 'The user’s id (uuid)' },
    query: { limit: limit(24, 100), cursor: 'The nextCursor of the page before (opaque)' },
    response: clipperProfileSchema,
    errors: [INVALID_CURSOR, { status: 404, description: "'Clipper not found'" }, UNAVAILABLE],
  },
  taggedVideos: {
    method: 'GET',
    publicRead: { query: ['limit', 'cursor'], visitorOnly: true },
    path: '/api/tagged-videos/:userId',
    tag: 'feed',
    summary: 'Clips tagged with a streamer, a page with the total: approved ones, and every status when the streamer asks',
    params: { userId: 'The streamer’s id (uuid)' },
    query: { limit: limit(50, 100), cursor: 'The nextCursor of the page before (opaque)' },
    response: taggedVideosSchema,
    errors: [
      { status: 400, description: "'Invalid user id', 'Invalid cursor'" },
      { status: 404, description: "'User not found': no user has this id" },
      UNAVAILABLE,
    ],
  },
} satisfies Record<string, EndpointDef>;
