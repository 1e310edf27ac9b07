import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN, SERVICE_UNAVAILABLE } from '../http/messages.js';
import { clipperStatsSchema, dashboardSchema, earningsPageSchema, payoutsPageSchema, tiersSchema } from './rewards.schemas.js';

// The words the rewards service answers with (services/rewards/src/domain/messages.ts).
const SIGNED_IN = { status: 401, description: `'${NOT_SIGNED_IN}'` } as const;
const CROSS_SITE = { status: 403, description: CROSS_SITE_REFUSED } as const;
const UNAVAILABLE = { status: 503, description: `'${SERVICE_UNAVAILABLE}': the rewards service is away` } as const;
const PAGE_QUERY = { cursor: 'The nextCursor of the page before', limit: 'Per page: default 20, at most 100' };

export const rewardsRoutes = {
  dashboard: {
    method: 'GET',
    path: '/api/dashboard',
    tag: 'rewards',
    summary:
      'The signed-in clipper’s dashboard: tier and progress, metrics, earnings summary, recent submissions (spec 02 §3 Dashboard response)',
    session: true,
    response: dashboardSchema,
    errors: [SIGNED_IN, UNAVAILABLE],
  },
  clipperStats: {
    method: 'GET',
    path: '/api/clipper/stats/:userId',
    tag: 'rewards',
    summary:
      'A clipper’s clip points, points tier, rank among all clippers and the breakdown (as last computed); a user with no clips yet is bronze with no points',
    params: { userId: 'The clipper’s user id (uuid)' },
    response: clipperStatsSchema,
    errors: [
      { status: 400, description: "'Invalid user id'" },
      { status: 404, description: "'User not found': the id is no user" },
      {
        status: 503,
        description: `'${SERVICE_UNAVAILABLE}': the rewards service is away; 'This user cannot be looked up right now; please try again in a minute': an id rewards has not heard of while identity is away`,
      },
    ],
  },
  refreshPoints: {
    method: 'POST',
    path: '/api/clipper/refresh-points',
    tag: 'rewards',
    summary: 'Recompute the signed-in clipper’s points and tiers now; answers the new stats (points is what “Updated to N points” shows)',
    session: true,
    response: clipperStatsSchema,
    errors: [SIGNED_IN, CROSS_SITE, UNAVAILABLE],
  },
  earnings: {
    method: 'GET',
    path: '/api/earnings',
    tag: 'rewards',
    summary: 'The signed-in clipper’s earnings, one per approved clip, newest first',
    session: true,
    query: PAGE_QUERY,
    response: earningsPageSchema,
    errors: [{ status: 400, description: "'Invalid cursor'" }, SIGNED_IN, UNAVAILABLE],
  },
  myPayouts: {
    method: 'GET',
    path: '/api/earnings/payouts',
    tag: 'rewards',
    summary: 'The signed-in clipper’s paid payouts, newest first, each with its transaction signature',
    session: true,
    query: PAGE_QUERY,
    response: payoutsPageSchema,
    errors: [{ status: 400, description: "'Invalid cursor'" }, SIGNED_IN, UNAVAILABLE],
  },
  payouts: {
    method: 'GET',
    path: '/api/payouts',
    tag: 'rewards',
    summary: 'The public payout ledger: every paid payout (period, wallet, amount, signature), newest first, to check against the chain',
    query: PAGE_QUERY,
    response: payoutsPageSchema,
    errors: [{ status: 400, description: "'Invalid cursor'" }, UNAVAILABLE],
  },
  tiers: {
    method: 'GET',
    path: '/api/tiers',
    tag: 'rewards',
    summary: 'The tiers with their requirements and rate per approved clip (data: changed without a deploy)',
    response: tiersSchema,
    errors: [UNAVAILABLE],
  },
} satisfies Record<string, EndpointDef>;
