import { metricOnce, metricsRegistry } from '@clipit/service-kit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter } from 'prom-client';
import { currentUserAnswer } from '../users/current-user-answer.js';
import type { SessionCache } from '../auth/session-cache.js';
import { answerAtFront } from '../feed/fast-path.js';
import { feedRoutes } from '../feed/feed.routes.js';
import type { FeedPageJson } from '../feed/feed.schemas.js';
import type { PersonalPages } from '../feed/personal-pages.js';
import type { CachedRead, PublicReadCache } from '../feed/read-cache.js';
import type { DashboardCache } from '../rewards/dashboard-cache.js';
import { rewardsRoutes } from '../rewards/rewards.routes.js';
import { usersRoutes } from '../users/users.routes.js';
import type { FrontHandler } from '../http/front-door.js';
import type { EncodableJson } from '../http/json-compression.js';
import { hasPendingWrites } from '../http/pending-writes.js';
import { cookieOf } from '../http/request-cookies.js';
import type { RequestLog } from '../http/request-log.js';
import { SESSION_COOKIE } from '../http/session-cookie.js';

const signedInFrontAnswers = metricOnce(
  'gateway_signed_in_front_answers_total',
  () =>
    new Counter({
      name: 'gateway_signed_in_front_answers_total',
      help: 'Signed-in reads answered from the session cache and the per-user caches before the HTTP framework',
      labelNames: ['route'],
      registers: [metricsRegistry],
    }),
);

export interface SignedInFrontDeps {
  sessions: SessionCache;
  reads: PublicReadCache;
  pages: PersonalPages;
  dashboards: DashboardCache;
  requestLog: RequestLog;
}

/**
 * The front of signed-in reads (ADR 0045): a GET whose session cookie names a session in this replica's
 * session cache is answered before Fastify and Nest when what it reads is cached too:
 * - `/api/user/me`, `/api/auth/user`: the cached user's JSON (made once per cached user);
 * - `/api/dashboard`: the user's cached dashboard (DashboardCache);
 * - a feed page URL the route has already checked: the shared cached page with the reader's likes laid
 *   over it (PersonalPages).
 * The public reads that are the same for everyone (profiles, creators) are answered by publicReadFront
 * whatever the cookie. Answers are the route's (answerAtFront: same headers, ETag and 304, `private,
 * no-cache`, request log and histogram). Anything else goes on to Fastify: no cookie, a session not in
 * the cache (the route resolves it and fills the cache), a session whose renewed cookie is still to be
 * sent (the route sends it), a miss, a body, or a request waiting for its own write (hasPendingWrites),
 * which is never answered here.
 */
export function signedInFront(deps: SignedInFrontDeps): FrontHandler {
  const { sessions, reads, pages, dashboards, requestLog } = deps;
  const userPaths = new Set([usersRoutes.me.path, usersRoutes.authUser.path]);
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const headers = req.headers;
    if (req.method !== 'GET' || headers.cookie === undefined) return false;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const sid = cookieOf(headers, SESSION_COOKIE);
    if (!sid || hasPendingWrites(req)) return false;
    const session = sessions.get(sid);
    // A session identity has just extended goes to the route once, which re-issues its cookie.
    if (!session || sessions.renewalPending(sid)) return false;
    const url = req.url!;
    let route: string;
    let answer: EncodableJson | undefined;
    if (userPaths.has(url)) {
      route = url;
      answer = currentUserAnswer(session.user);
    } else if (url === rewardsRoutes.dashboard.path) {
      route = url;
      answer = dashboards.peek(session.user.id);
    } else {
      const alias = reads.aliasOf(url);
      if (alias?.route !== feedRoutes.clips.path) return false;
      route = alias.route;
      const page = reads.peek(alias.key) as CachedRead<FeedPageJson> | undefined;
      // An empty page is the shared answer itself (the route sends it so too).
      if (page) answer = page.value.submissions.length === 0 ? page : pages.peek(session.user.id, alias.key, page);
    }
    if (!answer) return false;
    answerAtFront(req, res, answer, { shared: false, route, requestLog });
    signedInFrontAnswers.inc({ route });
    return true;
  };
}

/** Front handlers tried in order; the first that answers wins. */
export function frontChain(...handlers: FrontHandler[]): FrontHandler {
  return (req, res) => handlers.some((handle) => handle(req, res));
}
