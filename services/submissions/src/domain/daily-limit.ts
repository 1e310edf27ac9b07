/**
 * The daily video limit (spec 01 §9: 3 video submissions per day) counts per UTC calendar day: the
 * window a video submitted at `now` falls in. A video counts once it is uploaded and accepted for
 * processing, or processed; one refused (too long, unreadable, too large) does not, so a clipper can
 * try again with a better file.
 */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
