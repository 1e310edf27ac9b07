import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { MediaTools } from '@clipit/media';
import { createMediaQueue } from '@clipit/media-queue';
import {
  bootstrapService,
  packageVersion,
  redisConnectionOptions,
  resource,
  type ConfigOverrides,
  type ServiceApp,
} from '@clipit/service-kit';
import { storageResource } from '@clipit/storage';
import { defineWorker } from '@clipit/worker-kit';
import { MediaWorkerModule } from './app.module.js';
import { mediaWorkerConfigShape, type MediaWorkerConfig } from './config.js';
import { removeDeadWorkDirs } from './jobs/work-dirs.js';
import { MEDIA_QUEUE_PRODUCER, MEDIA_TOOLS, WORK_ROOT } from './media-worker.tokens.js';
import { MediaQueueWorker } from './worker/media-queue.worker.js';

/**
 * media-worker: takes process-video jobs from the media queue in Redis, probes and transcodes with
 * ffmpeg, stores the results and states media.processed / media.failed on NATS; then fingerprints each
 * processed video in a job of its own and states media.fingerprinted (ADR 0048). No database.
 */
export const mediaWorkerService = defineWorker(mediaWorkerConfigShape, {
  name: 'media-worker',
  version: packageVersion(import.meta.url),
  resources: [
    // A worker without ffmpeg would fail every job: refuse to start instead, saying which binary is missing.
    resource(
      'ffmpeg',
      MEDIA_TOOLS,
      async ({ config }) => {
        const tools = MediaTools.fromConfig(config, {
          probeTimeoutMs: 60_000,
          transcodeTimeoutMs: config.MEDIA_WORKER_TRANSCODE_TIMEOUT_SECONDS * 1000,
        });
        await tools.check();
        return tools;
      },
      { health: (tools) => [{ name: 'ffmpeg', check: tools.cachedCheck() }] },
    ),
    resource('scratch folder', WORK_ROOT, async ({ config, logger }) => {
      const tmpRoot = resolve(config.MEDIA_WORKER_TMP_DIR ?? tmpdir());
      await mkdir(tmpRoot, { recursive: true });
      const swept = await removeDeadWorkDirs(tmpRoot);
      if (swept.length > 0) logger.info({ folders: swept }, 'removed scratch folders of dead workers');
      return tmpRoot;
    }),
    storageResource,
    // Adds the fingerprint job of each processed video to the queue this worker takes jobs from.
    resource(
      'media queue producer',
      MEDIA_QUEUE_PRODUCER,
      ({ config, logger }) => createMediaQueue({ connection: redisConnectionOptions(config), prefix: config.REDIS_KEY_PREFIX, logger }),
      { close: (queue) => queue.close() },
    ),
  ],
  worker: MediaQueueWorker,
  module: MediaWorkerModule,
});

export type MediaWorkerApp = ServiceApp<MediaWorkerConfig>;
export type MediaWorkerConfigOverrides = ConfigOverrides<typeof mediaWorkerConfigShape>;

export const bootstrapMediaWorker = (overrides: MediaWorkerConfigOverrides = {}): Promise<MediaWorkerApp> =>
  bootstrapService(mediaWorkerService, overrides);
