import type { identityV1, submissionsV1 } from '@clipit/contracts';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import type { SessionPrincipal } from '../auth/session.strategy.js';
import { SUBMISSIONS_CLIENT, type SubmissionsClient } from '../clients.js';
import { SubmissionsController } from './submissions.controller.js';
import { metricsHistorySchema } from './submissions.schemas.js';

// GET /api/submissions/:id/metrics-history as the gateway handles it: the id checked here, who asks
// (owner or admin) passed to the owner of the rule, and the answer in the API's shape. Signed-out
// callers never get here (SessionGuard; http.int.spec lists the route); ownership is the service's.

const SUBMISSION_ID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
const session = (role: string): SessionPrincipal => ({ sid: 's'.repeat(20), user: { id: 'u-1', role } as identityV1.User });

function setup() {
  const client = automock<SubmissionsClient>('SubmissionsClient', ['getMetricsHistory']);
  const { service } = createTestService(SubmissionsController, { [SUBMISSIONS_CLIENT]: client });
  return { controller: service, client };
}

// gRPC int64 arrives as a string (the loader's `longs: String`).
const answer = {
  submissionId: SUBMISSION_ID,
  views: '1200',
  likes: '30',
  retweets: '4',
  replies: '2',
  quoteCount: '1',
  bookmarkCount: '5',
  verificationCode: 'CLIP-7KQ2MX',
  verifiedAt: '2026-11-24T10:30:00.000Z',
  lastMetricsFetch: '2026-11-24T10:30:00.000Z',
  points: [{ at: '2026-11-24T10:00:00.000Z', views: '900', likes: '20', retweets: '3', replies: '1' }],
} as unknown as submissionsV1.GetMetricsHistoryResponse;

describe('GET /api/submissions/:id/metrics-history', () => {
  it('asks as the signed-in user, an admin as an admin, and answers numbers and nulls in the documented shape', async () => {
    const { controller, client } = setup();
    client.getMetricsHistory.mockResolvedValue(answer);
    const json = await controller.metricsHistory(session('clipper'), SUBMISSION_ID.toUpperCase());
    expect(client.getMetricsHistory).toHaveBeenCalledWith({ submissionId: SUBMISSION_ID, userId: 'u-1', isAdmin: false });
    expect(json).toEqual({
      submissionId: SUBMISSION_ID,
      views: 1200,
      likes: 30,
      retweets: 4,
      replies: 2,
      quoteCount: 1,
      bookmarkCount: 5,
      verificationCode: 'CLIP-7KQ2MX',
      verifiedAt: '2026-11-24T10:30:00.000Z',
      lastMetricsFetch: '2026-11-24T10:30:00.000Z',
      publishedAt: null,
      points: [{ at: '2026-11-24T10:00:00.000Z', views: 900, likes: 20, retweets: 3, replies: 1 }],
    });
    expect(metricsHistorySchema.parse(json)).toEqual(json);

    await controller.metricsHistory(session('admin'), SUBMISSION_ID);
    expect(client.getMetricsHistory).toHaveBeenLastCalledWith({ submissionId: SUBMISSION_ID, userId: 'u-1', isAdmin: true });
  });

  it('refuses an id that is not a uuid with 400 before calling the service', async () => {
    const { controller, client } = setup();
    const err = await rejectedWith(controller.metricsHistory(session('clipper'), 'not-an-id'), BadRequestException);
    expect(err.message).toBe('Invalid submission id');
    expect(client.getMetricsHistory).not.toHaveBeenCalled();
  });
});
