/** The sentences feed answers with; the gateway passes them to the browser as they are. */
export const messages = {
  clipperNotFound: 'Clipper not found',
  invalidUserId: 'Invalid user id',
  invalidTab: 'Tab must be clippers or streamers',
  userNotFound: 'User not found',
  /** A leaderboard page asked to start past its deepest rank (LEADERBOARD_OFFSET_MAX). */
  invalidCursor: 'Invalid cursor',
} as const;

/** Page sizes: the feed (spec 01 §9: 10 a page), leaderboards and lists. */
export const limits = {
  feed: { fallback: 10, max: 50 },
  leaderboardPosts: { fallback: 50, max: 100 },
  leaderboardUsers: { fallback: 50, max: 100 },
  featuredClippers: { fallback: 10, max: 50 },
  topStreamers: { fallback: 10, max: 50 },
  profileClips: { fallback: 24, max: 100 },
  taggedVideos: { fallback: 50, max: 100 },
  likedAmong: 100,
} as const;
