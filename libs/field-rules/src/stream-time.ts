// A streamer's next stream time (spec 02 §2.3 streaming tab, PATCH /api/users/stream-time): an ISO 8601
// date and time with its zone, or null to clear it. The dashboard's picker, the gateway and the social
// service check it alike.

/** Date, hours and minutes, optional seconds and fraction, and a zone (Z or ±hh:mm): a time without a zone is ambiguous. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A stream time this far in the past is still taken (a clock a little behind, a form sent a little late). */
export const STREAM_TIME_PAST_GRACE_MS = 5 * 60_000;
/** How far ahead a next stream time may be: a year. */
export const STREAM_TIME_MAX_AHEAD_MS = 366 * 24 * 3_600_000;

export const STREAM_TIME_MESSAGES = {
  invalid: 'Stream time must be a date and time with a time zone (ISO 8601), or null to clear it',
  past: 'Stream time must be in the future',
  tooFar: 'Stream time must be within a year',
} as const;

/** A date and time with its zone, or undefined when `raw` is not one (or names a day that does not exist). */
export function parseIsoDateTime(raw: string): Date | undefined {
  const value = raw.trim();
  if (!ISO_DATE_TIME.test(value)) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  // Date rolls 2026-02-30 over to March; the calendar day written must be the one parsed (in UTC, from
  // the date part alone, so the zone cannot shift it).
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d ? date : undefined;
}

/** The stream time as stored (null clears it), or the message saying what is wrong. */
export function checkStreamTime(raw: unknown, now: Date = new Date()): { ok: true; value: Date | null } | { ok: false; error: string } {
  if (raw === null) return { ok: true, value: null };
  if (typeof raw !== 'string') return { ok: false, error: STREAM_TIME_MESSAGES.invalid };
  const at = parseIsoDateTime(raw);
  if (!at) return { ok: false, error: STREAM_TIME_MESSAGES.invalid };
  if (at.getTime() < now.getTime() - STREAM_TIME_PAST_GRACE_MS) return { ok: false, error: STREAM_TIME_MESSAGES.past };
  if (at.getTime() > now.getTime() + STREAM_TIME_MAX_AHEAD_MS) return { ok: false, error: STREAM_TIME_MESSAGES.tooFar };
  return { ok: true, value: at };
}
