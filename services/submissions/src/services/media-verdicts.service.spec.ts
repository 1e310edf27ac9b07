import { guideChecks } from '@clipit/field-rules';
import type { MediaFailedV1, MediaProcessedV1 } from '@clipit/contracts';
import { CONFIG, LOGGER } from '@clipit/service-kit';
import { createTestService } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { AT, clockAt, config, silentLogger, submission, SUBMISSION_ID, tx, upload, VIDEO_ID } from '../../test/support/unit-fixtures.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { MediaVerdictsService } from './media-verdicts.service.js';
import { VideoStateService } from './video-state.service.js';

// The media worker's verdicts on locked rows: what a verdict changes, and when it changes nothing.

function setup() {
  const { service, mock } = createTestService(MediaVerdictsService, { [CONFIG]: config, [LOGGER]: silentLogger });
  return { service, repo: mock(SubmissionRepository), videos: mock(VideoStateService) };
}

const processed: MediaProcessedV1 = {
  videoId: VIDEO_ID,
  submissionId: SUBMISSION_ID,
  durationSeconds: 12.5,
  width: 720,
  height: 1280,
  aspectRatio: '9:16',
  videoCodec: 'h264',
  audioCodec: 'aac',
  video: { key: `videos/${VIDEO_ID}.mp4`, contentType: 'video/mp4', size: 5000 },
  poster: { key: `posters/${VIDEO_ID}.jpg`, contentType: 'image/jpeg', size: 300 },
  playbackId: 'p'.repeat(32),
  processing: 'remux',
  guideChecks: guideChecks({ durationSeconds: 12.5, width: 720, height: 1280, hasAudio: true, watermark: 'not-found' }),
};
const failed: MediaFailedV1 = {
  videoId: VIDEO_ID,
  submissionId: SUBMISSION_ID,
  code: 'too-long',
  reason: 'Video Too Long: Video must be 40 seconds or less. Your video is 45 seconds.',
};

function processing() {
  const row = submission();
  const video = upload({ status: 'processing' }, row);
  return { row, video };
}

describe('MediaVerdictsService', () => {
  clockAt();
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
    f.videos.record.mockResolvedValue(undefined);
    f.videos.refuse.mockResolvedValue(undefined);
  });

  it('media.processed: the video is ready, served under MEDIA_PUBLIC_BASE_URL, with its poster, length and shape', async () => {
    const { row, video } = processing();
    f.repo.lockUploadWithSubmission.mockResolvedValue({ submission: row, upload: video });
    await f.service.onMediaProcessed(processed, tx);
    expect(f.repo.lockUploadWithSubmission).toHaveBeenCalledWith(tx, VIDEO_ID);
    expect(video).toMatchObject({ status: 'ready', completedAt: AT });
    expect(row).toMatchObject({
      videoState: 'ready',
      hasVideo: true,
      videoUrl: `/media/videos/${VIDEO_ID}.mp4`,
      videoThumbnailUrl: `/media/posters/${VIDEO_ID}.jpg`,
      videoDuration: 12.5,
      videoAspectRatio: '9:16',
      muxPlaybackId: processed.playbackId,
      muxAssetId: VIDEO_ID,
      muxStatus: 'ready',
      videoProcessing: 'remux',
      guideChecks: processed.guideChecks,
    });
    expect(f.videos.record).toHaveBeenCalledWith(tx, video, row);
  });

  it('media.processed from a worker older than the guide checks: the video is ready, with no checks', async () => {
    const { row, video } = processing();
    f.repo.lockUploadWithSubmission.mockResolvedValue({ submission: row, upload: video });
    const { processing: _processing, guideChecks: _checks, ...older } = processed;
    await f.service.onMediaProcessed(older, tx);
    expect(row).toMatchObject({ videoState: 'ready', guideChecks: null, videoProcessing: null });
  });

  it('media.processed for an upload a newer one replaced: only the upload is marked ready', async () => {
    const { row, video } = processing();
    row.videoId = '8f9e0d1c-2b3a-4c5d-9e6f-7a8b9c0d1e2f';
    f.repo.lockUploadWithSubmission.mockResolvedValue({ submission: row, upload: video });
    await f.service.onMediaProcessed(processed, tx);
    expect(video.status).toBe('ready');
    expect(row.videoState).toBe('processing');
    expect(f.videos.record).toHaveBeenCalledWith(tx, video, undefined);
  });

  it('media.failed: the video is refused with the worker’s words', async () => {
    const { row, video } = processing();
    f.repo.lockUploadWithSubmission.mockResolvedValue({ submission: row, upload: video });
    await f.service.onMediaFailed(failed, tx);
    expect(f.videos.refuse).toHaveBeenCalledWith(tx, row, video, failed.reason, AT);
  });

  it('ignores a verdict on an upload that is not processing (aborted, refused, applied already) or is gone', async () => {
    for (const state of ['awaiting-upload', 'rejected', 'ready', 'aborted', 'expired'] as const) {
      const row = submission();
      f.repo.lockUploadWithSubmission.mockResolvedValue({ submission: row, upload: upload({ status: state }, row) });
      await f.service.onMediaProcessed(processed, tx);
      await f.service.onMediaFailed(failed, tx);
    }
    f.repo.lockUploadWithSubmission.mockResolvedValue(undefined);
    await f.service.onMediaProcessed(processed, tx);
    await f.service.onMediaFailed(failed, tx);
    expect(f.videos.record).not.toHaveBeenCalled();
    expect(f.videos.refuse).not.toHaveBeenCalled();
  });
});
