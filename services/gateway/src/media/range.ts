// HTTP range and validator logic for GET /media/* (RFC 9110 §13-14), kept free of I/O so it is tested alone.

export type RangeRequest =
  /** No usable Range: send the whole object (absent, another unit, several ranges, or malformed). */
  | { kind: 'whole' }
  | { kind: 'partial'; start: number; end: number }
  /** A well-formed range that starts past the end: 416. */
  | { kind: 'unsatisfiable' };

const WHOLE: RangeRequest = { kind: 'whole' };

/** Reads a single `bytes=` range against an object of `size` bytes; `end` is inclusive and clamped. */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return WHOLE;
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return WHOLE;
  const spec = match[1]!.trim();
  // Multipart/byteranges answers are not worth their cost for media players, which ask for one range.
  if (spec.includes(',')) return WHOLE;
  const parts = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  if (!parts) return WHOLE;
  const [, first = '', last = ''] = parts;
  if (first === '' && last === '') return WHOLE;
  if (first === '') {
    const suffix = toInt(last);
    if (suffix === undefined) return WHOLE;
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = toInt(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : toInt(last);
  if (start === undefined || end === undefined || end < start) return WHOLE;
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

function toInt(digits: string): number | undefined {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : undefined;
}

export interface Validators {
  etag: string;
  lastModified: Date;
}

function etagList(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

const opaque = (tag: string) => tag.replace(/^W\//, '');

/** If-None-Match (weak comparison), else If-Modified-Since: true when the client's copy is current (304). */
export function isNotModified(headers: { ifNoneMatch?: string; ifModifiedSince?: string }, v: Validators): boolean {
  if (headers.ifNoneMatch !== undefined) {
    const tags = etagList(headers.ifNoneMatch);
    return tags.includes('*') || tags.some((t) => opaque(t) === opaque(v.etag));
  }
  if (headers.ifModifiedSince !== undefined) {
    const since = Date.parse(headers.ifModifiedSince);
    // HTTP dates have whole seconds.
    return Number.isFinite(since) && Math.floor(v.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

/** If-Range: the Range applies only when the client's validator still names this version (strong match). */
export function rangeStillValid(ifRange: string | undefined, v: Validators): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return !value.startsWith('W/') && value === v.etag;
  const date = Date.parse(value);
  return Number.isFinite(date) && Math.floor(v.lastModified.getTime() / 1000) * 1000 === date;
}
