// The media queue's producer through a real Redis outage (a private Redis of the test's, killed and
// started again): queueing fails at once with a clear error while Redis is down, works again within
// 2 s of Redis answering (not on BullMQ's own reconnect schedule, which has grown to 8-20 s after a 12 s
// outage), and the outage is logged
// once each way as JSON by the service's logger, with nothing written to the console around it (no raw
// `Error: connect ECONNREFUSED` lines from BullMQ or ioredis between the JSON log lines).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startRedisServer, type PrivateServer, captureConsole } from '@clipit/testing';
import { pino } from 'pino';
import { createBullMediaQueue } from '../../src/media-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const job = () => ({ videoId: randomUUID(), submissionId: randomUUID(), sourceKey: `uploads/${randomUUID()}`, contentType: 'video/mp4' });

describe('the submissions media queue while Redis is down', () => {
  let server: PrivateServer;
  const logLines: string[] = [];
  let capture: ReturnType<typeof captureConsole> = { lines: [], restore: () => undefined };
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });

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

  it('fails fast while down, queues again within 2 s of Redis coming back, and logs only JSON, once each way', async () => {
    const queue = await createBullMediaQueue(
      { REDIS_URL: server.url, REDIS_KEY_PREFIX: `clipit:outage-${randomUUID().slice(0, 8)}:` },
      logger,
    );
    try {
      await queue.enqueue(job());

      await server.process.kill();
      await sleep(200);
      const t0 = Date.now();
      await expect(queue.enqueue(job())).rejects.toThrow(/Stream isn't writeable|Connection is closed|ECONNREFUSED/);
      expect(Date.now() - t0).toBeLessThan(1000);
      await expect(queue.healthCheck.check()).rejects.toThrow();
      // Down long enough for many reconnect attempts, each an error event, and for BullMQ's default delay to grow.
      await sleep(12_000);

      await server.process.start();
      const back = Date.now();
      let queued = false;
      while (!queued && Date.now() - back < 2000) {
        try {
          await queue.enqueue(job());
          queued = true;
        } catch {
          await sleep(50);
        }
      }
      expect(queued).toBe(true);
      // The readiness check's own connection is back within the same 2 s (it may trail the queue's by a few ms).
      let healthy = false;
      while (!healthy && Date.now() - back < 2000) {
        try {
          await queue.healthCheck.check();
          healthy = true;
        } catch {
          await sleep(50);
        }
      }
      expect(healthy).toBe(true);
    } finally {
      // A queue that never reconnected cannot QUIT; the failure that matters is the one above.
      await queue.close().catch(() => undefined);
    }

    expect(capture.lines).toEqual([]);
    const entries = logLines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.map((e) => `${e.level} ${e.msg}`)).toEqual([
      '40 media queue: Redis connection lost; reconnecting',
      '30 media queue: Redis connection back',
    ]);
  });
});
