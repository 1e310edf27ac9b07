import { CONFIG, LOGGER } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import { AT, config, silentLogger, SUBMISSION_ID, upload } from '../../test/support/unit-fixtures.js';
import type { SubmissionsConfig } from '../config.js';
import { MEDIA_QUEUE, type MediaQueuePort } from '../ports.js';
import { FingerprintRepository } from '../repositories/fingerprint.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { MediaReconcilerService } from './media-reconciler.service.js';

// The backstop for verdicts that never arrived: which videos it looks at, what it asks of the queue,
// and that one video's trouble does not stop the round.

const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];

function setup() {
  const queue = {
    enqueue: jest.fn<MediaQueuePort['enqueue']>(),
    redrive: jest.fn<MediaQueuePort['redrive']>(),
    redriveFingerprint: jest.fn<MediaQueuePort['redriveFingerprint']>(),
    close: jest.fn<MediaQueuePort['close']>(),
  };
  const { service, mock } = createTestService(MediaReconcilerService, {
    [CONFIG]: { ...config, MEDIA_PROCESSING_STALE_SECONDS: 600 } as SubmissionsConfig,
    [LOGGER]: silentLogger,
    [MEDIA_QUEUE]: queue,
  });
  const fingerprints = mock(FingerprintRepository);
  fingerprints.findUnfingerprinted.mockResolvedValue([]);
  return { service, repo: mock(SubmissionRepository), fingerprints, queue };
}

describe('MediaReconcilerService', () => {
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  it('re-drives each video processing since before the bound, counting those that needed it', async () => {
    f.repo.findStaleProcessingUploads.mockResolvedValue(
      ids.map((id) => upload({ id, status: 'processing', storageKey: `uploads/${id}`, contentType: 'video/webm', finalizedAt: AT })),
    );
    f.queue.redrive
      .mockResolvedValueOnce({ action: 'retried', state: 'failed' })
      .mockResolvedValueOnce({ action: 'left', state: 'delayed' })
      .mockResolvedValueOnce({ action: 'added', state: 'missing' });

    const now = new Date(AT.getTime() + 3600_000);
    expect(await f.service.reconcile(now, 50)).toBe(2);
    expect(f.repo.findStaleProcessingUploads).toHaveBeenCalledWith(new Date(now.getTime() - 600_000), 50);
    expect(f.queue.redrive.mock.calls.map(([job]) => job)).toEqual(
      ids.map((id) => ({ videoId: id, submissionId: SUBMISSION_ID, sourceKey: `uploads/${id}`, contentType: 'video/webm' })),
    );
  });

  it('goes on with the next video when the queue refuses one (Redis down): the next round tries it again', async () => {
    f.repo.findStaleProcessingUploads.mockResolvedValue(ids.slice(0, 2).map((id) => upload({ id, status: 'processing' })));
    f.queue.redrive.mockRejectedValueOnce(new Error('Connection is closed.')).mockResolvedValueOnce({ action: 'added', state: 'missing' });
    expect(await f.service.reconcile(AT)).toBe(1);
    expect(f.queue.redrive).toHaveBeenCalledTimes(2);
  });

  it("re-drives the fingerprint job of each ready video whose fingerprint has not come, with the served video's key", async () => {
    f.repo.findStaleProcessingUploads.mockResolvedValue([]);
    f.fingerprints.findUnfingerprinted.mockResolvedValue(ids.slice(0, 2).map((videoId) => ({ videoId, submissionId: SUBMISSION_ID })));
    f.queue.redriveFingerprint
      .mockResolvedValueOnce({ action: 'added', state: 'missing' })
      .mockResolvedValueOnce({ action: 'left', state: 'prioritized' });
    const now = new Date(AT.getTime() + 3600_000);
    expect(await f.service.reconcile(now, 50)).toBe(1);
    expect(f.fingerprints.findUnfingerprinted).toHaveBeenCalledWith(new Date(now.getTime() - 600_000), 50);
    expect(f.queue.redriveFingerprint.mock.calls.map(([job]) => job)).toEqual(
      ids.slice(0, 2).map((videoId) => ({ videoId, submissionId: SUBMISSION_ID, videoKey: `videos/${videoId}/video.mp4` })),
    );
  });
});
