import { STREAM_TIME_MESSAGES } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN, SERVICE_UNAVAILABLE } from '../http/messages.js';
import {
  followChangeSchema,
  followerCountSchema,
  followersPageSchema,
  followStateSchema,
  goLiveSchema,
  likeStateSchema,
  liveStreamersSchema,
  streamStateSchema,
  streamTimeBody,
} from './social.schemas.js';

// The words the social service answers with (services/social/src/domain/messages.ts), as the reference lists them.
const USER_NOT_FOUND = { status: 404, description: "'User not found'" } as const;
const INVALID_USER_ID = { status: 400, description: "'Invalid user id'" } as const;
const SIGNED_IN = { status: 401, description: `'${NOT_SIGNED_IN}'` } as const;
const CROSS_SITE = { status: 403, description: CROSS_SITE_REFUSED } as const;
const UNAVAILABLE = { status: 503, description: `'${SERVICE_UNAVAILABLE}': the social service is away` } as const;
// A route naming a user: social confirms with identity an id its people read model has not heard of (ADR 0037).
const USER_UNAVAILABLE = {
  status: 503,
  description: `${UNAVAILABLE.description}; 'This user cannot be looked up right now; please try again in a minute': an id social has not heard of while identity is away`,
} as const;
const userParam = { userId: 'The user’s id (uuid)' };
const clipParam = { clipId: 'The clip’s (approved submission’s) id' };
const LIKE_ERRORS = [
  SIGNED_IN,
  CROSS_SITE,
  { status: 404, description: "'Clip not found': no such clip" },
  {
    status: 409,
    description:
      "'This clip is not in the feed, so it cannot be liked': the feed does not list it (not approved, not added, or its video not playable yet); unlike still takes back a like on such a clip",
  },
  UNAVAILABLE,
] as const;

export const socialRoutes = {
  followState: {
    method: 'GET',
    path: '/api/following/:userId',
    tag: 'social',
    summary: 'Whether the signed-in user follows this user (false when not signed in)',
    params: userParam,
    response: followStateSchema,
    errors: [INVALID_USER_ID, USER_NOT_FOUND, USER_UNAVAILABLE],
  },
  follow: {
    method: 'POST',
    path: '/api/follow/:userId',
    tag: 'social',
    summary: 'Follow a streamer; following again changes nothing',
    session: true,
    params: userParam,
    response: followChangeSchema,
    errors: [
      { status: 400, description: "'You cannot follow yourself', 'Only streamers can be followed', 'Invalid user id'" },
      SIGNED_IN,
      CROSS_SITE,
      USER_NOT_FOUND,
      USER_UNAVAILABLE,
    ],
  },
  unfollow: {
    method: 'POST',
    path: '/api/unfollow/:userId',
    tag: 'social',
    summary: 'Stop following a user; unfollowing again changes nothing',
    session: true,
    params: userParam,
    response: followChangeSchema,
    errors: [
      { status: 400, description: "'You cannot follow yourself', 'Invalid user id'" },
      SIGNED_IN,
      CROSS_SITE,
      USER_NOT_FOUND,
      USER_UNAVAILABLE,
    ],
  },
  followerCount: {
    method: 'GET',
    path: '/api/followers/:userId',
    tag: 'social',
    summary: 'How many people follow this user',
    params: userParam,
    response: followerCountSchema,
    errors: [INVALID_USER_ID, USER_NOT_FOUND, USER_UNAVAILABLE],
  },
  followersList: {
    method: 'GET',
    path: '/api/followers/list/:userId',
    tag: 'social',
    summary: 'This user’s followers, newest first, a page at a time',
    params: userParam,
    query: { cursor: 'The nextCursor of the page before', limit: 'Followers per page: default 50, at most 200' },
    response: followersPageSchema,
    errors: [{ status: 400, description: "'Invalid user id', 'Invalid cursor'" }, USER_NOT_FOUND, USER_UNAVAILABLE],
  },
  liveFollowed: {
    method: 'GET',
    path: '/api/followers/live',
    tag: 'social',
    summary: 'The streamers the signed-in user follows who are live now (the live notifications poll this every 30 s)',
    session: true,
    response: liveStreamersSchema,
    errors: [SIGNED_IN, UNAVAILABLE],
  },
  liveStream: {
    method: 'GET',
    path: '/api/live/stream',
    tag: 'social',
    summary: 'Server-sent events: followed streamers going live or offline, as they happen',
    session: true,
    successContentType: 'text/event-stream',
    successDescription:
      'An event stream. `snapshot` (data: the LiveStreamers list) opens a stream that has no Last-Event-ID, or whose Last-Event-ID is older than what can be replayed; ' +
      '`live` (data: a LiveStreamer) when a followed streamer goes live; `offline` (data: `{"id": …}`) when one goes offline. ' +
      '`live` and `offline` carry an id: a browser reconnecting with Last-Event-ID gets the ones it missed. A comment line every LIVE_HEARTBEAT_SECONDS; ' +
      'the server ends the stream after LIVE_STREAM_MAX_SECONDS and `retry` tells the browser when to come back.',
    query: { lastEventId: 'Same as the Last-Event-ID header, for clients that cannot set it' },
    errors: [
      SIGNED_IN,
      { status: 429, description: "'Too many live connections for this account; close a tab and try again'" },
      UNAVAILABLE,
    ],
  },
  like: {
    method: 'POST',
    path: '/api/feed/clips/:clipId/like',
    tag: 'social',
    summary: 'Like a clip in the feed; liking again changes nothing',
    session: true,
    params: clipParam,
    response: likeStateSchema,
    errors: LIKE_ERRORS,
  },
  unlike: {
    method: 'DELETE',
    path: '/api/feed/clips/:clipId/like',
    tag: 'social',
    summary: 'Take back a like; again changes nothing',
    session: true,
    params: clipParam,
    response: likeStateSchema,
    errors: LIKE_ERRORS,
  },
  streamTime: {
    method: 'PATCH',
    path: '/api/users/stream-time',
    tag: 'social',
    summary: 'Set (or, with null, clear) the signed-in streamer’s next stream time',
    session: true,
    body: streamTimeBody,
    response: streamStateSchema,
    errors: [
      {
        status: 400,
        description: `'${STREAM_TIME_MESSAGES.invalid}', '${STREAM_TIME_MESSAGES.past}', '${STREAM_TIME_MESSAGES.tooFar}', 'Unknown field: …'`,
      },
      SIGNED_IN,
      { status: 403, description: `'Only streamers can set a stream time'; ${CROSS_SITE_REFUSED}` },
      { status: 413, description: 'Request body is too large' },
      { status: 415, description: 'Unsupported content type' },
      UNAVAILABLE,
    ],
  },
  goLive: {
    method: 'POST',
    path: '/api/users/go-live',
    tag: 'social',
    summary: 'Go live: followers are told (notifiedFollowers; 0 when already live, nobody is told twice)',
    session: true,
    response: goLiveSchema,
    errors: [SIGNED_IN, { status: 403, description: `'Only streamers can go live'; ${CROSS_SITE_REFUSED}` }, UNAVAILABLE],
  },
  goOffline: {
    method: 'POST',
    path: '/api/users/go-offline',
    tag: 'social',
    summary: 'Go offline; offline already changes nothing',
    session: true,
    response: streamStateSchema,
    errors: [SIGNED_IN, { status: 403, description: `'Only streamers can go offline'; ${CROSS_SITE_REFUSED}` }, UNAVAILABLE],
  },
} satisfies Record<string, EndpointDef>;
