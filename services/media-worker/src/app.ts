import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { MediaTools } from '@clipit/media';
import {
  bootstrapService,
  defineService,
  packageVersion,
  REDIS,
  redisResource,
  resource,
  type ConfigOverrides,
  type HealthCheck,
  type ServiceApp,
} from '@clipit/service-kit';
import { storageResource } from '@clipit/storage';
import { MediaWorkerModule } from './app.module.js';
import { mediaWorkerConfigShape, type MediaWorkerConfig } from './config.js';
import { removeDeadWorkDirs } from './jobs/work-dirs.js';
import { MEDIA_TOOLS, WORK_ROOT } from './media-worker.tokens.js';
import { MediaQueueWorker } from './worker/media-queue.worker.js';

/**
 * media-worker: takes process-video jobs from the media queue in Redis, probes and transcodes with
 * ffmpeg, stores the results and states media.processed / media.failed on NATS. No database.
 */
export const mediaWorkerService = defineService(mediaWorkerConfigShape, {
  name: 'media-worker',
  version: packageVersion(import.meta.url),
  bus: true,
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
    // Its own small connection: readiness must not queue behind the worker's blocking reads.
    redisResource(REDIS, { enableOfflineQueue: false, tolerateOutage: true }),
  ],
  workers: [
    {
      name: 'media queue worker',
      start: async ({ get, config }) => {
        const worker = get(MediaQueueWorker);
        await worker.start();
        const taking: HealthCheck = {
          name: 'worker',
          check: async () => {
            if (!worker.isRunning()) throw new Error('not taking jobs');
          },
        };
        return { stop: () => worker.close(config.MEDIA_WORKER_DRAIN_SECONDS * 1000), health: [taking] };
      },
    },
  ],
  module: MediaWorkerModule,
});

export type MediaWorkerApp = ServiceApp<MediaWorkerConfig>;
export type MediaWorkerConfigOverrides = ConfigOverrides<typeof mediaWorkerConfigShape>;

export const bootstrapMediaWorker = (overrides: MediaWorkerConfigOverrides = {}): Promise<MediaWorkerApp> =>
  bootstrapService(mediaWorkerService, overrides);
