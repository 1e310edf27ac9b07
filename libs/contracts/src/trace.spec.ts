import { readdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { eventEnvelopeSchema } from './events/envelope.js';
import { TRACEPARENT_PATTERN, TRACESTATE_MAX_LENGTH, traceFieldsSchema } from './trace.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const MALFORMED = [
  '',
  '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7',
  'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  42,
];

const envelope = {
  id: '0f4b2a9e-1111-4222-8333-0123456789ab',
  type: 'media.failed',
  source: 'media-worker',
  occurredAt: '2026-11-30T10:00:00.000Z',
  correlationId: 'corr-1',
  data: { any: 'thing' },
};

describe('trace fields', () => {
  it('takes a W3C traceparent of 55 characters and nothing else', () => {
    expect(TRACEPARENT).toHaveLength(55);
    expect(TRACEPARENT_PATTERN.test(TRACEPARENT)).toBe(true);
    for (const bad of MALFORMED) expect(TRACEPARENT_PATTERN.test(String(bad))).toBe(false);
  });

  it('drops a malformed value instead of refusing the whole', () => {
    for (const bad of MALFORMED) expect(traceFieldsSchema.parse({ traceparent: bad }).traceparent).toBeUndefined();
    expect(traceFieldsSchema.parse({ tracestate: 'x'.repeat(TRACESTATE_MAX_LENGTH + 1) }).tracestate).toBeUndefined();
    expect(traceFieldsSchema.parse({ traceparent: TRACEPARENT, tracestate: 'clipit=1' })).toEqual({
      traceparent: TRACEPARENT,
      tracestate: 'clipit=1',
    });
  });
});

describe('the event envelope with trace fields', () => {
  it('still parses an envelope from before them, adding nothing', () => {
    const parsed = eventEnvelopeSchema.parse(envelope);
    expect(parsed).toStrictEqual(envelope);
    expect(JSON.stringify(parsed)).not.toContain('trace');
  });

  it('keeps a well-formed context', () => {
    expect(eventEnvelopeSchema.parse({ ...envelope, traceparent: TRACEPARENT, tracestate: 'a=b' })).toMatchObject({
      traceparent: TRACEPARENT,
      tracestate: 'a=b',
    });
  });

  it('drops malformed trace fields and keeps the event (never a dead letter)', () => {
    for (const bad of MALFORMED) {
      const parsed = eventEnvelopeSchema.parse({ ...envelope, traceparent: bad, tracestate: 'x'.repeat(TRACESTATE_MAX_LENGTH + 1) });
      expect(parsed.traceparent).toBeUndefined();
      expect(parsed.tracestate).toBeUndefined();
      expect(parsed.id).toBe(envelope.id);
    }
  });
});

describe('every job schema of the queues carries the trace fields', () => {
  const dir = new URL('./queues/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));

  it.each(files)('%s', async (file) => {
    const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    const schemas = Object.entries(module).filter(([name, value]) => name.endsWith('JobSchema') && value instanceof z.ZodObject);
    expect(schemas.length).toBeGreaterThan(0);
    for (const [name, schema] of schemas as Array<[string, z.ZodObject]>) {
      const missing = ['traceparent', 'tracestate'].filter((key) => !(key in schema.shape));
      expect({ schema: name, missing }).toEqual({ schema: name, missing: [] });
      // Lenient, as the envelope's: a malformed context never makes a job unusable.
      const traceparent = schema.shape['traceparent'] as z.ZodType;
      expect(traceparent.parse('not a traceparent')).toBeUndefined();
      expect(traceparent.parse(TRACEPARENT)).toBe(TRACEPARENT);
    }
  });
});
