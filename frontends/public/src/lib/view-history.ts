// A submission's view history (GET /api/submissions/{id}/metrics-history: the owner's or an admin's),
// as its small chart draws it: the answer, the chart's geometry, its text alternative, when the metrics
// were last fetched and whether the post is verified. Pure, so the chart and its words are tested here.
import { abbreviateNumber } from '@clipit/ui';

/** One snapshot of the post's metrics. */
export interface MetricsPointAnswer {
  at: string;
  views: number;
  likes: number;
  retweets: number;
  replies: number;
}

/** The route's answer, field for field. */
export interface MetricsHistoryAnswer {
  submissionId: string;
  views: number;
  likes: number;
  retweets: number;
  replies: number;
  quoteCount: number;
  bookmarkCount: number;
  verificationCode: string | null;
  verifiedAt: string | null;
  lastMetricsFetch: string | null;
  publishedAt: string | null;
  /** Oldest first. */
  points: MetricsPointAnswer[];
}

/** A point as the chart reads it. */
export interface ViewPoint {
  at: Date;
  views: number;
}

/** What the view history panel shows. */
export interface ViewHistory {
  views: number;
  points: ViewPoint[];
  lastFetchedAt: Date | null;
  verified: boolean;
  verificationCode: string | null;
}

const dateOf = (iso: string | null): Date | null => {
  if (iso === null) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The answer as the panel reads it: points with a readable time, oldest first, counts never negative. */
export function toViewHistory(answer: MetricsHistoryAnswer): ViewHistory {
  const points = answer.points
    .map((p) => ({ at: dateOf(p.at), views: Math.max(0, Number.isFinite(p.views) ? p.views : 0) }))
    .filter((p): p is ViewPoint => p.at !== null)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  return {
    views: answer.views,
    points,
    lastFetchedAt: dateOf(answer.lastMetricsFetch),
    verified: answer.verifiedAt !== null,
    verificationCode: answer.verificationCode,
  };
}

/** The query key; the path is built by the query function. */
export const viewHistoryKey = (submissionId: string) => ['/api/submissions', submissionId, 'metrics-history'] as const;

export const viewHistoryPath = (submissionId: string) => `/api/submissions/${encodeURIComponent(submissionId)}/metrics-history`;

/** The chart's drawing box (viewBox units; the SVG scales to its container). */
export const CHART = { width: 160, height: 40, pad: 2 } as const;

export interface ChartGeometry {
  /** The line through the points. */
  line: string;
  /** The area under it, closed on the baseline. */
  area: string;
  /** The last point (marked with a dot). */
  last: { x: number; y: number };
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * The line and area of a view history: time along x (evenly by time, not by index, so a gap reads as
 * one), views up y from 0 at the bottom to the highest count at the top. One point is a flat line.
 * Null without points.
 */
export function chartGeometry(
  points: readonly ViewPoint[],
  box: { width: number; height: number; pad: number } = CHART,
): ChartGeometry | null {
  if (points.length === 0) return null;
  const { width, height, pad } = box;
  const first = points[0]!.at.getTime();
  const span = points[points.length - 1]!.at.getTime() - first;
  const top = Math.max(...points.map((p) => p.views));
  const x = (t: number) => round(span === 0 ? width - pad : pad + ((t - first) / span) * (width - 2 * pad));
  const y = (v: number) => round(top === 0 ? height - pad : height - pad - (v / top) * (height - 2 * pad));
  const coords = points.map((p) => ({ x: x(p.at.getTime()), y: y(p.views) }));
  // One point: drawn across the box at its height.
  if (coords.length === 1) coords.unshift({ x: pad, y: coords[0]!.y });
  const line = coords.map((c, i) => `${i === 0 ? 'M' : 'L'}${c.x} ${c.y}`).join(' ');
  const base = height - pad;
  const area = `${line} L${coords[coords.length - 1]!.x} ${base} L${coords[0]!.x} ${base} Z`;
  return { line, area, last: coords[coords.length - 1]! };
}

/** '24 Nov': the day a point was taken, in the reader's time zone. */
export function dayLabel(date: Date): string {
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' });
}

/** The chart in words: 'Views over time: 1.2K on 24 Nov → 8.4K on 26 Nov'. */
export function viewHistoryText(points: readonly ViewPoint[]): string {
  if (points.length === 0) return NO_VIEWS_YET;
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const at = (p: ViewPoint) => `${abbreviateNumber(p.views)} on ${dayLabel(p.at)}`;
  return points.length === 1 ? `Views over time: ${at(first)}` : `Views over time: ${at(first)} → ${at(last)}`;
}

export const NO_VIEWS_YET = 'No views recorded yet';
export const HISTORY_FAILED = 'View history unavailable right now';

/** 'Updated just now', 'Updated 5 minutes ago', 'Updated 3 hours ago', 'Updated 2 days ago'; 'Not fetched yet' without a fetch. */
export function updatedText(lastFetchedAt: Date | null, now: Date = new Date()): string {
  if (!lastFetchedAt) return 'Not fetched yet';
  const seconds = Math.max(0, Math.floor((now.getTime() - lastFetchedAt.getTime()) / 1000));
  const ago = (n: number, unit: string) => `Updated ${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (seconds < 60) return 'Updated just now';
  if (seconds < 3600) return ago(Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return ago(Math.floor(seconds / 3600), 'hour');
  return ago(Math.floor(seconds / 86_400), 'day');
}

/** 'Verified', or what makes the post's views count. */
export function verificationText(history: Pick<ViewHistory, 'verified' | 'verificationCode'>): string {
  if (history.verified) return 'Verified';
  return history.verificationCode
    ? `Unverified — add ${history.verificationCode} to your post, or sign in with X as the post's author, so its views count`
    : "Unverified — sign in with X as the post's author so its views count";
}
