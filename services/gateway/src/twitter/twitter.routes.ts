import type { EndpointDef } from '../http/endpoint.js';
import { limitExample } from '../http/limits.js';
import { OEMBED_MESSAGES as M } from './oembed.js';
import { oembedSchema } from './twitter.schemas.js';

export const twitterRoutes = {
  oembed: {
    method: 'GET',
    path: '/api/twitter/oembed',
    tag: 'feed',
    summary: 'X’s embed of a post (its oEmbed answer), for the leaderboard’s post preview; cached by post',
    query: { url: 'The post’s link: https://x.com/{handle}/status/{id} (or twitter.com, www., mobile.), URL-encoded' },
    response: oembedSchema,
    errors: [
      { status: 400, description: `'${M.missingUrl}', '${M.invalidUrl}': only X/Twitter status links are looked up` },
      {
        status: 404,
        description: `'${M.notFound}': X has no public post with that id (deleted, suspended or protected); kept for OEMBED_NOT_FOUND_TTL_SECONDS`,
      },
      {
        status: 429,
        description: `'${limitExample('oembed')}': too many lookups that reached X from this address (OEMBED_LIMIT_PER_IP per OEMBED_LIMIT_WINDOW_SECONDS); Retry-After gives the seconds to wait`,
      },
      {
        status: 502,
        description: `'${M.unavailable}': X did not answer in time or answered with an error (not cached: the next request asks again)`,
      },
    ],
  },
} satisfies Record<string, EndpointDef>;
