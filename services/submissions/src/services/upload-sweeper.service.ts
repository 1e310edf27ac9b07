import { TransactionRunner } from '@clipit/service-kit';
import { Injectable } from '@nestjs/common';
import { expireUpload } from '../domain/video.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { VideoStorageRepository } from '../repositories/video-storage.repository.js';

const SWEEP_BATCH = 100;

/** Uploads whose URL expired unused (the timer in app.ts runs this every UPLOAD_SWEEP_INTERVAL_SECONDS). */
@Injectable()
export class UploadSweeperService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly storage: VideoStorageRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Marks them expired and removes their objects (a partial PUT, say). Answers how many. */
  async sweepExpiredUploads(now = new Date(), batch = SWEEP_BATCH): Promise<number> {
    const ids = await this.transactions.run((tx) => this.repo.findExpiredUploadIds(tx, now, batch));
    const keys: string[] = [];
    // One short transaction per upload, its rows locked in the usual order and its state checked again
    // (a finalize, or another replica's sweep, may have got there first).
    for (const id of ids) {
      const key = await this.transactions.run(async (tx) => {
        const locked = await this.repo.lockUploadWithSubmission(tx, id);
        if (!locked || locked.upload.status !== 'awaiting-upload' || locked.upload.expiresAt.getTime() >= now.getTime()) return undefined;
        const { submission, upload } = locked;
        const submissionChanged = expireUpload(submission, upload, now);
        await this.repo.saveUpload(tx, upload);
        if (submissionChanged) await this.repo.save(tx, submission);
        return upload.storageKey;
      });
      if (key) keys.push(key);
    }
    for (const key of keys) await this.storage.discard(key, 'an expired upload');
    return keys.length;
  }
}
