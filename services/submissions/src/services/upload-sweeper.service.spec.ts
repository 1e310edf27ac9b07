import { TransactionRunner } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { AT, runTransactions, submission, tx, upload } from '../../test/support/unit-fixtures.js';
import type { VideoUploadEntity } from '../entities/video-upload.entity.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { VideoStorageRepository } from '../repositories/video-storage.repository.js';
import { UploadSweeperService } from './upload-sweeper.service.js';

// The sweep of upload URLs that expired unused: each upload re-read under its lock before it is
// expired, and its object removed only once that is committed.

const LATER = new Date(AT.getTime() + 2 * 3600_000); // past the fixtures' expiry (AT + 1 h)
const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];

function setup() {
  const { service, mock } = createTestService(UploadSweeperService);
  const repo = mock(SubmissionRepository);
  const storage = mock(VideoStorageRepository);
  const transactions = runTransactions(mock(TransactionRunner));
  repo.saveUpload.mockResolvedValue(undefined);
  repo.save.mockResolvedValue(undefined);
  storage.discard.mockResolvedValue(undefined);
  return { service, transactions, repo, storage };
}

describe('UploadSweeperService', () => {
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  it('expires each waiting upload, frees the submission still waiting on it, and removes the objects afterwards', async () => {
    const rows = ids.map((id) => {
      const row = submission();
      return { submission: row, upload: upload({ id, storageKey: `uploads/${id}` }, row) };
    });
    f.repo.findExpiredUploadIds.mockResolvedValue(ids);
    for (const locked of rows) f.repo.lockUploadWithSubmission.mockResolvedValueOnce(locked);

    expect(await f.service.sweepExpiredUploads(LATER, 3)).toBe(3);
    expect(f.repo.findExpiredUploadIds).toHaveBeenCalledWith(tx, LATER, 3);
    expect(f.transactions.run).toHaveBeenCalledTimes(1 + ids.length); // one short transaction per upload
    for (const { submission: row, upload: expired } of rows) {
      expect(expired.status).toBe('expired');
      expect(row).toMatchObject({ videoState: 'none', videoId: null, muxUploadId: null, muxStatus: null, updatedAt: LATER });
    }
    expect(f.storage.discard.mock.calls).toEqual(ids.map((id) => [`uploads/${id}`, 'an expired upload']));
    expect(Math.min(...f.storage.discard.mock.invocationCallOrder)).toBeGreaterThan(
      Math.max(...f.transactions.run.mock.invocationCallOrder),
    );
  });

  it('skips an upload a finalize (or another replica) got to first, or whose expiry is not past after all, or that is gone', async () => {
    const row = submission();
    const cases: Array<VideoUploadEntity | undefined> = [
      upload({ status: 'processing' }, row),
      upload({ status: 'expired' }, row),
      upload({ expiresAt: LATER }, row),
      undefined,
    ];
    f.repo.findExpiredUploadIds.mockResolvedValue(cases.map((_, i) => ids[i % ids.length]!));
    for (const found of cases) f.repo.lockUploadWithSubmission.mockResolvedValueOnce(found && { submission: row, upload: found });

    expect(await f.service.sweepExpiredUploads(LATER)).toBe(0);
    expect(f.repo.saveUpload).not.toHaveBeenCalled();
    expect(f.storage.discard).not.toHaveBeenCalled();
  });

  it('leaves a submission that moved on to a newer upload as it is', async () => {
    const row = submission({ videoState: 'processing', videoId: ids[1]! });
    const old = upload({ id: ids[0]! });
    f.repo.findExpiredUploadIds.mockResolvedValue([ids[0]!]);
    f.repo.lockUploadWithSubmission.mockResolvedValue({ submission: row, upload: old });
    expect(await f.service.sweepExpiredUploads(LATER)).toBe(1);
    expect(f.repo.saveUpload).toHaveBeenCalledWith(tx, old);
    expect(f.repo.save).not.toHaveBeenCalled();
    expect(row.videoState).toBe('processing');
  });
});
