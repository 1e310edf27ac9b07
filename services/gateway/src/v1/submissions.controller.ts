import { Controller, Inject, Param, Query } from '@nestjs/common';
import { SUBMISSIONS_CLIENT, type SubmissionsClient } from '../clients.js';
import { CurrentApiKey } from '../http/api-key.guard.js';
import type { ApiKeyPrincipal } from '../http/api-key-authenticator.js';
import { Endpoint } from '../http/endpoint.js';
import { uuidParam } from '../http/path-params.js';
import { INVALID_SUBMISSION_ID, v1SubmissionRoutes } from './submissions.routes.js';
import { toV1Submission, toV1SubmissionViews, type V1Submission, type V1SubmissionViews } from './submissions.schemas.js';
import { ownerPage, type V1Page } from './v1-paging.js';

/** The key owner's own submissions and one's view history: submissions' answers for its owner. */
@Controller()
export class V1SubmissionsController {
  constructor(@Inject(SUBMISSIONS_CLIENT) private readonly submissions: SubmissionsClient) {}

  @Endpoint(v1SubmissionRoutes.list)
  async list(@CurrentApiKey() key: ApiKeyPrincipal, @Query() query: Record<string, unknown>): Promise<V1Page<V1Submission>> {
    const { submissions = [], nextCursor } = await this.submissions.listMySubmissions({ userId: key.userId, ...ownerPage(query) });
    return { items: submissions.map(toV1Submission), nextCursor: nextCursor ?? null };
  }

  /** Anyone's but the owner's answers as an unknown id does (submissions' rule). */
  @Endpoint(v1SubmissionRoutes.views)
  async views(@CurrentApiKey() key: ApiKeyPrincipal, @Param('id') id: string): Promise<V1SubmissionViews> {
    const submissionId = uuidParam(id, INVALID_SUBMISSION_ID);
    return toV1SubmissionViews(await this.submissions.getMetricsHistory({ submissionId, userId: key.userId, isAdmin: false }));
  }
}
