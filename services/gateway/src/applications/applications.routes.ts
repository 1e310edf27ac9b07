import { CLIPPER_APPLICATION_MESSAGES as M } from '@clipit/field-rules';
import type { EndpointDef } from '../http/endpoint.js';
import { CROSS_SITE_REFUSED, SERVICE_UNAVAILABLE } from '../http/messages.js';
import { applicationReceivedSchema, submitApplicationBody } from './applications.schemas.js';
import { limitExample } from '../http/limits.js';

export const applicationRoutes = {
  submit: {
    method: 'POST',
    path: '/api/clipper-applications',
    limit: 'clipper-applications',
    tag: 'campaigns',
    summary: 'Apply to clip for CLIP IT (no account needed): stored as pending for the admins’ Job Applications tab',
    status: 201,
    body: submitApplicationBody,
    response: applicationReceivedSchema,
    errors: [
      {
        status: 400,
        description: `The first broken rule in form order: '${M.fullNameShort}', '${M.email}', '${M.experienceShort}', '${M.whyJoinShort}', '${M.availabilityHigh}', …, or 'Unknown field: …'`,
      },
      { status: 403, description: CROSS_SITE_REFUSED },
      { status: 409, description: `'${M.alreadyPending}'` },
      {
        status: 429,
        description: `'${limitExample('clipper-applications')}': too many applications from this address (APPLICATION_LIMIT_PER_IP per APPLICATION_LIMIT_WINDOW_SECONDS); Retry-After gives the seconds to wait`,
      },
      { status: 503, description: `'${SERVICE_UNAVAILABLE}': the campaigns service or the limiter is away` },
    ],
  },
} satisfies Record<string, EndpointDef>;
