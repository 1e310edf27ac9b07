import { CONFIG, Outbox } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SubmissionsConfig } from '../config.js';
import { toSnapshot } from '../domain/submission.mapper.js';
import { refuseVideo } from '../domain/video.js';
import type { SubmissionEntity } from '../entities/submission.entity.js';
import type { VideoUploadEntity } from '../entities/video-upload.entity.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

/**
 * Writes a video's change inside the caller's transaction: the upload, and, when the submission's
 * video changed with it, the submission and its `submission.video-changed` event. Shared by the
 * upload commands and the media worker's verdicts, which both refuse videos.
 */
@Injectable()
export class VideoStateService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly outbox: Outbox,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
  ) {}

  /** `submission` is left out when only the upload changed (a newer upload replaced it). */
  async record(tx: EntityManager, upload: VideoUploadEntity, submission?: SubmissionEntity, reason: string | null = null): Promise<void> {
    await this.repo.saveUpload(tx, upload);
    if (!submission) return;
    await this.repo.save(tx, submission);
    await this.outbox.append(tx, 'submission.video-changed', {
      submission: toSnapshot(submission, this.config.RISK_HOLD_THRESHOLD),
      reason,
    });
  }

  /** The video is refused with `reason` (the person's words): see refuseVideo. */
  async refuse(tx: EntityManager, submission: SubmissionEntity, upload: VideoUploadEntity, reason: string, now: Date): Promise<void> {
    const current = refuseVideo(submission, upload, reason, now);
    await this.record(tx, upload, current ? submission : undefined, reason);
  }
}
