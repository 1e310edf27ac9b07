import type { EndpointDef } from '../http/endpoint.js';
import { v1CampaignClipPageSchema, v1CampaignPageSchema } from './campaigns.schemas.js';
import { v1Errors } from './v1-errors.js';
import { V1_PAGE_ERRORS, V1_PAGE_QUERY_DOCS } from './v1-paging.js';

export const INVALID_CAMPAIGN_ID = 'Invalid campaign id';

/** A streamer's CPM campaigns and the clips they count, for programs (ADR 0053): scope campaigns:read. */
export const v1CampaignRoutes = {
  list: {
    method: 'GET',
    path: '/api/v1/campaigns',
    tag: 'campaigns',
    summary: "The key owner's CPM campaigns (as a streamer), newest first, with their delivered and verified views",
    apiKey: 'campaigns:read',
    limit: 'api-key',
    query: V1_PAGE_QUERY_DOCS,
    response: v1CampaignPageSchema,
    errors: v1Errors('campaigns:read', [{ status: 400, description: V1_PAGE_ERRORS }]),
  },
  clips: {
    method: 'GET',
    path: '/api/v1/campaigns/:id/clips',
    tag: 'campaigns',
    summary:
      "The clips one of the key owner's campaigns counts, the latest approval first, each with its post's view history (its latest 100 reads)",
    apiKey: 'campaigns:read',
    limit: 'api-key',
    params: { id: 'The campaign id (uuid)' },
    query: V1_PAGE_QUERY_DOCS,
    response: v1CampaignClipPageSchema,
    errors: v1Errors('campaigns:read', [
      { status: 400, description: `'${INVALID_CAMPAIGN_ID}', ${V1_PAGE_ERRORS}` },
      { status: 404, description: "'Campaign not found': unknown, or not yours (its existence is not revealed)" },
    ]),
  },
} satisfies Record<string, EndpointDef>;
