import { CONFIG, Outbox } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { AT, config, submission, tx, upload } from '../../test/support/unit-fixtures.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { VideoStateService } from './video-state.service.js';

// The one place a video's change is written: the upload always, the submission and its event only
// when the submission's own video changed.

function setup() {
  const { service, mock } = createTestService(VideoStateService, { [CONFIG]: config });
  const repo = mock(SubmissionRepository);
  const outbox = mock(Outbox);
  repo.saveUpload.mockResolvedValue(undefined);
  repo.save.mockResolvedValue(undefined);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, repo, outbox };
}

describe('VideoStateService', () => {
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  it('refuses the current video: upload and submission saved, submission.video-changed with the reason', async () => {
    const row = submission();
    const current = upload({ status: 'processing' }, row);
    await f.service.refuse(tx, row, current, 'File Too Large', AT);
    expect(current).toMatchObject({ status: 'rejected', reason: 'File Too Large', completedAt: AT });
    expect(row).toMatchObject({
      videoState: 'rejected',
      hasVideo: false,
      videoRejectedReason: 'File Too Large',
      muxStatus: 'errored',
      updatedAt: AT,
    });
    expect(f.repo.saveUpload).toHaveBeenCalledWith(tx, current);
    expect(f.repo.save).toHaveBeenCalledWith(tx, row);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'submission.video-changed', {
      submission: expect.objectContaining({ videoState: 'rejected', hasVideo: false }),
      reason: 'File Too Large',
    });
  });

  it('refuses a superseded upload: only the upload changes, and no event', async () => {
    const row = submission({ videoState: 'ready', videoId: '8f9e0d1c-2b3a-4c5d-9e6f-7a8b9c0d1e2f', hasVideo: true });
    const old = upload();
    await f.service.refuse(tx, row, old, 'Invalid Video', AT);
    expect(old.status).toBe('rejected');
    expect(row).toMatchObject({ videoState: 'ready', hasVideo: true });
    expect(f.repo.save).not.toHaveBeenCalled();
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('records a change with no reason by default', async () => {
    const row = submission();
    const current = upload({}, row);
    await f.service.record(tx, current, row);
    expect(f.outbox.append.mock.calls[0]![2]).toMatchObject({ reason: null });
  });
});
