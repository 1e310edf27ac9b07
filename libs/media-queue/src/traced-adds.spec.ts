import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { isChildOf, startInMemoryTracing, type InMemoryTracing } from '@clipit/testing';
import type { Queue } from 'bullmq';
import { traceAdds } from './traced-adds.js';

type Data = { videoId: string; traceparent?: string };
interface Added {
  name: string;
  data: Data;
}

/** BullMQ's add and addBulk as far as traceAdds reaches them: what each was given is recorded (the Redis side is BullMQ's). */
function recordingQueue(fail = false) {
  const added: Added[] = [];
  const queue = {
    name: 'media',
    add: async (name: string, data: Data) => {
      if (fail) throw new Error('Redis is away');
      added.push({ name, data });
      return { id: data.videoId };
    },
    addBulk: async (jobs: Array<{ name: string; data: Data }>) => {
      added.push(...jobs.map(({ name, data }) => ({ name, data })));
      return jobs.map((j) => ({ id: j.data.videoId }));
    },
  };
  traceAdds(queue as unknown as Queue<Data, unknown, string>);
  return { queue: queue as unknown as Queue<Data, unknown, string>, added };
}

describe('a queue’s adds carry the producer’s trace context in the job data (ADR 0054)', () => {
  let tracing: InMemoryTracing;
  beforeAll(async () => {
    tracing = await startInMemoryTracing();
  });
  afterAll(() => tracing.stop());
  beforeEach(() => tracing.reset());

  it('adds the data as it is, with no span, outside a traced request (a scheduler, a reconciler)', async () => {
    const { queue, added } = recordingQueue();
    const data = { videoId: 'v1' };
    await queue.add('process-video', data, { jobId: 'v1' });
    await queue.addBulk([{ name: 'process-video', data: { videoId: 'v2' } }]);
    expect(added[0]!.data).toBe(data);
    expect(added.map((a) => a.data)).toEqual([{ videoId: 'v1' }, { videoId: 'v2' }]);
    expect(tracing.spans()).toEqual([]);
  });

  it('adds in a `send <queue>` span under the request, whose context the job data carries', async () => {
    const { queue, added } = recordingQueue();
    const root = await tracing.traced(async (span) => {
      await queue.add('process-video', { videoId: 'v1' }, { jobId: 'v1' });
      return span;
    });
    const [send] = tracing.named('send media');
    expect(send!.kind).toBe(SpanKind.PRODUCER);
    expect(isChildOf(send!, root)).toBe(true);
    expect(send!.attributes).toMatchObject({
      'messaging.system': 'bullmq',
      'messaging.destination.name': 'media',
      'messaging.message.id': 'v1',
      'clipit.job.name': 'process-video',
    });
    expect(added[0]!.data).toEqual({ videoId: 'v1', traceparent: `00-${root.spanContext().traceId}-${send!.spanContext().spanId}-01` });
  });

  it('gives every job of a bulk add the one span’s context', async () => {
    const { queue, added } = recordingQueue();
    await tracing.traced(() =>
      queue.addBulk([
        { name: 'process-video', data: { videoId: 'v1' } },
        { name: 'process-video', data: { videoId: 'v2' } },
      ]),
    );
    const [send] = tracing.named('send media');
    expect(send!.attributes['messaging.batch.message_count']).toBe(2);
    expect(added.map((a) => a.data.traceparent)).toEqual([expect.stringContaining(send!.spanContext().spanId), expect.any(String)]);
    expect(added[0]!.data.traceparent).toBe(added[1]!.data.traceparent);
  });

  it('records a failed add on its span', async () => {
    const { queue } = recordingQueue(true);
    await expect(tracing.traced(() => queue.add('process-video', { videoId: 'v1' }))).rejects.toThrow('Redis is away');
    expect(tracing.named('send media')[0]!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Redis is away' });
  });
});
