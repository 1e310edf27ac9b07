import { status } from '@grpc/grpc-js';
import { DomainError } from '@clipit/service-kit';
import { createTestService, rejectedWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import { OTHER_USER_ID, submission, SUBMISSION_ID, USER_ID } from '../../test/support/unit-fixtures.js';
import { messages } from '../domain/messages.js';
import { MetricsRepository } from '../repositories/metrics.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { MetricsHistoryService, TAGGED_HISTORY_POINTS } from './metrics-history.service.js';

// Who reads a clip's view history, with the repositories auto-mocked: its owner or an admin (GetMetricsHistory),
// and the streamer it is tagged with (GetTaggedViewHistories, issue 37). The tag itself is matched in SQL:
// the integration tests show another streamer's read finds nothing.

const STREAMER_ID = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
const OTHER_ID = '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e';
const read = (iso: string, views: number) => ({ fetchedAt: new Date(iso), views, likes: 1, retweets: 2, replies: 3 });
const stored = (iso: string, views: number) => ({
  submissionId: SUBMISSION_ID,
  ...read(iso, views),
  quotes: 0,
  bookmarks: 0,
  videoViews: null,
});

function setup() {
  const { service, mock } = createTestService(MetricsHistoryService);
  return { service, metrics: mock(MetricsRepository), repo: mock(SubmissionRepository) };
}

describe('MetricsHistoryService.get', () => {
  it('answers the owner and an admin, and anyone else as for an unknown id', async () => {
    const f = setup();
    f.metrics.latestHistory.mockResolvedValue([stored('2026-11-24T11:00:00Z', 20), stored('2026-11-24T10:00:00Z', 10)]);
    f.repo.findById.mockResolvedValue(submission());
    const mine = await f.service.get({ submissionId: SUBMISSION_ID, userId: USER_ID, isAdmin: false });
    expect(mine.points.map((p) => p.views)).toEqual([10, 20]);
    expect((await f.service.get({ submissionId: SUBMISSION_ID, userId: OTHER_USER_ID, isAdmin: true })).submissionId).toBe(SUBMISSION_ID);
    const err = await rejectedWith(f.service.get({ submissionId: SUBMISSION_ID, userId: OTHER_USER_ID, isAdmin: false }), DomainError);
    expect([err.code, err.message]).toEqual([status.NOT_FOUND, messages.submissionNotFound]);
  });
});

describe('MetricsHistoryService.tagged', () => {
  it('asks for the streamer’s tagged clips only, each once, and answers their histories oldest first in the order asked', async () => {
    const f = setup();
    f.metrics.latestTaggedHistories.mockResolvedValue([
      { submissionId: OTHER_ID, read: null },
      { submissionId: SUBMISSION_ID, read: read('2026-11-24T11:00:00Z', 20) },
      { submissionId: SUBMISSION_ID, read: read('2026-11-24T10:00:00Z', 10) },
    ]);
    const unknown = '9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f';
    const answer = await f.service.tagged({
      streamerId: STREAMER_ID.toUpperCase(),
      submissionIds: [SUBMISSION_ID, unknown, OTHER_ID.toUpperCase(), SUBMISSION_ID],
    });
    expect(f.metrics.latestTaggedHistories).toHaveBeenCalledWith(STREAMER_ID, [SUBMISSION_ID, unknown, OTHER_ID], TAGGED_HISTORY_POINTS);
    // The id the repository did not answer (not tagged with this streamer, or no submission) is left out.
    expect(answer).toEqual({
      histories: [
        {
          submissionId: SUBMISSION_ID,
          points: [
            { at: '2026-11-24T10:00:00.000Z', views: 10, likes: 1, retweets: 2, replies: 3 },
            { at: '2026-11-24T11:00:00.000Z', views: 20, likes: 1, retweets: 2, replies: 3 },
          ],
        },
        { submissionId: OTHER_ID, points: [] },
      ],
    });
  });

  it('refuses a streamer id that is no id and more than 100 clips at once, reading nothing', async () => {
    const f = setup();
    const bad = await rejectedWith(f.service.tagged({ streamerId: 'someone', submissionIds: [SUBMISSION_ID] }), DomainError);
    expect([bad.code, bad.message]).toEqual([status.INVALID_ARGUMENT, messages.invalidStreamerId]);
    const ids = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const many = await rejectedWith(f.service.tagged({ streamerId: STREAMER_ID, submissionIds: ids }), DomainError);
    expect([many.code, many.message]).toEqual([status.INVALID_ARGUMENT, 'At most 100 submissions at once']);
    expect(f.metrics.latestTaggedHistories).not.toHaveBeenCalled();
  });
});
