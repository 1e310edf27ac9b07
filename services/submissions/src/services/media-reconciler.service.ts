import { CONFIG, LOGGER } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { SubmissionsConfig } from '../config.js';
import { mediaRedrives } from '../metrics.js';
import { mediaKeys } from '@clipit/contracts';
import { MEDIA_QUEUE, type MediaQueuePort } from '../ports.js';
import { FingerprintRepository } from '../repositories/fingerprint.repository.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';

const RECONCILE_BATCH = 100;

/** Why a re-driven job needed it, for the log line. */
const WHY: Record<string, string> = {
  failed:
    'its job failed without the verdict arriving (e.g. NATS was down when it was stated): retried, the worker states its kept verdict again',
  completed: 'its job completed but the verdict never arrived: retried, the worker states its kept verdict again',
  missing: 'the media queue no longer has its job (removed, or Redis lost it): queued again',
};

/**
 * The backstop of the media pipeline (the timer in app.ts runs it every MEDIA_RECONCILE_INTERVAL_SECONDS):
 * a video still processing MEDIA_PROCESSING_STALE_SECONDS after finalize is driven through the media
 * queue again (redriveProcessVideo). A job still on its way is left alone; a finished one is retried
 * (the worker states the verdict it kept, under the same deterministic event id, without transcoding
 * again); a lost one is queued again. The verdict then lands through the inbox as usual, where a copy
 * or a late contrary verdict changes nothing (MediaVerdictsService applies only to a video processing).
 *
 * It does the same for a ready video whose fingerprint (ADR 0048) has not arrived MEDIA_PROCESSING_STALE_SECONDS
 * after it became ready: a lost fingerprint job, or a video processed before fingerprints existed (so the
 * older clips are fingerprinted too, a batch per round).
 *
 * Several replicas may run it at the same time: it changes no row, and re-driving is idempotent
 * (one retry of a finished job wins, adding an existing job id adds nothing), so no lock is taken.
 */
@Injectable()
export class MediaReconcilerService {
  constructor(
    private readonly repo: SubmissionRepository,
    private readonly fingerprints: FingerprintRepository,
    @Inject(MEDIA_QUEUE) private readonly queue: MediaQueuePort,
    @Inject(CONFIG) private readonly config: SubmissionsConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Re-drives the stale videos and fingerprints (up to `batch` of each, oldest first); answers how many needed it. */
  async reconcile(now = new Date(), batch = RECONCILE_BATCH): Promise<number> {
    const staleBefore = new Date(now.getTime() - this.config.MEDIA_PROCESSING_STALE_SECONDS * 1000);
    return (await this.reconcileVideos(staleBefore, batch)) + (await this.reconcileFingerprints(staleBefore, batch));
  }

  private async reconcileFingerprints(staleBefore: Date, batch: number): Promise<number> {
    const videos = await this.fingerprints.findUnfingerprinted(staleBefore, batch);
    let redriven = 0;
    for (const { videoId, submissionId } of videos) {
      try {
        const { action, state } = await this.queue.redriveFingerprint({ videoId, submissionId, videoKey: mediaKeys.video(videoId) });
        if (action === 'left') continue;
        redriven += 1;
        mediaRedrives.inc({ action, state });
        this.logger.info(
          { videoId, submissionId, action, jobState: state },
          `re-drove a ready video's fingerprint: ${WHY[state] ?? state}`,
        );
      } catch (err) {
        this.logger.warn({ err, videoId }, "could not re-drive a ready video's fingerprint");
      }
    }
    return redriven;
  }

  private async reconcileVideos(staleBefore: Date, batch: number): Promise<number> {
    const uploads = await this.repo.findStaleProcessingUploads(staleBefore, batch);
    let redriven = 0;
    for (const upload of uploads) {
      const videoId = upload.id;
      try {
        const { action, state } = await this.queue.redrive({
          videoId,
          submissionId: upload.submissionId,
          sourceKey: upload.storageKey,
          // Set when it was finalized; the worker's ffprobe decides what the file really is anyway.
          contentType: upload.contentType ?? 'application/octet-stream',
        });
        if (action === 'left') {
          this.logger.debug({ videoId, state }, 'video processing long, but its job is on its way: left alone');
          continue;
        }
        redriven += 1;
        mediaRedrives.inc({ action, state });
        this.logger.info(
          { videoId, submissionId: upload.submissionId, action, jobState: state, finalizedAt: upload.finalizedAt },
          `re-drove a video processing too long: ${WHY[state] ?? state}`,
        );
      } catch (err) {
        // Redis down, say: the next round tries again.
        this.logger.warn({ err, videoId }, 'could not re-drive a video processing too long');
      }
    }
    return redriven;
  }
}
