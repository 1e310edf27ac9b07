// The media worker's BullMQ Worker through a real Redis outage (a private Redis of the test's, killed
// and started again): it takes jobs again within a few seconds of Redis answering, says so once each way
// in its JSON log, and nothing reaches the console (no raw `Error: connect ECONNREFUSED` lines). The job
// handler is a stand-in that answers at once: what is tried here is the queue connection, not ffmpeg.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createMediaQueue, enqueueProcessVideo, type MediaQueue } from '@clipit/media-queue';
import { startRedisServer, type PrivateServer, captureConsole } from '@clipit/testing';
import { pino } from 'pino';
import type { FingerprintVideoHandler } from '../../src/jobs/fingerprint-video.handler.js';
import type { ProcessVideoHandler } from '../../src/jobs/process-video.handler.js';
import { MediaQueueWorker } from '../../src/worker/media-queue.worker.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const job = () => ({ videoId: randomUUID(), submissionId: randomUUID(), sourceKey: `uploads/${randomUUID()}`, contentType: 'video/mp4' });

describe('the media worker while Redis is down', () => {
  let server: PrivateServer;
  const logLines: string[] = [];
  let capture: ReturnType<typeof captureConsole> = { lines: [], restore: () => undefined };
  const processed: string[] = [];

  beforeAll(async () => {
    server = await startRedisServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  beforeEach(() => {
    // Anything written to the console or straight to stdout/stderr is what `npm start` would show raw.
    capture = captureConsole();
  });

  afterEach(() => capture.restore());

  it('takes jobs again soon after Redis is back and logs the outage once each way, as JSON only', async () => {
    const prefix = `clipit:worker-outage-${randomUUID().slice(0, 8)}:`;
    const handler = {
      process: async (j: { id?: string }) => {
        processed.push(String(j.id));
        return { type: 'media.processed', id: randomUUID(), data: { playbackId: 'p' } };
      },
      giveUp: async () => undefined,
    } as unknown as ProcessVideoHandler;
    const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
    const worker = new MediaQueueWorker({
      connection: { url: server.url },
      redisKeyPrefix: prefix,
      handler,
      fingerprints: handler as unknown as FingerprintVideoHandler,
      logger,
      concurrency: 1,
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      maxStalledCount: 1,
      publishRetryMinMs: 100,
      publishRetryMaxMs: 1000,
    });
    let queue: MediaQueue | undefined;
    try {
      await worker.start();
      await server.process.kill();
      await sleep(4000);
      await server.process.start();
      const back = Date.now();

      queue = createMediaQueue({ connection: { url: server.url }, prefix });
      await queue.waitUntilReady();
      const { videoId } = job();
      await enqueueProcessVideo(queue, { ...job(), videoId });
      while (!processed.includes(videoId) && Date.now() - back < 5000) await sleep(50);
      expect(processed).toContain(videoId);
    } finally {
      await queue?.close().catch(() => undefined);
      await worker.close(1000).catch(() => undefined);
    }

    expect(capture.lines).toEqual([]);
    const entries = logLines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.filter((e) => e.msg.startsWith('media queue worker:')).map((e) => `${e.level} ${e.msg}`)).toEqual([
      '40 media queue worker: Redis connection lost; reconnecting',
      '30 media queue worker: Redis connection back',
    ]);
  });
});
