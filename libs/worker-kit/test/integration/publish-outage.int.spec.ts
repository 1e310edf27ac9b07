// The kit's worker against a private NATS (libs/testing's fault servers) that is down when a job decides:
// the job keeps its decision, is delayed with the publish backoff however often the publication fails (no
// attempt used, nothing decided again), readiness says 503, and once NATS is back the event is stored
// once and the job completes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startNatsServer, waitFor, type PrivateServer } from '@clipit/testing';
import {
  KIT_TEST_JOB,
  KitTestHandler,
  kitTestHarness,
  type KitTestApp,
  type KitTestHarness,
  type KitTestJob,
} from '../support/kit-test-worker.js';

describe('a worker on the kit while NATS is down (private NATS, real Redis)', () => {
  let nats: PrivateServer;
  let h: KitTestHarness;
  let worker: KitTestApp;

  beforeAll(async () => {
    nats = await startNatsServer();
    h = await kitTestHarness(nats.url).start();
    worker = await h.startWorker({
      KIT_TEST_WORKER_PUBLISH_TIMEOUT_MS: 300,
      KIT_TEST_WORKER_PUBLISH_RETRY_MIN_MS: 100,
      KIT_TEST_WORKER_PUBLISH_RETRY_MAX_MS: 400,
      LOG_LEVEL: 'error',
    });
  });

  afterAll(async () => {
    if (nats && nats.process.state !== 'running') await nats.process.start();
    await h?.stop();
    await nats?.close();
  });

  it('keeps the decided job until JetStream stores its event, then completes it, having decided once', async () => {
    await nats.process.kill();
    const job: KitTestJob = { videoId: randomUUID(), submissionId: randomUUID(), holdMs: 0 };
    await h.queue.add(KIT_TEST_JOB, job, { jobId: job.videoId });

    // More failed publications than the job has attempts: none of them counted as one.
    const delayed = await waitFor(
      async () => {
        const j = await h.queue.getJob(job.videoId);
        return ((j?.progress as { publishFailures?: number } | undefined)?.publishFailures ?? 0) > 2 ? j : undefined;
      },
      20_000,
      'publications to fail more often than the job has attempts',
    );
    expect(delayed.attemptsMade).toBe(0);
    expect(worker.get(KitTestHandler).decisions).toBe(1);
    const ready = await fetch(`${worker.httpUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks['nats']).toMatch(/^down/);
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/kittest_jobs_total\{result="publish-delayed"[^}]*\} [1-9]/);

    await nats.process.start();
    await h.waitForState(job.videoId, 'completed');
    expect((await h.queue.getJob(job.videoId))!.attemptsMade).toBe(1);
    expect(worker.get(KitTestHandler).decisions).toBe(1);
    const stored = () => h.storedEventsWhere((e) => e?.data.videoId === job.videoId).catch(() => undefined);
    expect(await waitFor(stored, 10_000, 'the stream to answer')).toBe(1);
  });
});
