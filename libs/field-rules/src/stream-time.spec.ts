import { checkStreamTime, parseIsoDateTime, STREAM_TIME_MESSAGES } from './stream-time.js';

const now = new Date('2026-11-25T12:00:00.000Z');

describe('stream time', () => {
  it('takes a zoned ISO date and time, in any zone, and null to clear it', () => {
    expect(checkStreamTime('2026-12-01T18:30:00.000Z', now)).toEqual({ ok: true, value: new Date('2026-12-01T18:30:00.000Z') });
    expect(checkStreamTime('2026-12-01T18:30+02:00', now)).toEqual({ ok: true, value: new Date('2026-12-01T16:30:00.000Z') });
    expect(checkStreamTime(' 2026-12-01T18:30:15Z ', now)).toEqual({ ok: true, value: new Date('2026-12-01T18:30:15.000Z') });
    expect(checkStreamTime(null, now)).toEqual({ ok: true, value: null });
  });

  it('refuses what is not a zoned date and time, naming the format', () => {
    for (const raw of [
      'tomorrow',
      '',
      '2026-12-01',
      '2026-12-01T18:30:00',
      '2026-13-45T18:30:00Z',
      '2026-02-30T10:00:00Z',
      1764000000000,
      {},
      undefined,
    ]) {
      expect(checkStreamTime(raw, now)).toEqual({ ok: false, error: STREAM_TIME_MESSAGES.invalid });
    }
  });

  it('refuses a time gone by, past a few minutes of grace, and one more than a year ahead', () => {
    expect(checkStreamTime('2026-11-25T11:56:00Z', now).ok).toBe(true);
    expect(checkStreamTime('2026-11-25T11:54:59Z', now)).toEqual({ ok: false, error: STREAM_TIME_MESSAGES.past });
    expect(checkStreamTime('2027-11-25T12:00:00Z', now).ok).toBe(true);
    expect(checkStreamTime('2027-11-27T12:00:00Z', now)).toEqual({ ok: false, error: STREAM_TIME_MESSAGES.tooFar });
  });

  it('parses leap days only in leap years', () => {
    expect(parseIsoDateTime('2028-02-29T10:00:00Z')).toEqual(new Date('2028-02-29T10:00:00Z'));
    expect(parseIsoDateTime('2027-02-29T10:00:00Z')).toBeUndefined();
  });
});
