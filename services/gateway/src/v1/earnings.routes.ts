import type { EndpointDef } from '../http/endpoint.js';
import { v1EarningPageSchema, v1PayoutPageSchema } from './earnings.schemas.js';
import { v1Errors } from './v1-errors.js';
import { V1_PAGE_ERRORS, V1_PAGE_QUERY_DOCS } from './v1-paging.js';

const pageErrors = [{ status: 400, description: V1_PAGE_ERRORS }];

/** A clipper's earnings and payouts, for programs (ADR 0053): scope submissions:read. */
export const v1EarningRoutes = {
  earnings: {
    method: 'GET',
    path: '/api/v1/earnings',
    tag: 'earnings',
    summary: "The key owner's earnings, newest first: pending, held (with why), voided or paid (with the transaction's signature)",
    apiKey: 'submissions:read',
    limit: 'api-key',
    query: V1_PAGE_QUERY_DOCS,
    response: v1EarningPageSchema,
    errors: v1Errors('submissions:read', pageErrors),
  },
  payouts: {
    method: 'GET',
    path: '/api/v1/payouts',
    tag: 'earnings',
    summary: "The key owner's payouts, the latest paid first, with their transactions' signatures",
    apiKey: 'submissions:read',
    limit: 'api-key',
    query: V1_PAGE_QUERY_DOCS,
    response: v1PayoutPageSchema,
    errors: v1Errors('submissions:read', pageErrors),
  },
} satisfies Record<string, EndpointDef>;
