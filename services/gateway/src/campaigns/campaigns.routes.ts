import { CAMPAIGN_MESSAGES as C, HIRE_MESSAGES as H, HIRE_RATING_MESSAGES as R } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN, SERVICE_UNAVAILABLE } from '../http/messages.js';
import { PAGE_QUERY_DOCS } from '../http/paging.js';
import { limitExample } from '../http/limits.js';
import {
  campaignsPageSchema,
  campaignSubmittedSchema,
  hiringProfileSchema,
  hireRatedSchema,
  hireRatingBody,
  hireRequestBody,
  hireSentSchema,
  hireSchema,
  hiresPageSchema,
  respondToHireBody,
  submitCampaignBody,
  updateClipperProfileBody,
} from './campaigns.schemas.js';

const SIGNED_IN = { status: 401, description: `'${NOT_SIGNED_IN}'` } as const;
const CROSS_SITE = { status: 403, description: CROSS_SITE_REFUSED } as const;
const UNAVAILABLE = { status: 503, description: `'${SERVICE_UNAVAILABLE}': the campaigns service is away` } as const;
const BAD_CURSOR = { status: 400, description: "'Invalid cursor'" } as const;

const respond = (action: 'accept' | 'decline' | 'complete', summary: string): EndpointDef => ({
  method: 'POST',
  path: `/api/hires/:hireId/${action}`,
  tag: 'campaigns',
  summary,
  session: true,
  params: { hireId: 'The hire request’s id (uuid)' },
  body: respondToHireBody,
  response: hireSchema,
  errors: [
    { status: 400, description: "'Invalid hire request id', 'Notes is too long' or 'Unknown field: …'" },
    SIGNED_IN,
    { status: 403, description: `'You can only answer your own hire requests', or ${CROSS_SITE_REFUSED}` },
    { status: 404, description: "'Hire request not found'" },
    {
      status: 409,
      description:
        action === 'complete' ? "'Only an accepted hire request can be completed'" : "'This hire request has already been answered'",
    },
    UNAVAILABLE,
  ],
});

export const campaignRoutes = {
  submitCampaign: {
    method: 'POST',
    path: '/api/cpm-campaigns',
    tag: 'campaigns',
    summary:
      'A streamer submits a CPM campaign ($5 per 1,000 views, at least 100,000 views; ADR 0027): stored as pending for the team to review within 24 hours',
    session: true,
    status: 201,
    body: submitCampaignBody,
    response: campaignSubmittedSchema,
    errors: [
      {
        status: 400,
        description: `The first broken rule in form order: '${C.titleRequired}', '${C.titleShort}', '${C.descriptionShort}', '${C.targetViewsMin}', '${C.budgetMin}', 'Budget must match the views at $5 per 1,000 views: …', '${C.contentLinkInvalid}', …, or 'Unknown field: …'`,
      },
      SIGNED_IN,
      { status: 403, description: `'${C.streamersOnly}', or ${CROSS_SITE_REFUSED}` },
      UNAVAILABLE,
    ],
  },
  myCampaigns: {
    method: 'GET',
    path: '/api/cpm-campaigns',
    tag: 'campaigns',
    summary: 'The signed-in streamer’s own campaigns, newest first, with status and delivered views',
    session: true,
    query: PAGE_QUERY_DOCS,
    response: campaignsPageSchema,
    errors: [BAD_CURSOR, SIGNED_IN, UNAVAILABLE],
  },
  clipperProfile: {
    method: 'GET',
    path: '/api/clippers/:clipperId/profile',
    tag: 'campaigns',
    summary: 'A clipper’s hiring profile (the hire dialog): name, image, rating, total hires, availability, points tier, services',
    params: { clipperId: 'The clipper’s user id (uuid)' },
    response: hiringProfileSchema,
    errors: [
      { status: 400, description: "'Invalid clipper id'" },
      { status: 404, description: "'Clipper not found': the id is no user's, or not a clipper's" },
      UNAVAILABLE,
    ],
  },
  updateClipperProfile: {
    method: 'PATCH',
    path: '/api/clipper-profile',
    tag: 'campaigns',
    summary:
      'The signed-in clipper edits their hiring profile: bio, portfolio, specialties, experience, rate, availability, social links, services (a list sent replaces the old one)',
    session: true,
    body: updateClipperProfileBody,
    response: hiringProfileSchema,
    errors: [
      {
        status: 400,
        description:
          "The first broken rule: 'Bio is too long', 'Portfolio links must be http(s) URLs', 'At most 10 services', …, or 'Unknown field: …'",
      },
      SIGNED_IN,
      CROSS_SITE,
      { status: 404, description: "'Clipper not found': only clippers have a hiring profile" },
      UNAVAILABLE,
    ],
  },
  hire: {
    method: 'POST',
    path: '/api/clippers/:clipperId/hire',
    limit: 'hire-requests',
    tag: 'campaigns',
    summary: 'Ask a gold clipper for work (spec 02 §2.7; no account needed, ADR 0027): stored as pending and the clipper is told',
    status: 201,
    params: { clipperId: 'The clipper’s user id (uuid)' },
    body: hireRequestBody,
    response: hireSentSchema,
    errors: [
      {
        status: 400,
        description: `The first broken rule in form order: '${H.clientNameShort}', '${H.clientEmail}', '${H.projectDescriptionShort}', '${H.budgetPositive}', '${H.contactInfoRequired}', …, '${H.self}', 'clipperId does not match the path', or 'Unknown field: …'`,
      },
      { status: 403, description: `'${H.notGold}', or ${CROSS_SITE_REFUSED}` },
      { status: 404, description: "'Clipper not found': the id is no user's, or not a clipper's" },
      { status: 409, description: `'${H.unavailable}'` },
      {
        status: 429,
        description: `'${limitExample('hire-requests')}': too many hire requests from this address (HIRE_LIMIT_PER_IP per HIRE_LIMIT_WINDOW_SECONDS); Retry-After gives the seconds to wait`,
      },
      { status: 503, description: `'${SERVICE_UNAVAILABLE}': the campaigns service or the limiter is away` },
    ],
  },
  myHires: {
    method: 'GET',
    path: '/api/hires',
    tag: 'campaigns',
    summary: 'The hire requests the signed-in clipper received, newest first (?status=pending|accepted|declined|completed)',
    session: true,
    query: { ...PAGE_QUERY_DOCS, status: 'Only requests in this status' },
    response: hiresPageSchema,
    errors: [{ status: 400, description: "'Invalid cursor' or 'Invalid status'" }, SIGNED_IN, UNAVAILABLE],
  },
  acceptHire: respond('accept', 'The hired clipper accepts a pending request'),
  declineHire: respond('decline', 'The hired clipper declines a pending request'),
  completeHire: respond('complete', 'The hired clipper marks an accepted request delivered: it counts in their total hires'),
  rateHire: {
    method: 'POST',
    path: '/api/clipper-hires/:hireId/rating',
    tag: 'campaigns',
    summary:
      'The client rates a completed hire once, with the ratingToken the request’s answer carried (no account needed, ADR 0040): the clipper’s average rating and review count follow',
    params: { hireId: 'The hire request’s id (uuid)' },
    body: hireRatingBody,
    response: hireRatedSchema,
    errors: [
      {
        status: 400,
        description: `'${R.ratingRange}', '${R.reviewTooLong}', '${R.tokenRequired}', 'Invalid hire request id' or 'Unknown field: …'`,
      },
      { status: 403, description: `'${R.wrongToken}', or ${CROSS_SITE_REFUSED}` },
      { status: 404, description: "'Hire request not found'" },
      { status: 409, description: `'${R.alreadyRated}' or '${R.notCompleted}'` },
      UNAVAILABLE,
    ],
  },
} satisfies Record<string, EndpointDef>;
