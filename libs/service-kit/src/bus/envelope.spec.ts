import { randomUUID } from 'node:crypto';
import { ZodError } from 'zod';
import { runWithCorrelation } from '../context/correlation.js';
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
