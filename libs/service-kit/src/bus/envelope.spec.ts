import { randomUUID } from 'node:crypto';
import { eventEnvelopeSchema } from '@clipit/contracts';
import { isChildOf, startInMemoryTracing, type InMemoryTracing } from '@clipit/testing';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ZodError } from 'zod';
import { runWithCorrelation } from '../context/correlation.js';
import { carriedTraceContext, inSpan, traceFieldsOf } from '../context/trace-context.js';
import { buildEventEnvelope, deterministicEventId } from './envelope.js';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('deterministicEventId', () => {
  it('is a version-5 style UUID, the same for the same parts', () => {
    const videoId = randomUUID();
    const id = deterministicEventId('media.processed', videoId);
    expect(id).toMatch(UUID_V5);
    expect(deterministicEventId('media.processed', videoId)).toBe(id);
  });

  it('differs when any part differs, and encodes the parts unambiguously', () => {
    const videoId = randomUUID();
    expect(deterministicEventId('media.processed', videoId)).not.toBe(deterministicEventId('media.failed', videoId));
    expect(deterministicEventId('media.processed', videoId)).not.toBe(deterministicEventId('media.processed', randomUUID()));
    expect(deterministicEventId('a', 'bc')).not.toBe(deterministicEventId('ab', 'c'));
    expect(deterministicEventId('a,b')).not.toBe(deterministicEventId('a', 'b'));
  });

  it('is RFC 4122 UUID v5 of the JSON-encoded parts in the CLIP IT namespace (pinned: ids must not change between versions)', () => {
    // Python: uuid.uuid5(uuid.UUID(EVENT_ID_NAMESPACE), '["x"]')
    expect(deterministicEventId('x')).toBe('48324fe0-590f-5c13-98f9-8035be8d2a77');
  });

  it('needs at least one part', () => {
    expect(() => deterministicEventId()).toThrow();
  });
});

describe('buildEventEnvelope', () => {
  const data = { videoId: randomUUID(), submissionId: randomUUID(), code: 'too-long' as const, reason: 'Video Too Long' };

  it('fills the envelope from the catalog and the current correlation id', () => {
    const envelope = runWithCorrelation('corr-1', () => buildEventEnvelope('media.failed', data));
    expect(envelope).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'media.failed',
      source: 'media-worker',
      occurredAt: expect.any(String),
      correlationId: 'corr-1',
      data,
    });
  });

  it('takes a given id, correlation id and time', () => {
    const id = deterministicEventId('media.failed', data.videoId);
    const at = new Date('2026-01-02T03:04:05.000Z');
    expect(buildEventEnvelope('media.failed', data, { id, correlationId: 'c', occurredAt: at })).toMatchObject({
      id,
      correlationId: 'c',
      occurredAt: '2026-01-02T03:04:05.000Z',
    });
  });

  it('refuses data that does not match the schema, and an id that is not a UUID', () => {
    expect(() => buildEventEnvelope('media.failed', { ...data, code: 'boom' as never })).toThrow(ZodError);
    expect(() => buildEventEnvelope('media.failed', data, { id: 'video-1' })).toThrow(/must be a UUID/);
  });
});

describe('the trace context in the envelope (ADR 0054)', () => {
  const data = { videoId: randomUUID(), submissionId: randomUUID(), code: 'too-long' as const, reason: 'Video Too Long' };

  it('writes nothing while tracing is off: the API is a no-op, even inside what would be a span', () => {
    const envelope = trace.getTracer('spec').startActiveSpan('no-op', (span) => {
      span.end();
      return buildEventEnvelope('media.failed', data);
    });
    expect(envelope).not.toHaveProperty('traceparent');
    expect(envelope).not.toHaveProperty('tracestate');
    expect(traceFieldsOf()).toEqual({});
    expect(carriedTraceContext({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' })).toBeUndefined();
  });

  describe('with tracing on', () => {
    let tracing: InMemoryTracing;
    beforeAll(async () => {
      tracing = await startInMemoryTracing();
    });
    afterAll(() => tracing.stop());
    beforeEach(() => tracing.reset());

    it('carries the active span’s context, and none outside a span', async () => {
      const { span, envelope } = await tracing.traced((s) => ({ span: s, envelope: buildEventEnvelope('media.failed', data) }));
      const { traceId, spanId } = span.spanContext();
      expect(envelope.traceparent).toBe(`00-${traceId}-${spanId}-01`);
      expect(eventEnvelopeSchema.parse(JSON.parse(JSON.stringify(envelope))).traceparent).toBe(envelope.traceparent);
      expect(buildEventEnvelope('media.failed', data)).not.toHaveProperty('traceparent');
    });

    it('gives the consumer its producer as parent, with no span for an envelope that carries no valid context', async () => {
      const producer = await tracing.traced((s) => s);
      const parent = carriedTraceContext(traceFieldsOf(trace.setSpan(ROOT_CONTEXT, producer)));
      expect(parent).toBeDefined();
      const outcome = await inSpan(parent!, 'process it', { kind: SpanKind.CONSUMER }, async () => traceFieldsOf());
      const [process] = tracing.named('process it');
      expect(isChildOf(process!, producer)).toBe(true);
      // What the consumer appends inside its span continues from it.
      expect(outcome.traceparent).toContain(process!.spanContext().spanId);
      expect(carriedTraceContext({})).toBeUndefined();
      expect(carriedTraceContext({ traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' })).toBeUndefined();
    });

    it('records a failure on the span and throws it on', async () => {
      const parent = await tracing.traced(() => carriedTraceContext(traceFieldsOf())!);
      await expect(
        inSpan(parent, 'failing', { kind: SpanKind.INTERNAL }, () => Promise.reject(new Error('handler broke'))),
      ).rejects.toThrow('handler broke');
      const [failing] = tracing.named('failing');
      expect(failing!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'handler broke' });
    });
  });
});
