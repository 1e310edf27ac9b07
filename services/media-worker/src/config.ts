import { env, loadConfig, sharedConfigShape, type ConfigOf } from '@clipit/service-kit';
import { DEFAULT_MAX_BIT_RATE, mediaToolsConfigShape } from '@clipit/media';
import { storageConfigShape } from '@clipit/storage';
import { shutdownGraceMs as workerShutdownGraceMs, workerConfigShape } from '@clipit/worker-kit';
import { z } from 'zod';

/** Every variable the media worker reads, with a default that works on one machine. Validated once at boot. */
export const mediaWorkerConfigShape = {
  ...sharedConfigShape,
  ...storageConfigShape,
  ...mediaToolsConfigShape,
  // HTTP serves only /health/live, /health/ready and /metrics; the queue worker's budgets are the kit's.
  // One job at a time per process, each running one ffmpeg: scale out with more processes.
  ...workerConfigShape('MEDIA_WORKER', { httpPort: 8103, concurrency: 1, drainSeconds: 25 }),
  /** Scratch folder for the source and the outputs of the running jobs; empty = the system's temporary folder. */
  MEDIA_WORKER_TMP_DIR: z.string().min(1).optional(),
  /** Longest ffmpeg may take to make the poster or the web MP4 of one video. */
  MEDIA_WORKER_TRANSCODE_TIMEOUT_SECONDS: env.int(600, 10),
  /**
   * Bits per second no served video reaches: an upload under it that plays as it is gets remuxed, anything
   * else is transcoded under it (ADR 0047).
   */
  MEDIA_MAX_BIT_RATE: env.int(DEFAULT_MAX_BIT_RATE, 500_000),
};

export type MediaWorkerConfig = ConfigOf<typeof mediaWorkerConfigShape>;

export function loadMediaWorkerConfig(source: NodeJS.ProcessEnv = process.env): MediaWorkerConfig {
  return loadConfig(mediaWorkerConfigShape, source);
}

/** How long the process entry waits for close() after SIGTERM: the drain (MEDIA_WORKER_DRAIN_SECONDS) plus ten seconds. */
export function shutdownGraceMs(source: NodeJS.ProcessEnv = process.env): number {
  return workerShutdownGraceMs(mediaWorkerConfigShape, 'MEDIA_WORKER', source);
}
