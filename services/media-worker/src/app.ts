import 'reflect-metadata';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { MediaTools } from '@clipit/media';
import {
  closeInOrder,
  connectEventBus,
  createLogger,
  EventPublisher,
  initMetrics,
  natsCheck,
  NestPinoLogger,
  redisCheck,
  withOverrides,
  type HealthCheck,
  type NatsConnection,
} from '@clipit/service-kit';
import { openStorage } from '@clipit/storage';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { MediaWorkerModule } from './app.module.js';
import { loadMediaWorkerConfig, type MediaWorkerConfig, type MediaWorkerConfigVariable } from './config.js';
import { ProcessVideoHandler } from './jobs/process-video.handler.js';
import { removeDeadWorkDirs } from './jobs/work-dirs.js';
import { MediaQueueWorker } from './worker/media-queue.worker.js';

/** Variables to set over the environment's, e.g. a test's Redis prefix, stream and free port. */
export type MediaWorkerConfigOverrides = Partial<Record<MediaWorkerConfigVariable, string | number | boolean>>;

export interface MediaWorkerApp {
  app: NestFastifyApplication;
  config: MediaWorkerConfig;
  logger: Logger;
  httpPort: number;
  /** Where this worker's per-job scratch folders go. */
  tmpRoot: string;
  /** Stops taking jobs, lets running ones finish (up to MEDIA_WORKER_DRAIN_SECONDS), then closes HTTP and NATS. Idempotent. */
  close(): Promise<void>;
}

const SERVICE = 'media-worker';
const FFMPEG_CHECK_EVERY_MS = 60_000;

/** Readiness of ffmpeg/ffprobe, run at most once a minute (each check starts two processes). */
function ffmpegCheck(tools: MediaTools): HealthCheck {
  let last: { at: number; error?: Error } | undefined;
  return {
    name: 'ffmpeg',
    check: async () => {
      if (!last || Date.now() - last.at > FFMPEG_CHECK_EVERY_MS) {
        last = { at: Date.now() };
        await tools.check().catch((err: Error) => (last!.error = err));
      }
      if (last.error) throw last.error;
    },
  };
}

/**
 * Starts the media worker: checks ffmpeg/ffprobe, connects NATS (event streams ensured) and storage,
 * serves /health and /metrics over HTTP, and takes process-video jobs from the media queue in Redis.
 * No database. Used by main.ts and by tests, which pass isolated names and a free port.
 */
export async function bootstrapMediaWorker(overrides: MediaWorkerConfigOverrides = {}): Promise<MediaWorkerApp> {
  const config = loadMediaWorkerConfig(withOverrides(overrides));
  const logger = createLogger(SERVICE, config.LOG_LEVEL);
  initMetrics(SERVICE);

  // Opened in this order, closed in the reverse: the worker first (running jobs still publish
  // events), then HTTP, then NATS and the health check's Redis connection.
  let nc: NatsConnection | undefined;
  let redis: Redis | undefined;
  let app: NestFastifyApplication | undefined;
  let worker: MediaQueueWorker | undefined;
  const shutdown = () => {
    const [w, a, n, r] = [worker, app, nc, redis];
    return closeInOrder(
      [
        ['media queue worker', w && (() => w.close(config.MEDIA_WORKER_DRAIN_SECONDS * 1000))],
        ['http server', a && (() => a.close())],
        ['nats', n && (() => n.drain())],
        ['redis', r && (async () => r.disconnect())],
      ],
      logger,
    );
  };

  try {
    const tools = MediaTools.fromConfig(config, { probeTimeoutMs: 60_000, transcodeTimeoutMs: config.MEDIA_WORKER_TRANSCODE_TIMEOUT_SECONDS * 1000 });
    // A worker without ffmpeg would fail every job: refuse to start instead, saying which binary is missing.
    await tools.check();

    const tmpRoot = resolve(config.MEDIA_WORKER_TMP_DIR ?? tmpdir());
    await mkdir(tmpRoot, { recursive: true });
    const swept = await removeDeadWorkDirs(tmpRoot);
    if (swept.length > 0) logger.info({ folders: swept }, 'removed scratch folders of dead workers');

    const names = { stream: config.EVENTS_STREAM, subjectPrefix: config.EVENTS_SUBJECT_PREFIX };
    nc = await connectEventBus(config.NATS_URL, SERVICE, names);
    const storage = await openStorage(config);

    const handler = new ProcessVideoHandler({ storage, tools, events: new EventPublisher({ nc, names }), logger, tmpRoot });
    const queueWorker = new MediaQueueWorker({
      redisUrl: config.REDIS_URL,
      redisKeyPrefix: config.REDIS_KEY_PREFIX,
      handler,
      logger,
      concurrency: config.MEDIA_WORKER_CONCURRENCY,
      lockDurationMs: config.MEDIA_WORKER_LOCK_DURATION_MS,
      stalledIntervalMs: config.MEDIA_WORKER_STALLED_INTERVAL_MS,
      maxStalledCount: config.MEDIA_WORKER_MAX_STALLED_COUNT,
    });
    worker = queueWorker;

    // Its own small connection: readiness must not queue behind the worker's blocking reads.
    redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    redis.on('error', () => undefined); // reported by the readiness check
    await redis.connect().catch(() => undefined);
    const checks: HealthCheck[] = [
      natsCheck(nc),
      redisCheck(redis),
      {
        name: 'worker',
        check: async () => {
          if (!queueWorker.isRunning()) throw new Error('not taking jobs');
        },
      },
      ffmpegCheck(tools),
    ];
    app = await NestFactory.create<NestFastifyApplication>(MediaWorkerModule.forRoot(checks), new FastifyAdapter(), {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    await app.listen({ port: config.MEDIA_WORKER_HTTP_PORT, host: config.MEDIA_WORKER_BIND_HOST });

    await queueWorker.start();
    logger.info({ httpPort: config.MEDIA_WORKER_HTTP_PORT, concurrency: config.MEDIA_WORKER_CONCURRENCY, tmpRoot }, 'media-worker ready');
    let closing: Promise<void> | undefined;
    return {
      app,
      config,
      logger,
      httpPort: config.MEDIA_WORKER_HTTP_PORT,
      tmpRoot,
      close: () => (closing ??= shutdown()),
    };
  } catch (err) {
    await shutdown();
    throw err;
  }
}
