import type { FingerprintVideoJob, identityV1, ProcessVideoJob, RefreshMetricsJob } from '@clipit/contracts';
import type { RedriveResult } from '@clipit/media-queue';
import type { PromiseClient } from '@clipit/service-kit';

// What submissions reaches outside its own database and storage: another service's API and a queue.
// The kit's start-up provides each under its token (app.ts); application services see only these shapes.

export const IDENTITY_CLIENT = Symbol('IDENTITY_CLIENT');
export const MEDIA_QUEUE = Symbol('MEDIA_QUEUE');
export const METRICS_QUEUE = Symbol('METRICS_QUEUE');

/** Where accepted videos go to be processed (the media queue); `enqueue` and `redrive` are idempotent per video id. */
export interface MediaQueuePort {
  enqueue(job: ProcessVideoJob): Promise<void>;
  /** For a video whose verdict never arrived: leaves a live job, retries a finished one, queues a lost one again (redriveProcessVideo). */
  redrive(job: ProcessVideoJob): Promise<RedriveResult>;
  /** For a ready video whose fingerprint never arrived: the same, for its fingerprint job (redriveFingerprintVideo). */
  redriveFingerprint(job: FingerprintVideoJob): Promise<RedriveResult>;
  close(): Promise<void>;
}

/** Where batches of posts whose metrics are due go (the metrics queue); `enqueue` is idempotent per batch id. */
export interface MetricsQueuePort {
  enqueue(job: RefreshMetricsJob): Promise<void>;
  close(): Promise<void>;
}

/** The identity calls submissions makes (checking a tagged streamer or token exists). */
export type IdentityPort = Pick<PromiseClient<identityV1.IdentityServiceClient>, 'getToken' | 'getUser'>;
