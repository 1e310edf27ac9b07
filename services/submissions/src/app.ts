import { identityContract, submissionsContract } from '@clipit/contracts';
import {
  bootstrapService,
  defineService,
  every,
  grpcClient,
  packageVersion,
  resource,
  type ConfigOverrides,
  type ServiceApp,
} from '@clipit/service-kit';
import { storageResource } from '@clipit/storage';
import { SubmissionsModule } from './app.module.js';
import { submissionsConfigShape, type SubmissionsConfig } from './config.js';
import { submissionsEntities, submissionsMigrations } from './database.js';
import { createBullMediaQueue } from './media-queue.js';
import { createBullMetricsQueue } from './metrics-queue.js';
import { IDENTITY_CLIENT, MEDIA_QUEUE, METRICS_QUEUE } from './ports.js';
import { AppealsService } from './services/appeals.service.js';
import { FingerprintMatchesService } from './services/fingerprint-matches.service.js';
import { MediaReconcilerService } from './services/media-reconciler.service.js';
import { MediaVerdictsService } from './services/media-verdicts.service.js';
import { MetricsSchedulerService } from './services/metrics-scheduler.service.js';
import { PostMetricsService } from './services/post-metrics.service.js';
import { UploadSweeperService } from './services/upload-sweeper.service.js';

/**
 * submissions: post submissions, their videos' uploads and moderation, served over gRPC
 * (submissions.v1.SubmissionsService); queues accepted videos for the media worker and applies its verdicts;
 * queues approved posts for their X metrics and applies what X answered.
 */
export const submissionsService = defineService(submissionsConfigShape, {
  name: 'submissions',
  version: packageVersion(import.meta.url),
  database: { entities: submissionsEntities, migrations: submissionsMigrations },
  grpc: submissionsContract,
  resources: [
    storageResource,
    resource('media queue', MEDIA_QUEUE, ({ config, logger }) => createBullMediaQueue(config, logger), {
      close: (q) => q.close(),
      health: (q) => [q.healthCheck],
    }),
    resource('metrics queue', METRICS_QUEUE, ({ config, logger }) => createBullMetricsQueue(config, logger), {
      close: (q) => q.close(),
      health: (q) => [q.healthCheck],
    }),
  ],
  // Only a submission that tags a streamer or token calls identity: its outage is reported, not a reason to take submissions out of traffic.
  clients: [grpcClient(identityContract, { token: IDENTITY_CLIENT, url: (c) => c.IDENTITY_GRPC_URL, readiness: 'reported' })],
  events: ({ get }) => ({
    'media.processed': (event, tx) => get(MediaVerdictsService).onMediaProcessed(event.data, tx),
    'media.failed': (event, tx) => get(MediaVerdictsService).onMediaFailed(event.data, tx),
    'media.fingerprinted': (event, tx) => get(FingerprintMatchesService).onMediaFingerprinted(event.data, tx),
    'metrics.fetched': (event, tx) => get(PostMetricsService).onMetricsFetched(event.data, tx),
    'user.x-linked': (event, tx) => get(PostMetricsService).onUserXLinked(event.data, tx),
    // rewards' holds on earnings, mirrored so a clipper may appeal one (ADR 0051).
    'rewards.earning-held': (event, tx) => get(AppealsService).onEarningHeld(event.data, tx),
    'rewards.earning-released': (event, tx) => get(AppealsService).onEarningDecided('released', event.data, tx),
    'rewards.earning-voided': (event, tx) => get(AppealsService).onEarningDecided('voided', event.data, tx),
  }),
  workers: [
    every(
      'upload sweeper',
      (c) => c.UPLOAD_SWEEP_INTERVAL_SECONDS * 1000,
      ({ get }) => get(UploadSweeperService).sweepExpiredUploads(),
    ),
    // The backstop for verdicts that never arrived (NATS down when the worker stated them, a lost job).
    every(
      'media reconciler',
      (c) => c.MEDIA_RECONCILE_INTERVAL_SECONDS * 1000,
      ({ get }) => get(MediaReconcilerService).reconcile(),
    ),
    // Approved posts whose X metrics are due, to the metrics worker in batches of 100 (ADR 0029).
    every(
      'metrics scheduler',
      (c) => c.METRICS_SCHEDULER_INTERVAL_SECONDS * 1000,
      ({ get }) => get(MetricsSchedulerService).queueDue(),
    ),
  ],
  module: SubmissionsModule,
});

export type SubmissionsApp = ServiceApp<SubmissionsConfig>;
export type SubmissionsConfigOverrides = ConfigOverrides<typeof submissionsConfigShape>;

export const bootstrapSubmissions = (overrides: SubmissionsConfigOverrides = {}): Promise<SubmissionsApp> =>
  bootstrapService(submissionsService, overrides);
