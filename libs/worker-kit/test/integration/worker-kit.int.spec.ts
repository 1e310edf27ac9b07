// The kit's worker against the real Redis (BullMQ) and NATS JetStream, started by the kit's one start-up:
// a job end to end, a decision an earlier run kept stated again without deciding, unusable data refused at
// once, and a job stopped by shutdown put back with no attempt used. Readiness and job metrics on the way.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deterministicEventId } from '@clipit/service-kit';
import { isChildOf, startInMemoryTracing, waitFor, type InMemoryTracing, type ReadableSpan, type ReceivedEvent } from '@clipit/testing';
import { SpanKind } from '@opentelemetry/api';
import {
  KIT_TEST_JOB,
  KitTestHandler,
  kitTestHarness,
  refusal,
  type KitTestApp,
  type KitTestJob,
  type RefusedEvent,
} from '../support/kit-test-worker.js';

const newJob = (holdMs = 0): KitTestJob => ({ videoId: randomUUID(), submissionId: randomUUID(), holdMs });

describe('a worker on the kit (real Redis and JetStream)', () => {
  const h = kitTestHarness();
  let worker: KitTestApp;
  const eventOf = (job: KitTestJob): Promise<ReceivedEvent<RefusedEvent>> =>
    h.waitForEventWhere((e) => e.data.videoId === job.videoId, 20_000, `the event of ${job.videoId}`);

  beforeAll(async () => {
    await h.start();
    worker = await h.startWorker();
  });

  afterAll(async () => {
    await h.stop();
  });

  it('is ready once NATS, Redis and its queue worker are, and says which', async () => {
    const ready = await fetch(`${worker.httpUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { nats: 'ok', redis: 'ok', worker: 'ok' } });
  });

  it('runs a job end to end: decides once, keeps the decision in the job, states it with its id as the message id, completes', async () => {
    const decisions = worker.get(KitTestHandler).decisions;
    const job = newJob();
    await h.queue.add(KIT_TEST_JOB, job, { jobId: job.videoId });
    const { envelope, msgId, subject } = await eventOf(job);
    expect(subject).toBe(`${h.names.subjectPrefix}.media-worker.media.failed.v1`);
    expect(envelope).toMatchObject({
      id: deterministicEventId('media.failed', job.videoId),
      data: { videoId: job.videoId, code: 'invalid' },
    });
    expect(msgId).toBe(envelope.id);
    await h.waitForState(job.videoId, 'completed');
    const done = (await h.queue.getJob(job.videoId))!;
    expect(done.returnvalue).toEqual({ eventId: envelope.id });
    expect(done.progress).toEqual({ stage: 'decided', event: envelope });
    expect(worker.get(KitTestHandler).decisions).toBe(decisions + 1);
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/kittest_jobs_total\{result="stated"[^}]*\} [1-9]/);
    expect(metrics).toContain('kittest_job_duration_seconds_bucket');
  });

  it('states the decision an earlier run kept (a worker that died after deciding) without deciding again', async () => {
    const decisions = worker.get(KitTestHandler).decisions;
    const job = newJob();
    // Queued for later, given the kept decision, then let go: as if its first worker died after deciding.
    const queued = await h.queue.add(KIT_TEST_JOB, job, { jobId: job.videoId, delay: 60_000 });
    const kept = refusal(job);
    await queued.updateProgress(kept);
    await queued.promote();
    const { envelope } = await eventOf(job);
    expect(envelope).toEqual(kept.event);
    await h.waitForState(job.videoId, 'completed');
    expect(worker.get(KitTestHandler).decisions).toBe(decisions);
    expect(await h.storedEventsWhere((e) => e?.data.videoId === job.videoId)).toBe(1);
  });

  it('refuses unusable job data at once, without retrying it', async () => {
    const jobId = randomUUID();
    await h.queue.add(KIT_TEST_JOB, { videoId: 'not-a-uuid' } as unknown as KitTestJob, { jobId });
    await h.waitForState(jobId, 'failed');
    const failed = (await h.queue.getJob(jobId))!;
    expect(failed.attemptsMade).toBe(1);
    expect(failed.failedReason).toMatch(/is not a refuse-video job: videoId/);
    const metrics = await (await fetch(`${worker.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/kittest_jobs_total\{result="rejected"[^}]*\} 1/);
  });

  describe('with tracing on (ADR 0054)', () => {
    let tracing: InMemoryTracing;
    beforeAll(async () => {
      tracing = await startInMemoryTracing();
    });
    afterAll(() => tracing.stop());

    it('runs a job added in a traced request in a process span under its send, and the event it states continues the trace', async () => {
      const traced = newJob();
      const untraced = newJob();
      await h.queue.add(KIT_TEST_JOB, untraced, { jobId: untraced.videoId });
      const root = await tracing.traced(async (span) => {
        await h.queue.add(KIT_TEST_JOB, traced, { jobId: traced.videoId });
        return span;
      });
      const [{ envelope: event }, { envelope: untracedEvent }] = await Promise.all([eventOf(traced), eventOf(untraced)]);
      const subject = `${h.names.subjectPrefix}.media-worker.media.failed.v1`;
      const one = async (name: string): Promise<ReadableSpan> => (await waitFor(() => tracing.named(name)[0], 10_000, `the span ${name}`))!;
      const send = await one('send kittest');
      const process = await one('process kittest');
      const publish = await one(`send ${subject}`);

      expect(send.kind).toBe(SpanKind.PRODUCER);
      expect(isChildOf(send, root)).toBe(true);
      expect(send.attributes).toMatchObject({ 'messaging.system': 'bullmq', 'messaging.message.id': traced.videoId });
      const data = (await h.queue.getJob(traced.videoId))!.data as KitTestJob & { traceparent?: string };
      expect(data.traceparent).toBe(`00-${root.spanContext().traceId}-${send.spanContext().spanId}-01`);

      expect(process.kind).toBe(SpanKind.CONSUMER);
      expect(isChildOf(process, send)).toBe(true);
      expect(process.attributes).toMatchObject({
        'messaging.message.id': traced.videoId,
        'clipit.job.attempt': 1,
        'clipit.outcome': 'stated',
      });
      // The event was built inside the job's span (kept in the job), and published under it.
      expect(event.traceparent).toContain(process.spanContext().spanId);
      expect(isChildOf(publish, process)).toBe(true);
      expect(publish.attributes).toMatchObject({ 'messaging.message.id': event.id });

      // No root spans of the kit's own: the job added outside a traced request made none, and its event carries none.
      expect(untracedEvent).not.toHaveProperty('traceparent');
      expect(tracing.spans().filter((s) => s.spanContext().traceId !== root.spanContext().traceId)).toEqual([]);
      expect(tracing.spans()).toHaveLength(4);
    });
  });

  it('puts a job still running after the drain back in the queue on shutdown, with no attempt used, for the next worker', async () => {
    await worker.close();
    const impatient = await h.startWorker({ KIT_TEST_WORKER_DRAIN_SECONDS: 0 });
    const job = newJob(30_000);
    await h.queue.add(KIT_TEST_JOB, job, { jobId: job.videoId });
    await h.waitForState(job.videoId, 'active');
    await impatient.close();
    const back = (await h.queue.getJob(job.videoId))!;
    expect(await back.getState()).toBe('waiting');
    expect(back.attemptsMade).toBe(0);
    expect(h.eventsWhere((e) => e.data.videoId === job.videoId)).toEqual([]);
    await back.updateData({ ...job, holdMs: 0 });
    const next = await h.startWorker();
    await eventOf(job);
    await h.waitForState(job.videoId, 'completed');
    expect(next.get(KitTestHandler).decisions).toBe(1);
  });
});
