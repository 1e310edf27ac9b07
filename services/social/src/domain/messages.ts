// The words social answers with when it refuses: the gateway passes them to the person as they are.

export const messages = {
  userNotFound: 'User not found',
  clipNotFound: 'Clip not found',
  /** A clip social knows of that the feed does not list (not approved, not added, or its video not playable yet). */
  clipNotInFeed: 'This clip is not in the feed, so it cannot be liked',
  followSelf: 'You cannot follow yourself',
  followStreamersOnly: 'Only streamers can be followed',
  streamTimeStreamersOnly: 'Only streamers can set a stream time',
  goLiveStreamersOnly: 'Only streamers can go live',
  goOfflineStreamersOnly: 'Only streamers can go offline',
  invalidUserId: 'Invalid user id',
  invalidClipId: 'Invalid clip id',
  invalidCursor: 'Invalid cursor',
  tooManyIds: 'Too many user ids',
} as const;
