import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { submissionsV1 } from '@clipit/contracts';
import { VIDEO_LIMITS, VIDEO_MESSAGES } from '@clipit/field-rules';
import type { StorageDriver } from '@clipit/storage';
import { automock, createTestService, rejectedWith } from '@clipit/testing';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BadRequestException, HttpException, PayloadTooLargeException } from '@nestjs/common';
import type { UploadedMultipartFile } from '@nestjs/platform-fastify/multipart';
import pino from 'pino';
import { LOGGER } from '@clipit/service-kit';
import { STORAGE } from '@clipit/storage';
import { SUBMISSIONS_CLIENT, type SubmissionsClient } from '../clients.js';
import { VIDEO_REQUIRED, VideoUploadService } from './video-upload.service.js';

// The gateway's side of a video upload with the submissions client and storage auto-mocked: the
// cut-off at the owner's limit, what is refused before a byte is stored, and the abort that leaves
// the upload refused whenever the bytes do not make it.

const USER_ID = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
const SUBMISSION_ID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
const VIDEO_ID = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
const KEY = `uploads/${VIDEO_ID}`;
const MB = Buffer.alloc(1024 * 1024);

/** `megabytes` MB and `extra` bytes, without holding them in memory. */
function bytes(megabytes: number, extra = 0): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < megabytes; i += 1) yield MB;
      if (extra > 0) yield Buffer.alloc(extra);
    })(),
  );
}

/** Storage that reads what it is given to the end, as a driver writing a file or an S3 object does. */
async function drain(body: Buffer | Readable): Promise<number> {
  let size = 0;
  if (Buffer.isBuffer(body)) return body.length;
  await pipeline(
    body,
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback();
      },
    }),
  );
  return size;
}

function setup() {
  const client = automock<SubmissionsClient>('SubmissionsClient', [
    'createVideoUpload',
    'authorizeVideoUpload',
    'finalizeVideoUpload',
    'abortVideoUpload',
  ]);
  const storage = automock<StorageDriver>('StorageDriver', ['put']);
  const { service } = createTestService(VideoUploadService, {
    [SUBMISSIONS_CLIENT]: client,
    [STORAGE]: storage,
    [LOGGER]: pino({ level: 'silent' }),
  });
  client.authorizeVideoUpload.mockResolvedValue({ videoId: VIDEO_ID, storageKey: KEY, maxBytes: VIDEO_LIMITS.maxBytes });
  client.abortVideoUpload.mockResolvedValue({});
  storage.put.mockImplementation(async (key, body, contentType) => ({ key, size: await drain(body), contentType }));
  return { service, client, storage };
}

const submission = { id: SUBMISSION_ID, userId: USER_ID, name: 'A clip', isProcessing: true } as submissionsV1.Submission;
const upload: submissionsV1.VideoUpload = {
  videoId: VIDEO_ID,
  submissionId: SUBMISSION_ID,
  storageKey: KEY,
  presignedUrl: '',
  uploadToken: 'tok/en+',
  expiresAt: '2026-11-24T11:00:00.000Z',
  maxBytes: VIDEO_LIMITS.maxBytes,
};

async function httpError(call: Promise<unknown>): Promise<[number, unknown]> {
  const err = await rejectedWith(call, HttpException);
  return [err.getStatus(), err.message];
}

describe('VideoUploadService (gateway)', () => {
  let f: ReturnType<typeof setup>;
  beforeEach(() => {
    f = setup();
  });

  describe('put (the gateway upload URL)', () => {
    it('stores a video that fits, streamed, under the key the owner authorized', async () => {
      const answer = await f.service.put(VIDEO_ID, 'tok', {
        body: bytes(2, 10),
        contentType: 'video/mp4; codecs="avc1"',
        contentLength: undefined,
      });
      expect(answer).toEqual({ videoId: VIDEO_ID, size: 2 * MB.length + 10 });
      expect(f.client.authorizeVideoUpload).toHaveBeenCalledWith({ videoId: VIDEO_ID, uploadToken: 'tok' });
      expect(f.storage.put).toHaveBeenCalledWith(KEY, expect.any(Readable), 'video/mp4');
      expect(f.client.abortVideoUpload).not.toHaveBeenCalled();
    });

    it('cuts a stream off one byte past 150 MB: 413 with the spec text, and the upload aborted', async () => {
      const body = bytes(150, 1);
      expect(await httpError(f.service.put(VIDEO_ID, 'tok', { body, contentType: 'video/mp4', contentLength: undefined }))).toEqual([
        413,
        VIDEO_MESSAGES.tooLarge,
      ]);
      expect(f.client.abortVideoUpload).toHaveBeenCalledWith({ videoId: VIDEO_ID, reason: VIDEO_MESSAGES.tooLarge });
    });

    it('accepts exactly 150 MB', async () => {
      expect(await f.service.put(VIDEO_ID, 'tok', { body: bytes(150), contentType: 'video/webm', contentLength: undefined })).toEqual({
        videoId: VIDEO_ID,
        size: VIDEO_LIMITS.maxBytes,
      });
    });

    it('answers 413 for a declared length over the limit before storing a byte', async () => {
      const contentLength = String(VIDEO_LIMITS.maxBytes + 1);
      expect(await httpError(f.service.put(VIDEO_ID, 'tok', { body: bytes(0, 1), contentType: 'video/mp4', contentLength }))).toEqual([
        413,
        VIDEO_MESSAGES.tooLarge,
      ]);
      expect(f.storage.put).not.toHaveBeenCalled();
      expect(f.client.abortVideoUpload).toHaveBeenCalledWith({ videoId: VIDEO_ID, reason: VIDEO_MESSAGES.tooLarge });
    });

    it('answers 400 for a type that is not a video, or no body, storing nothing', async () => {
      for (const incoming of [
        { body: bytes(0, 10), contentType: 'text/plain', contentLength: '10' },
        { body: bytes(0, 10), contentType: undefined, contentLength: '10' },
        { body: undefined, contentType: 'video/mp4', contentLength: '0' },
      ]) {
        const err = await rejectedWith(f.service.put(VIDEO_ID, 'tok', incoming), BadRequestException);
        expect(err.message).toBe(VIDEO_MESSAGES.invalidType);
      }
      expect(f.storage.put).not.toHaveBeenCalled();
    });

    it('passes a storage failure that is not about size on, still answering 413 if aborting fails', async () => {
      const down = new Error('EIO: disk gone');
      f.storage.put.mockRejectedValueOnce(down);
      await expect(f.service.put(VIDEO_ID, 'tok', { body: bytes(0, 10), contentType: 'video/mp4', contentLength: '10' })).rejects.toBe(
        down,
      );
      expect(f.client.abortVideoUpload).not.toHaveBeenCalled();

      f.client.abortVideoUpload.mockRejectedValueOnce(new Error('submissions is down'));
      const contentLength = String(VIDEO_LIMITS.maxBytes + 1);
      await rejectedWith(
        f.service.put(VIDEO_ID, 'tok', { body: bytes(0, 1), contentType: 'video/mp4', contentLength }),
        PayloadTooLargeException,
      );
    });

    it("passes the owner's refusal of the token on (the upload is not the gateway's to check)", async () => {
      const refused = new Error('Video upload not found or expired; request a new upload URL');
      f.client.authorizeVideoUpload.mockRejectedValueOnce(refused);
      await expect(f.service.put(VIDEO_ID, undefined, { body: bytes(0, 1), contentType: 'video/mp4', contentLength: '1' })).rejects.toBe(
        refused,
      );
      expect(f.client.authorizeVideoUpload).toHaveBeenCalledWith({ videoId: VIDEO_ID, uploadToken: '' });
    });
  });

  describe('uploadFile (multipart in one request)', () => {
    let dir: string;
    let file: UploadedMultipartFile;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'clipit-gateway-upload-spec-'));
      const path = join(dir, 'part');
      await writeFile(path, 'not really a video');
      file = { path, mimetype: 'video/quicktime', originalname: 'holiday.mov', size: 18 } as UploadedMultipartFile;
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const exists = (path: string) =>
      stat(path).then(
        () => true,
        () => false,
      );

    it('answers 400 when the request has no video part', async () => {
      expect(await httpError(f.service.uploadFile(USER_ID, SUBMISSION_ID, undefined))).toEqual([400, VIDEO_REQUIRED]);
    });

    it('creates the upload, stores the file and finalizes it; the temporary file goes', async () => {
      f.client.createVideoUpload.mockResolvedValue(upload);
      f.client.finalizeVideoUpload.mockResolvedValue(submission);
      expect(await f.service.uploadFile(USER_ID, SUBMISSION_ID, file)).toMatchObject({ id: SUBMISSION_ID });
      expect(f.client.createVideoUpload).toHaveBeenCalledWith({
        userId: USER_ID,
        submissionId: SUBMISSION_ID,
        contentType: 'video/quicktime',
        fileName: 'holiday.mov',
      });
      expect(f.storage.put).toHaveBeenCalledWith(KEY, expect.any(Readable), 'video/quicktime');
      expect(f.client.finalizeVideoUpload).toHaveBeenCalledWith({
        userId: USER_ID,
        submissionId: SUBMISSION_ID,
        videoId: VIDEO_ID,
        contentType: 'video/quicktime',
        fileName: 'holiday.mov',
      });
      expect(await exists(file.path!)).toBe(false);
    });

    it('aborts the upload when storage fails, answers that failure, and removes the temporary file', async () => {
      f.client.createVideoUpload.mockResolvedValue(upload);
      const down = new Error('S3 answered 503');
      f.storage.put.mockRejectedValueOnce(down);
      await expect(f.service.uploadFile(USER_ID, SUBMISSION_ID, file)).rejects.toBe(down);
      expect(f.client.abortVideoUpload).toHaveBeenCalledWith({ videoId: VIDEO_ID, reason: VIDEO_MESSAGES.invalid });
      expect(f.client.finalizeVideoUpload).not.toHaveBeenCalled();
      expect(await exists(file.path!)).toBe(false);
    });

    it("removes the temporary file when the owner refuses the upload (someone else's submission, the daily limit)", async () => {
      f.client.createVideoUpload.mockRejectedValue(new Error('You can only add a video to your own submission'));
      await expect(f.service.uploadFile(USER_ID, SUBMISSION_ID, file)).rejects.toThrow('You can only add a video to your own submission');
      expect(f.storage.put).not.toHaveBeenCalled();
      expect(await exists(file.path!)).toBe(false);
    });
  });

  it('hands out the presigned URL, or the gateway’s own with the token encoded', async () => {
    f.client.createVideoUpload
      .mockResolvedValueOnce(upload)
      .mockResolvedValueOnce({ ...upload, presignedUrl: 'https://s3.example/b/k?X-Amz-Signature=s', uploadToken: '' });
    expect(await f.service.uploadUrl(USER_ID, SUBMISSION_ID)).toEqual({
      uploadUrl: `/api/submissions/uploads/${VIDEO_ID}?token=tok%2Fen%2B`,
      videoId: VIDEO_ID,
    });
    expect(await f.service.uploadUrl(USER_ID, SUBMISSION_ID)).toEqual({
      uploadUrl: 'https://s3.example/b/k?X-Amz-Signature=s',
      videoId: VIDEO_ID,
    });
    expect(f.client.createVideoUpload).toHaveBeenCalledWith({ userId: USER_ID, submissionId: SUBMISSION_ID });
  });
});
