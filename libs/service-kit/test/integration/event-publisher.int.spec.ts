// EventPublisher against the real JetStream: the event id is the message id, so stating a fact twice stores it once.
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@clipit/contracts';
import { deleteEventStreams, isChildOf, isolatedNames, startInMemoryTracing, testInfra, type InMemoryTracing } from '@clipit/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ZodError } from 'zod';
import { deterministicEventId } from '../../src/bus/envelope.js';
import { connectNats, ensureEventStreams, type StreamNames } from '../../src/bus/jetstream.js';
import { EventPublisher } from '../../src/bus/publisher.js';

describe('EventPublisher (real NATS JetStream)', () => {
  let nc: NatsConnection;
  let names: StreamNames;
  let publisher: EventPublisher;

  beforeAll(async () => {
    const iso = isolatedNames('publisher');
    names = { stream: iso.stream, subjectPrefix: iso.subjectPrefix };
    nc = await connectNats(testInfra().natsUrl, 'test-publisher');
    await ensureEventStreams(nc, names);
    publisher = new EventPublisher({ nc, names });
  });

  afterAll(async () => {
    await deleteEventStreams(nc, names.stream);
    await nc.close();
  });

  const messages = async () => (await (await jetstreamManager(nc)).streams.info(names.stream)).state.messages;
  const failed = () => ({ videoId: randomUUID(), submissionId: randomUUID(), code: 'invalid' as const, reason: 'Invalid Video' });

  it('publishes a fact stated twice with the same deterministic id once', async () => {
    const before = await messages();
    const data = failed();
    const id = deterministicEventId('media.failed', data.videoId);
    const first = await publisher.publish('media.failed', data, { id });
    const second = await publisher.publish('media.failed', data, { id });
    const again = await publisher.publishEnvelope(first.envelope);
    expect([first.duplicate, second.duplicate, again.duplicate]).toEqual([false, true, true]);
    expect(second.seq).toBe(first.seq);
    expect(await messages()).toBe(before + 1);

    // What is stored: the envelope, on the type's subject, with the event id as Nats-Msg-Id.
    const msg = await (await jetstreamManager(nc)).streams.getMessage(names.stream, { seq: first.seq });
    expect(msg?.subject).toBe(`${names.subjectPrefix}.media-worker.media.failed.v1`);
    expect(msg?.header.get('Nats-Msg-Id')).toBe(id);
    expect(msg?.json<EventEnvelope>()).toEqual(first.envelope);
    expect(first.envelope).toMatchObject({ id, type: 'media.failed', source: 'media-worker', data });
  });

  it('stores facts with different ids separately (random ids by default)', async () => {
    const before = await messages();
    const data = failed();
    await publisher.publish('media.failed', data);
    await publisher.publish('media.failed', data);
    expect(await messages()).toBe(before + 2);
  });

  it('publishes nothing when the data does not match the schema, or a kept envelope was tampered with', async () => {
    const before = await messages();
    await expect(publisher.publish('media.failed', { ...failed(), code: 'nope' as never })).rejects.toThrow(ZodError);
    const { envelope } = await publisher.publish('media.failed', failed());
    await expect(publisher.publishEnvelope({ ...envelope, id: randomUUID(), data: { ...envelope.data, reason: '' } })).rejects.toThrow(
      ZodError,
    );
    expect(await messages()).toBe(before + 1);
  });

  it('fails when the stream does not exist rather than publishing nowhere', async () => {
    const lost = new EventPublisher({
      nc,
      names: { stream: `${names.stream}_MISSING`, subjectPrefix: `${names.subjectPrefix}x` },
      timeoutMs: 1000,
    });
    await expect(lost.publish('media.failed', failed())).rejects.toThrow();
  });

  describe('with tracing on (ADR 0054)', () => {
    let tracing: InMemoryTracing;
    beforeAll(async () => {
      tracing = await startInMemoryTracing();
    });
    afterAll(() => tracing.stop());

    it('publishes in a `send` span: under the active span for an envelope it builds, under the envelope’s own context for one built earlier', async () => {
      const subject = `${names.subjectPrefix}.media-worker.media.failed.v1`;
      const { root, built, kept } = await tracing.traced(async (span) => ({
        root: span,
        built: await publisher.publish('media.failed', failed()),
        kept: await publisher.publishEnvelope({ ...(await publisher.publish('media.failed', failed())).envelope, id: randomUUID() }),
      }));
      const sends = tracing.named(`send ${subject}`);
      expect(sends).toHaveLength(3);
      const [first] = sends;
      expect(isChildOf(first!, root)).toBe(true);
      // Built inside its send span: consumers' process spans hang under the send.
      expect(built.envelope.traceparent).toBe(`00-${root.spanContext().traceId}-${first!.spanContext().spanId}-01`);
      expect(first!.attributes).toMatchObject({ 'messaging.system': 'nats', 'messaging.message.id': built.envelope.id });
      // Published again as it was kept: its context unchanged, its send span under that context.
      const keptSend = sends.find((s) => s.attributes['messaging.message.id'] === kept.envelope.id)!;
      expect(kept.envelope.traceparent).toContain(keptSend.parentSpanContext!.spanId);

      tracing.reset();
      const untraced = await publisher.publish('media.failed', failed());
      expect(untraced.envelope).not.toHaveProperty('traceparent');
      await publisher.publishEnvelope({ ...untraced.envelope, id: randomUUID() });
      expect(tracing.spans()).toEqual([]);
    });
  });
});
