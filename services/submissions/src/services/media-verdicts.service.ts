import type { MediaFailedV1, MediaProcessedV1 } from '@clipit/contracts';
import { CONFIG, LOGGER } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { SubmissionsConfig } from '../config.js';
import { videoReady } from '../domain/video.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { VideoStateService } from './video-state.service.js';

/**
 * The media worker's verdicts (`media.processed`, `media.failed`), applied once each through the
 * inbox, in the transaction the consumer hands in. A verdict on an upload that is no longer
 * processing (aborted, refused, or applied already) changes nothing.
 */
@Injectable()
export class MediaVerdictsService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly videos: VideoStateService,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onMediaProcessed(data: MediaProcessedV1, tx: EntityManager): Promise<void> {
    const locked = await this.repo.lockUploadWithSubmission(tx, data.videoId);
    if (!locked || locked.upload.status !== 'processing') {
      this.logger.warn(
        { videoId: data.videoId, status: locked?.upload.status },
        'media.processed for an upload that is not processing: ignored',
      );
      return;
    }
    const { submission, upload } = locked;
    const current = videoReady(submission, upload, data, this.config.MEDIA_PUBLIC_BASE_URL, new Date());
    await this.videos.record(tx, upload, current ? submission : undefined);
  }

  async onMediaFailed(data: MediaFailedV1, tx: EntityManager): Promise<void> {
    const locked = await this.repo.lockUploadWithSubmission(tx, data.videoId);
    if (!locked || locked.upload.status !== 'processing') {
      this.logger.warn(
        { videoId: data.videoId, status: locked?.upload.status },
        'media.failed for an upload that is not processing: ignored',
      );
      return;
    }
    await this.videos.refuse(tx, locked.submission, locked.upload, data.reason, new Date());
  }
}
