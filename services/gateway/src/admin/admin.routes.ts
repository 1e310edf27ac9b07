import type { EndpointDef } from '../http/endpoint.js';
import { PAGE_QUERY_DOCS } from '../http/paging.js';
import { QUEUE_QUERY_DOCS } from './queue-query.js';
import { earningHoldSchema, holdDecisionBody } from './earning-holds.schemas.js';
import {
  adminCampaignPageSchema,
  adminCampaignSchema,
  adminSubmissionPageSchema,
  adminSubmissionSchema,
  adminTokenSchema,
  auditPageSchema,
  clipperApplicationPageSchema,
  createPlaceholderBody,
  emptyBody,
  placeholderStreamerListSchema,
  placeholderStreamerSchema,
  rejectBody,
  rejectCampaignBody,
  systemMetricsSchema,
  verifyPasswordBody,
} from './admin.schemas.js';

const ownerAway = (owner: string) => ({
  status: 503,
  description: `'The ${owner} service is unavailable right now. Please try again shortly.', or it did not answer in time`,
});
const id = { id: 'The submission id' };
const moderationErrors = [
  { status: 400, description: "'Rejection reason must be at most 500 characters', 'Unknown field: …'" },
  { status: 404, description: "'Submission not found'" },
  {
    status: 409,
    description:
      "A transition spec 02 §4 does not allow, e.g. 'Only a pending submission can be approved (this one is rejected)', 'This submission is already in the feed'",
  },
  ownerAway('submissions'),
] as const;

function moderation(action: string, summary: string): EndpointDef {
  return {
    method: 'POST',
    path: `/api/admin/submissions/:id/${action}`,
    tag: 'admin',
    summary,
    bearer: true,
    params: id,
    body: action === 'reject' ? rejectBody : emptyBody,
    response: adminSubmissionSchema,
    errors: moderationErrors,
  };
}

const campaignReviewErrors = (decision: 'approve' | 'reject') =>
  [
    {
      status: 400,
      description:
        decision === 'reject'
          ? "'Invalid campaign id', 'Rejection reason must be at most 500 characters', 'Unknown field: …'"
          : "'Invalid campaign id', 'Unknown field: …' (the body is an empty JSON object)",
    },
    { status: 404, description: "'Campaign not found'" },
    {
      status: 409,
      description:
        decision === 'approve'
          ? "The campaign is no longer pending (it was already reviewed), or 'This streamer already has a running campaign' (one approved campaign per streamer at a time, ADR 0027)"
          : 'The campaign is no longer pending (it was already reviewed)',
    },
    ownerAway('campaigns'),
  ] as const;

function campaignReview(decision: 'approve' | 'reject', summary: string): EndpointDef {
  return {
    method: 'POST',
    path: `/api/admin/campaigns/:id/${decision}`,
    tag: 'admin',
    summary,
    bearer: true,
    params: { id: 'The campaign id' },
    body: decision === 'reject' ? rejectCampaignBody : emptyBody,
    response: adminCampaignSchema,
    errors: campaignReviewErrors(decision),
  };
}

const earningHoldErrors = [
  { status: 400, description: "'Invalid earning id', 'A reason is required', 'Reason must be at most 500 characters', 'Unknown field: …'" },
  { status: 404, description: "'Earning not found'" },
  { status: 409, description: "'This earning is not held' (already released or voided, or never held)" },
  ownerAway('rewards'),
] as const;

function earningHold(decision: 'release' | 'void', summary: string): EndpointDef {
  return {
    method: 'POST',
    path: `/api/admin/earnings/:id/${decision}`,
    tag: 'admin',
    summary,
    bearer: true,
    params: { id: 'The earning id (the hold of an AdminSubmission)' },
    body: holdDecisionBody,
    response: earningHoldSchema,
    errors: earningHoldErrors,
  };
}

export const adminRoutes = {
  verifyPassword: {
    method: 'POST',
    path: '/api/admin/verify-password',
    tag: 'admin',
    summary:
      'Unlocks the admin area: the right password answers a short-lived admin token for the Authorization header of every admin call',
    body: verifyPasswordBody,
    response: adminTokenSchema,
    errors: [
      { status: 400, description: "'Password is required'" },
      { status: 401, description: "'Incorrect password'" },
      {
        status: 429,
        description:
          "'Too many attempts. Please wait a few minutes and try again.': too many attempts from this address (ADMIN_LOGIN_MAX_PER_IP per ADMIN_LOGIN_WINDOW_SECONDS); Retry-After gives the seconds to wait",
      },
      { status: 503, description: 'The admin service is unavailable' },
    ],
  },
  listSubmissions: {
    method: 'GET',
    path: '/api/admin/submissions',
    tag: 'admin',
    summary:
      'The moderation queue: the submissions the filter picks, pending ones first unless a status is asked for, then newest first (50 a page unless asked, at most 200; send the same filter with the cursor), with the clipper, the processed video and poster, the upload checks, matches, view risk and hold, and the header figures',
    bearer: true,
    query: { ...PAGE_QUERY_DOCS, ...QUEUE_QUERY_DOCS },
    response: adminSubmissionPageSchema,
    errors: [
      {
        status: 400,
        description:
          "'limit must be a whole number from 1 to 200', 'Invalid cursor', 'status must be one of: pending, approved, rejected', 'platform must be one of: twitter, instagram, tiktok, other', 'flags must be among: matched, risky, failed-checks', '<name> must be given once, as a short text'",
      },
      ownerAway('submissions'),
    ],
  },
  approve: moderation('approve', 'Approves a pending submission (it stays out of the feed)'),
  approveAndAddToFeed: moderation('approve-and-add-to-feed', 'Approves a pending submission and adds it to the feed in one step'),
  reject: moderation('reject', 'Rejects a pending submission; the optional reason (at most 500 characters) is shown to the clipper'),
  addToFeed: moderation('add-to-feed', 'Adds an approved, hidden submission to the feed'),
  removeFromFeed: moderation('remove-from-feed', 'Takes an approved submission out of the feed (it stays approved)'),
  listPlaceholders: {
    method: 'GET',
    path: '/api/admin/placeholder-streamers',
    tag: 'admin',
    summary: 'Placeholder streamer profiles, newest first, with their claim codes and who claimed them',
    bearer: true,
    response: placeholderStreamerListSchema,
    errors: [ownerAway('identity')],
  },
  createPlaceholder: {
    method: 'POST',
    path: '/api/admin/placeholder-streamers',
    tag: 'admin',
    summary: 'Creates a placeholder streamer profile a streamer later claims at sign-up with its claim code',
    bearer: true,
    status: 201,
    body: createPlaceholderBody,
    response: placeholderStreamerSchema,
    errors: [
      {
        status: 400,
        description:
          "'Display name is required', 'Twitter username is required', 'Streamer multiplier must be a number from 1.00 to 2.00 in steps of 0.01', an image URL that is not one, …",
      },
      { status: 409, description: 'The handle belongs to an account or another unclaimed placeholder' },
      ownerAway('identity'),
    ],
  },
  listApplications: {
    method: 'GET',
    path: '/api/clipper-applications',
    tag: 'admin',
    summary: 'Clipper job applications, newest first (50 a page unless asked, at most 200); admins only',
    bearer: true,
    query: PAGE_QUERY_DOCS,
    response: clipperApplicationPageSchema,
    errors: [{ status: 400, description: "'limit must be a whole number from 1 to 200', 'Invalid cursor'" }, ownerAway('campaigns')],
  },
  listCampaigns: {
    method: 'GET',
    path: '/api/admin/campaigns',
    tag: 'admin',
    summary:
      'CPM campaigns (ADR 0027), newest first (50 a page unless asked, at most 200), optionally of one status, with the streamer, delivered views and progressPercent',
    bearer: true,
    query: { ...PAGE_QUERY_DOCS, status: 'Only campaigns in this status: pending, approved, rejected or completed' },
    response: adminCampaignPageSchema,
    errors: [
      { status: 400, description: "'limit must be a whole number from 1 to 200', 'Invalid cursor', 'Invalid status'" },
      ownerAway('campaigns'),
    ],
  },
  approveCampaign: campaignReview(
    'approve',
    'Approves a pending campaign: it starts running and its delivered views start counting. Audited',
  ),
  rejectCampaign: campaignReview(
    'reject',
    'Rejects a pending campaign; the optional reason (at most 500 characters) is shown to the streamer. Audited',
  ),
  releaseEarning: earningHold(
    'release',
    "Releases a flagged clip's held earning with the reason (required, at most 500 characters): pending again, paid by the next payout run (ADR 0050). Audited",
  ),
  voidEarning: earningHold(
    'void',
    "Voids a flagged clip's held earning with the reason (required, at most 500 characters), shown to the clipper: it is never paid (ADR 0050). Audited",
  ),
  audit: {
    method: 'GET',
    path: '/api/admin/audit',
    tag: 'admin',
    summary: 'The audit log: every admin password attempt and admin action, newest first (50 a page unless asked, at most 200)',
    bearer: true,
    query: PAGE_QUERY_DOCS,
    response: auditPageSchema,
    errors: [{ status: 400, description: "'limit must be a whole number from 1 to 200', 'Invalid cursor'" }],
  },
  systemMetrics: {
    method: 'GET',
    path: '/api/admin/system-metrics',
    tag: 'admin',
    summary:
      "The platform's health as the admin service samples it every minute (spec 02 §3 system_metrics): every service's readiness, the media and metrics queue depths, the dead-lettered events and each event consumer's lag, each with its status against its threshold and its last 24 hours",
    bearer: true,
    response: systemMetricsSchema,
    errors: [{ status: 503, description: 'The admin service is unavailable' }],
  },
} satisfies Record<string, EndpointDef>;
