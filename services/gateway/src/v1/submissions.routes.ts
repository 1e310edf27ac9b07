import type { EndpointDef } from '../http/endpoint.js';
import { v1SubmissionPageSchema, v1SubmissionViewsSchema } from './submissions.schemas.js';
import { v1Errors } from './v1-errors.js';
import { V1_PAGE_ERRORS, V1_PAGE_QUERY_DOCS } from './v1-paging.js';

export const INVALID_SUBMISSION_ID = 'Invalid submission id';

/** A clipper's own submissions and their view histories, for programs (ADR 0053): scope submissions:read. */
export const v1SubmissionRoutes = {
  list: {
    method: 'GET',
    path: '/api/v1/submissions',
    tag: 'submissions',
    summary: "The key owner's own submissions, newest first, with their status, reason and checks",
    apiKey: 'submissions:read',
    limit: 'api-key',
    query: V1_PAGE_QUERY_DOCS,
    response: v1SubmissionPageSchema,
    errors: v1Errors('submissions:read', [{ status: 400, description: V1_PAGE_ERRORS }]),
  },
  views: {
    method: 'GET',
    path: '/api/v1/submissions/:id/views',
    tag: 'submissions',
    summary:
      "One of the key owner's submissions: its post's counts as X last gave them and its view history (the latest 500 reads, oldest first)",
    apiKey: 'submissions:read',
    limit: 'api-key',
    params: { id: 'The submission id (uuid)' },
    response: v1SubmissionViewsSchema,
    errors: v1Errors('submissions:read', [
      { status: 400, description: `'${INVALID_SUBMISSION_ID}'` },
      { status: 404, description: "'Submission not found': unknown, or not yours (its existence is not revealed)" },
    ]),
  },
} satisfies Record<string, EndpointDef>;
