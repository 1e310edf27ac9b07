import { APPEAL_MESSAGES } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, NOT_SIGNED_IN } from '../http/messages.js';
import { PAGE_QUERY_DOCS } from '../http/paging.js';
import {
  adminAppealPageSchema,
  adminAppealSchema,
  appealPageSchema,
  appealSchema,
  decideAppealBody,
  fileAppealBody,
} from './appeals.schemas.js';

const submissionsAway = {
  status: 503,
  description: "'The submissions service is unavailable right now. Please try again shortly.', or it did not answer in time",
} as const;

/** Appeals of rejections and held earnings (ADR 0051): the clipper's two routes and the admin's two. */
export const appealRoutes = {
  file: {
    method: 'POST',
    path: '/api/submissions/:id/appeal',
    tag: 'submissions',
    summary:
      'Appeal the rejection of one of your clips, or the hold on its earning, once each: the text (trimmed, at most 1,000 characters) goes to the admins; answers the appeal, pending',
    params: { id: 'The submission id (uuid)' },
    session: true,
    status: 201,
    body: fileAppealBody,
    response: appealSchema,
    errors: [
      {
        status: 400,
        description: `'Invalid submission id', '${APPEAL_MESSAGES.textRequired}', '${APPEAL_MESSAGES.textTooLong}', '${APPEAL_MESSAGES.notAppealable}' (a pending clip, or an approved one whose earning is not held), 'Unknown field: …'`,
      },
      { status: 401, description: `'${NOT_SIGNED_IN}'` },
      { status: 403, description: CROSS_SITE_REFUSED },
      { status: 404, description: `'${APPEAL_MESSAGES.submissionNotFound}': unknown, or not yours (its existence is not revealed)` },
      { status: 409, description: `'${APPEAL_MESSAGES.alreadyAppealed}': this clip's rejection (or hold) was appealed before` },
      { status: 503, description: 'Service temporarily unavailable' },
    ],
  },
  listMine: {
    method: 'GET',
    path: '/api/appeals/mine',
    tag: 'submissions',
    summary:
      "The signed-in clipper's appeals, newest first (50 a page unless asked, at most 200), each with its clip and, once decided, the outcome and the admin's reason",
    session: true,
    query: PAGE_QUERY_DOCS,
    response: appealPageSchema,
    errors: [
      { status: 400, description: "'limit must be a whole number from 1 to 200', 'Invalid cursor'" },
      { status: 401, description: `'${NOT_SIGNED_IN}'` },
      { status: 503, description: 'Service temporarily unavailable' },
    ],
  },
  listForAdmin: {
    method: 'GET',
    path: '/api/admin/appeals',
    tag: 'admin',
    summary:
      "Clippers' appeals: pending first, then oldest first (50 a page unless asked, at most 200), each with the clip, the clipper's handle, the kind, the rejection reason or hold reasons and the clipper's text",
    bearer: true,
    query: PAGE_QUERY_DOCS,
    response: adminAppealPageSchema,
    errors: [{ status: 400, description: "'limit must be a whole number from 1 to 200', 'Invalid cursor'" }, submissionsAway],
  },
  decide: {
    method: 'POST',
    path: '/api/admin/appeals/:id/decide',
    tag: 'admin',
    summary:
      'Uphold or overturn a pending appeal with a reason (at most 500 characters): an overturned rejection approves the clip, an overturned hold releases the earning (paid by the next payout run); audited',
    bearer: true,
    params: { id: 'The appeal id (uuid)' },
    body: decideAppealBody,
    response: adminAppealSchema,
    errors: [
      {
        status: 400,
        description: `'Invalid appeal id', "${APPEAL_MESSAGES.badOutcome}", '${APPEAL_MESSAGES.reasonRequired}', '${APPEAL_MESSAGES.reasonTooLong}', 'Unknown field: …'`,
      },
      { status: 404, description: `'${APPEAL_MESSAGES.appealNotFound}'` },
      { status: 409, description: `'${APPEAL_MESSAGES.alreadyDecided}'` },
      submissionsAway,
    ],
  },
} satisfies Record<string, EndpointDef>;
