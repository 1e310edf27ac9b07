// The worker against a private NATS (libs/testing's fault harness) killed while a batch is fetched: the job
// keeps X's answer without using an attempt or asking X again, readiness is 503, and once NATS is back the
// event is stored once and the job completes. Shortened with a short publish timeout and backoff.
import { REFRESH_METRICS_JOB_OPTIONS } from '@clipit/media-queue';
import { startNatsServer, waitFor, type PrivateServer } from '@clipit/testing';
import type { MetricsWorkerApp } from '../../src/app.js';
import { recordedProgress } from '../../src/jobs/refresh-metrics.handler.js';
import { MetricsWorkerHarness } from '../support/worker-harness.js';

describe('metrics worker: NATS down when a batch has been fetched (private NATS, real Redis, the X stand-in)', () => {
  let nats: PrivateServer;
  let h: MetricsWorkerHarness;
  let worker: MetricsWorkerApp;

  beforeAll(async () => {
    nats = await startNatsServer();
    h = await new MetricsWorkerHarness(nats.url).start();
    worker = await h.startWorker({
      METRICS_WORKER_PUBLISH_TIMEOUT_MS: 300,
      METRICS_WORKER_PUBLISH_RETRY_MIN_MS: 100,
      METRICS_WORKER_PUBLISH_RETRY_MAX_MS: 400,
      LOG_LEVEL: 'error',
    });
  });

  afterAll(async () => {
    if (nats && nats.process.state !== 'running') await nats.process.start();
    await h?.stop();
    await nats?.close();
  });

  it('keeps the job (no attempt used, X asked once) until NATS takes the event, then completes it', async () => {
    await nats.process.kill();
    const job = await h.queueBatch(3);

    const decided = await waitFor(
      async () => {
        const j = await h.queue.getJob(job.batchId);
        const progress = j?.progress as { publishFailures?: number } | undefined;
        return (progress?.publishFailures ?? 0) > REFRESH_METRICS_JOB_OPTIONS.attempts ? j : undefined;
      },
      20_000,
      'the fetched batch to fail publishing more often than the job has attempts',
    );
    expect(recordedProgress(decided.progress)?.event?.data.posts.map((p) => p.submissionId)).toEqual(job.posts.map((p) => p.submissionId));
    expect(decided.attemptsMade).toBe(0);
    expect(h.x.requests.filter((r) => r.ids.includes(job.posts[0]!.externalId))).toHaveLength(1);
    const ready = await fetch(`${worker.httpUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks['nats']).toMatch(/^down/);

    await nats.process.start();
    await h.waitForState(job.batchId, 'completed');
    const done = (await h.queue.getJob(job.batchId))!;
    expect(done.attemptsMade).toBe(1);
    expect(done.returnvalue).toMatchObject({ eventId: recordedProgress(decided.progress)!.event!.id, found: 3 });
    expect(await waitFor(() => h.storedEventCount(job.batchId).catch(() => undefined), 10_000, 'the stream to answer')).toBe(1);
    expect(h.x.requests.filter((r) => r.ids.includes(job.posts[0]!.externalId))).toHaveLength(1);
    await waitFor(async () => ((await fetch(`${worker.httpUrl}/health/ready`)).status === 200 ? true : undefined), 10_000, 'ready again');
  });
});
