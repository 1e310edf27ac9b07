import type { TransactionRunner } from '@clipit/service-kit';
import { runTransactionsWith } from '@clipit/testing';
import { afterEach, beforeEach, jest } from '@jest/globals';
import pino from 'pino';
import type { EntityManager } from 'typeorm';
import type { SubmissionsConfig } from '../../src/config.js';
import { newSubmission, newVideoUpload } from '../../src/domain/submission.factory.js';
import type { SubmissionEntity } from '../../src/entities/submission.entity.js';
import type { VideoUploadEntity } from '../../src/entities/video-upload.entity.js';

// What the application services' unit specs share: entities built by the domain factories, the
// configuration and logger tokens, and a transaction runner whose transactions run in one stand-in manager.

export const USER_ID = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
export const OTHER_USER_ID = '5d1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b';
export const SUBMISSION_ID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
export const VIDEO_ID = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';
export const AT = new Date('2026-11-24T10:00:00.000Z');

export const tx = { marker: 'the transaction' } as unknown as EntityManager;
export const silentLogger = pino({ level: 'silent' });
export const config = {
  UPLOAD_URL_TTL_SECONDS: 3600,
  DAILY_VIDEO_LIMIT: 3,
  MEDIA_PUBLIC_BASE_URL: '/media',
  RISK_HOLD_THRESHOLD: 60,
} as SubmissionsConfig;

export function submission(patch: Partial<SubmissionEntity> = {}): SubmissionEntity {
  const built = newSubmission(
    USER_ID,
    {
      name: 'A great clip',
      url: 'https://x.com/clipper/status/1790000000000000000',
      platform: 'twitter',
      externalId: '1790000000000000000',
      authorHandle: 'clipper',
      walletAddress: 'pending',
      additionalInfo: null,
      tokenId: null,
      streamerId: null,
    },
    AT,
    SUBMISSION_ID,
  );
  return Object.assign(built, patch);
}

/** An upload waiting for its bytes, expiring an hour after AT; pass the submission it is the video of to make it current. */
export function upload(patch: Partial<VideoUploadEntity> = {}, of?: SubmissionEntity): VideoUploadEntity {
  const built = newVideoUpload(
    {
      submissionId: SUBMISSION_ID,
      userId: USER_ID,
      tokenHash: 'hash',
      contentType: 'video/mp4',
      fileName: 'clip.mp4',
      expiresAt: new Date(AT.getTime() + 3600_000),
    },
    AT,
    VIDEO_ID,
  );
  Object.assign(built, patch);
  if (of) Object.assign(of, { videoState: built.status === 'processing' ? 'processing' : 'awaiting-upload', videoId: built.id });
  return built;
}

/** Every `transactions.run(work)` runs `work(tx)`. */
export function runTransactions(transactions: jest.Mocked<TransactionRunner>): jest.Mocked<TransactionRunner> {
  return runTransactionsWith(transactions, tx);
}

/** The clock reads AT for the tests of the calling describe block (dates only: promises and ticks run as usual). */
export function clockAt(at: Date = AT): void {
  beforeEach(() => {
    jest.useFakeTimers({ now: at, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });
}
