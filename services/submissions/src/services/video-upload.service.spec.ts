import { status } from '@grpc/grpc-js';
import { VIDEO_LIMITS } from '@clipit/field-rules';
import { CONFIG, DomainError, LOGGER, runWithCorrelation, TransactionRunner } from '@clipit/service-kit';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import {
  AT,
  clockAt,
  config,
  OTHER_USER_ID,
  runTransactions,
  silentLogger,
  submission,
  SUBMISSION_ID,
  tx,
  upload,
  USER_ID,
  VIDEO_ID,
} from '../../test/support/unit-fixtures.js';
import { newUploadToken } from '../domain/upload-token.js';
import { MEDIA_QUEUE, type MediaQueuePort } from '../ports.js';
import { SubmissionRepository } from '../repositories/submission.repository.js';
import { VideoStorageRepository } from '../repositories/video-storage.repository.js';
import { VideoStateService } from './video-state.service.js';
import { VideoUploadService } from './video-upload.service.js';

// Upload URL, token check, finalize and abort, with the repository, storage, the state writer and
// the media queue auto-mocked: which checks refuse what, in which order, and what is written or queued.

function setup() {
  const queue = automock<MediaQueuePort>('MediaQueuePort', ['enqueue']);
  const { service, mock } = createTestService(VideoUploadService, { [CONFIG]: config, [LOGGER]: silentLogger, [MEDIA_QUEUE]: queue });
  const repo = mock(SubmissionRepository);
  const transactions = runTransactions(mock(TransactionRunner));
  return { service, transactions, repo, storage: mock(VideoStorageRepository), videos: mock(VideoStateService), queue };
}

const stored = (size: number, contentType = 'video/mp4') => ({
  key: `uploads/${VIDEO_ID}`,
  size,
  contentType,
  lastModified: AT,
  etag: '"e"',
});
const finalizeRequest = { userId: USER_ID, submissionId: SUBMISSION_ID, videoId: VIDEO_ID };

describe('VideoUploadService', () => {
  clockAt();
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  describe('createVideoUpload', () => {
    const request = { userId: USER_ID, submissionId: SUBMISSION_ID };

    it('refuses a declared type that is not a video before reading anything', async () => {
      const err = await rejectedWith(f.service.createVideoUpload({ ...request, contentType: 'image/png' }), DomainError);
      expect([err.code, err.message]).toEqual([
        status.INVALID_ARGUMENT,
        'Invalid File Type: Please upload a video file (MP4, WebM, MOV, or AVI).',
      ]);
      expect(f.transactions.run).not.toHaveBeenCalled();
    });

    it("answers 403 for someone else's submission and 404 for none", async () => {
      f.repo.lockById.mockResolvedValueOnce(submission({ userId: OTHER_USER_ID }));
      const forbidden = await rejectedWith(f.service.createVideoUpload(request), DomainError);
      expect([forbidden.code, forbidden.message]).toEqual([status.PERMISSION_DENIED, 'You can only add a video to your own submission']);
      f.repo.lockById.mockResolvedValueOnce(undefined);
      expect((await rejectedWith(f.service.createVideoUpload(request), DomainError)).code).toBe(status.NOT_FOUND);
      expect(f.repo.insertUpload).not.toHaveBeenCalled();
    });

    it('refuses a rejected submission, or one whose video is ready or processing', async () => {
      for (const [patch, message] of [
        [{ status: 'rejected' }, 'This submission was rejected; a video can no longer be added'],
        [{ videoState: 'ready' }, 'This submission already has a video'],
        [{ videoState: 'processing' }, 'A video for this submission is already being processed'],
      ] as const) {
        f.repo.lockById.mockResolvedValueOnce(submission(patch));
        const err = await rejectedWith(f.service.createVideoUpload(request), DomainError);
        expect([err.code, err.message]).toEqual([status.FAILED_PRECONDITION, message]);
      }
      expect(f.repo.countAcceptedVideosSince).not.toHaveBeenCalled();
    });

    it('answers 429 past the daily limit, counting from the start of the UTC day, and stores nothing', async () => {
      f.repo.lockById.mockResolvedValue(submission());
      f.repo.countAcceptedVideosSince.mockResolvedValue(3);
      const err = await rejectedWith(f.service.createVideoUpload(request), DomainError);
      expect([err.code, err.message]).toEqual([
        status.RESOURCE_EXHAUSTED,
        'Daily limit reached: you can submit 3 videos per day. Try again tomorrow.',
      ]);
      expect(f.repo.countAcceptedVideosSince).toHaveBeenCalledWith(tx, USER_ID, new Date('2026-11-24T00:00:00.000Z'));
      expect(f.repo.insertUpload).not.toHaveBeenCalled();
    });

    it('stores the upload (only its token hash) and makes it the submission’s video; the token goes to a gateway URL', async () => {
      const own = submission({ videoState: 'rejected', videoRejectedReason: 'too long' });
      f.repo.lockById.mockResolvedValue(own);
      f.repo.countAcceptedVideosSince.mockResolvedValue(2);
      f.repo.insertUpload.mockResolvedValue(undefined);
      f.repo.save.mockResolvedValue(undefined);
      f.storage.presignedPutUrl.mockResolvedValue(undefined);

      const answer = await f.service.createVideoUpload({ ...request, contentType: 'video/quicktime', fileName: 'clip.mov' });
      const [, inserted] = f.repo.insertUpload.mock.calls[0]!;
      expect(inserted).toMatchObject({
        id: answer.videoId,
        submissionId: SUBMISSION_ID,
        storageKey: `uploads/${answer.videoId}`,
        status: 'awaiting-upload',
        contentType: 'video/quicktime',
        fileName: 'clip.mov',
        expiresAt: new Date(AT.getTime() + 3600_000),
      });
      expect(inserted.tokenHash).not.toBe(answer.uploadToken);
      expect(answer).toMatchObject({ presignedUrl: '', expiresAt: '2026-11-24T11:00:00.000Z', maxBytes: VIDEO_LIMITS.maxBytes });
      expect(answer.uploadToken).toMatch(/^[\w-]{43}$/);
      expect(f.repo.save).toHaveBeenCalledWith(tx, own);
      expect(own).toMatchObject({
        videoState: 'awaiting-upload',
        videoId: answer.videoId,
        muxStatus: 'waiting',
        videoRejectedReason: null,
      });
      expect(f.storage.presignedPutUrl).toHaveBeenCalledWith(inserted.storageKey, 3600);
    });

    it('keeps the token to itself when storage signs the URL', async () => {
      f.repo.lockById.mockResolvedValue(submission());
      f.repo.countAcceptedVideosSince.mockResolvedValue(0);
      f.repo.insertUpload.mockResolvedValue(undefined);
      f.repo.save.mockResolvedValue(undefined);
      f.storage.presignedPutUrl.mockResolvedValue('https://s3.example/bucket/uploads/x?X-Amz-Signature=s');
      expect(await f.service.createVideoUpload(request)).toMatchObject({
        presignedUrl: 'https://s3.example/bucket/uploads/x?X-Amz-Signature=s',
        uploadToken: '',
      });
    });
  });

  describe('authorizeVideoUpload', () => {
    const token = newUploadToken();

    it("answers the storage key for the upload's own token while it waits and has not expired", async () => {
      f.repo.findUpload.mockResolvedValue(upload({ tokenHash: token.hash }));
      expect(await f.service.authorizeVideoUpload({ videoId: VIDEO_ID, uploadToken: token.token })).toEqual({
        videoId: VIDEO_ID,
        storageKey: `uploads/${VIDEO_ID}`,
        maxBytes: VIDEO_LIMITS.maxBytes,
      });
    });

    it('answers 404 alike for a wrong or empty token, an expired or finished upload, or none', async () => {
      for (const [found, given] of [
        [upload({ tokenHash: token.hash }), 'another token'],
        [upload({ tokenHash: token.hash }), ''],
        [upload({ tokenHash: token.hash, expiresAt: AT }), token.token],
        [upload({ tokenHash: token.hash, status: 'processing' }), token.token],
        [undefined, token.token],
      ] as const) {
        f.repo.findUpload.mockResolvedValueOnce(found);
        const err = await rejectedWith(f.service.authorizeVideoUpload({ videoId: VIDEO_ID, uploadToken: given }), DomainError);
        expect([err.code, err.message]).toEqual([status.NOT_FOUND, 'Video upload not found or expired; request a new upload URL']);
      }
    });
  });

  describe('finalizeVideoUpload', () => {
    function waiting(uploadPatch: Parameters<typeof upload>[0] = {}, submissionPatch: Parameters<typeof submission>[0] = {}) {
      const own = submission(submissionPatch);
      const pending = upload(uploadPatch, own);
      f.repo.lockById.mockResolvedValue(own);
      f.repo.lockUpload.mockResolvedValue(pending);
      return { own, pending };
    }

    it('checks ownership first, then that the upload is this user’s, this submission’s and still waiting', async () => {
      f.repo.lockById.mockResolvedValueOnce(submission({ userId: OTHER_USER_ID }));
      expect((await rejectedWith(f.service.finalizeVideoUpload(finalizeRequest), DomainError)).code).toBe(status.PERMISSION_DENIED);
      expect(f.repo.lockUpload).not.toHaveBeenCalled();

      const cases = [
        [{ userId: OTHER_USER_ID }, {}, status.NOT_FOUND, 'Video upload not found or expired; request a new upload URL'],
        [
          { submissionId: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b' },
          {},
          status.INVALID_ARGUMENT,
          'This video upload belongs to another submission',
        ],
        [{ status: 'expired' }, {}, status.NOT_FOUND, 'Video upload not found or expired; request a new upload URL'],
        [{ status: 'processing' }, {}, status.FAILED_PRECONDITION, 'This video upload was already finalized'],
        [{ expiresAt: AT }, {}, status.NOT_FOUND, 'Video upload not found or expired; request a new upload URL'],
        [{}, { status: 'rejected' }, status.FAILED_PRECONDITION, 'This submission was rejected; a video can no longer be added'],
      ] as const;
      for (const [uploadPatch, submissionPatch, code, message] of cases) {
        waiting(uploadPatch, submissionPatch);
        const err = await rejectedWith(f.service.finalizeVideoUpload(finalizeRequest), DomainError);
        expect({ uploadPatch, submissionPatch, answer: [err.code, err.message] }).toEqual({
          uploadPatch,
          submissionPatch,
          answer: [code, message],
        });
      }
      expect(f.storage.stat).not.toHaveBeenCalled();
    });

    it('answers 400 when no bytes arrived', async () => {
      waiting();
      f.storage.stat.mockResolvedValue(undefined);
      const err = await rejectedWith(f.service.finalizeVideoUpload(finalizeRequest), DomainError);
      expect([err.code, err.message]).toEqual([
        status.INVALID_ARGUMENT,
        'No video was received for this upload; upload the file before finalizing',
      ]);
    });

    it('refuses a file over 150 MB, not a video, or empty: the refusal is recorded, the object removed, the error answered', async () => {
      const cases = [
        [stored(VIDEO_LIMITS.maxBytes + 1), status.OUT_OF_RANGE, 'File Too Large: Please upload a video smaller than 150MB.'],
        [stored(1000, 'text/plain'), status.INVALID_ARGUMENT, 'Invalid File Type: Please upload a video file (MP4, WebM, MOV, or AVI).'],
        [stored(0), status.INVALID_ARGUMENT, 'Invalid Video: Could not read video file. Please try a different file.'],
      ] as const;
      for (const [object, code, message] of cases) {
        f.videos.refuse.mockClear();
        const { own, pending } = waiting({ contentType: null });
        f.storage.stat.mockResolvedValue(object);
        f.videos.refuse.mockResolvedValue(undefined);
        f.storage.discard.mockResolvedValue(undefined);
        const err = await rejectedWith(f.service.finalizeVideoUpload(finalizeRequest), DomainError);
        expect([err.code, err.message]).toEqual([code, message]);
        expect(f.videos.refuse).toHaveBeenCalledWith(tx, own, pending, message, AT);
        expect(f.storage.discard).toHaveBeenLastCalledWith(`uploads/${VIDEO_ID}`, 'a refused upload');
      }
      expect(f.repo.countAcceptedVideosSince).not.toHaveBeenCalled();
      expect(f.queue.enqueue).not.toHaveBeenCalled();
    });

    it('answers 429 past the daily limit and changes nothing', async () => {
      waiting();
      f.storage.stat.mockResolvedValue(stored(1000));
      f.repo.countAcceptedVideosSince.mockResolvedValue(3);
      expect((await rejectedWith(f.service.finalizeVideoUpload(finalizeRequest), DomainError)).code).toBe(status.RESOURCE_EXHAUSTED);
      expect(f.videos.record).not.toHaveBeenCalled();
    });

    it('marks the video processing and queues it under its id with the request’s correlation id', async () => {
      const { own, pending } = waiting({ fileName: null, contentType: null });
      f.storage.stat.mockResolvedValue(stored(2048, 'video/quicktime; charset=binary'));
      f.repo.countAcceptedVideosSince.mockResolvedValue(2);
      f.videos.record.mockResolvedValue(undefined);
      f.queue.enqueue.mockResolvedValue(undefined);

      const answer = await runWithCorrelation('req-42', () =>
        f.service.finalizeVideoUpload({ ...finalizeRequest, fileName: 'holiday.mov' }),
      );
      expect(pending).toMatchObject({
        status: 'processing',
        contentType: 'video/quicktime',
        fileName: 'holiday.mov',
        fileSize: 2048,
        finalizedAt: AT,
      });
      expect(own).toMatchObject({
        videoState: 'processing',
        videoId: VIDEO_ID,
        videoFileName: 'holiday.mov',
        videoFileSize: 2048,
        muxStatus: 'processing',
      });
      expect(f.videos.record).toHaveBeenCalledWith(tx, pending, own);
      expect(f.queue.enqueue).toHaveBeenCalledWith({
        videoId: VIDEO_ID,
        submissionId: SUBMISSION_ID,
        sourceKey: `uploads/${VIDEO_ID}`,
        contentType: 'video/quicktime',
        correlationId: 'req-42',
      });
      expect(answer).toMatchObject({ id: SUBMISSION_ID, isProcessing: true, videoFileName: 'holiday.mov' });
    });

    it('puts the upload back and answers UNAVAILABLE when the queue refuses the job', async () => {
      const { own, pending } = waiting();
      f.storage.stat.mockResolvedValue(stored(2048));
      f.repo.countAcceptedVideosSince.mockResolvedValue(0);
      f.videos.record.mockResolvedValue(undefined);
      f.queue.enqueue.mockRejectedValue(new Error('Connection is closed.'));

      const err = await rejectedWith(f.service.finalizeVideoUpload(finalizeRequest), DomainError);
      expect([err.code, err.message]).toEqual([
        status.UNAVAILABLE,
        'Video processing is unavailable right now; please try again in a minute',
      ]);
      expect(f.transactions.run).toHaveBeenCalledTimes(2);
      expect(pending).toMatchObject({ status: 'awaiting-upload', finalizedAt: null });
      expect(own).toMatchObject({ videoState: 'awaiting-upload', muxStatus: 'waiting' });
      expect(f.videos.record).toHaveBeenLastCalledWith(tx, pending, own);
    });

    it('leaves the upload alone when something else moved it on before it could be put back', async () => {
      const { own, pending } = waiting();
      f.storage.stat.mockResolvedValue(stored(2048));
      f.repo.countAcceptedVideosSince.mockResolvedValue(0);
      f.videos.record.mockResolvedValue(undefined);
      f.queue.enqueue.mockRejectedValue(new Error('Connection is closed.'));
      f.repo.lockUpload.mockResolvedValueOnce(pending).mockResolvedValueOnce(upload({ status: 'rejected' }, own));
      expect((await rejectedWith(f.service.finalizeVideoUpload(finalizeRequest), DomainError)).code).toBe(status.UNAVAILABLE);
      expect(f.videos.record).toHaveBeenCalledTimes(1);
    });
  });

  describe('abortVideoUpload', () => {
    it('refuses a waiting upload with the gateway’s reason (or the generic one) and removes its object', async () => {
      const own = submission();
      const pending = upload({}, own);
      f.repo.lockUploadWithSubmission.mockResolvedValue({ submission: own, upload: pending });
      f.videos.refuse.mockResolvedValue(undefined);
      f.storage.discard.mockResolvedValue(undefined);
      expect(await f.service.abortVideoUpload({ videoId: VIDEO_ID, reason: ' File Too Large ' })).toEqual({});
      expect(f.videos.refuse).toHaveBeenCalledWith(tx, own, pending, 'File Too Large', AT);
      await f.service.abortVideoUpload({ videoId: VIDEO_ID, reason: '  ' });
      expect(f.videos.refuse).toHaveBeenLastCalledWith(
        tx,
        own,
        pending,
        'Invalid Video: Could not read video file. Please try a different file.',
        AT,
      );
      expect(f.storage.discard).toHaveBeenCalledWith(`uploads/${VIDEO_ID}`, 'an aborted upload');
    });

    it('does not refuse an upload that is no longer waiting, and answers 404 for none', async () => {
      const own = submission();
      f.repo.lockUploadWithSubmission.mockResolvedValueOnce({ submission: own, upload: upload({ status: 'processing' }, own) });
      f.storage.discard.mockResolvedValue(undefined);
      await f.service.abortVideoUpload({ videoId: VIDEO_ID, reason: 'cut off' });
      expect(f.videos.refuse).not.toHaveBeenCalled();
      f.repo.lockUploadWithSubmission.mockResolvedValueOnce(undefined);
      expect((await rejectedWith(f.service.abortVideoUpload({ videoId: VIDEO_ID }), DomainError)).code).toBe(status.NOT_FOUND);
    });
  });
});
