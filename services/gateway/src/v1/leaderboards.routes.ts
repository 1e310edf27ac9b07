import type { EndpointDef } from '../http/endpoint.js';
import { v1ClipperRankPageSchema, v1ClipRankPageSchema } from './leaderboards.schemas.js';
import { v1Errors } from './v1-errors.js';
import { V1_PAGE_ERRORS, V1_PAGE_QUERY_DOCS } from './v1-paging.js';

const pageErrors = [{ status: 400, description: V1_PAGE_ERRORS }];

/** The public leaderboards, for programs (ADR 0053): scope leaderboards:read. */
export const v1LeaderboardRoutes = {
  clippers: {
    method: 'GET',
    path: '/api/v1/leaderboards/clippers',
    tag: 'leaderboards',
    summary:
      "Clippers with an approved clip, ranked by their approved clips' views, with their share of all views (the first 10,000 ranks)",
    apiKey: 'leaderboards:read',
    limit: 'api-key',
    query: V1_PAGE_QUERY_DOCS,
    response: v1ClipperRankPageSchema,
    errors: v1Errors('leaderboards:read', pageErrors),
  },
  clips: {
    method: 'GET',
    path: '/api/v1/leaderboards/clips',
    tag: 'leaderboards',
    summary: 'Approved clips, those with an uploaded video first, then by views (the first 10,000 ranks)',
    apiKey: 'leaderboards:read',
    limit: 'api-key',
    query: V1_PAGE_QUERY_DOCS,
    response: v1ClipRankPageSchema,
    errors: v1Errors('leaderboards:read', pageErrors),
  },
} satisfies Record<string, EndpointDef>;
