/**
 * How likely a clip's views are inflated, judged from its post's read history (ADR 0049, issue 36): four
 * signals, each with its reason in words a clipper and a moderator read, and a score of 0 to 100.
 *
 * The score is the sum of the points of the signals that fire, at most 100. A signal that fires earns its
 * base points at its threshold, and more the further past it the figure is, up to its maximum at the
 * figure's "full" value (on a log scale: the strength is log(figure / threshold) / log(full / threshold),
 * between 0 and 1):
 *
 * | signal       | fires when                                                                         | points            |
 * | ------------ | ---------------------------------------------------------------------------------- | ----------------- |
 * | `jump`       | between two reads views grew ≥ 3-fold and by ≥ 5,000 while likes + retweets rose   | 45 → 70 at 30-fold|
 * |              | by at most 1 per 1,000 new views                                                   |                   |
 * | `engagement` | ≥ 2,000 views and (likes + retweets + replies + quotes) / views ≤ a fifth of the    | 30 → 55 at 1/50   |
 * |              | platform's norm for clips of that order of magnitude                               |                   |
 * | `video`      | the video's own views exceed the post's views by more than 10 % …                  | 50 → 70 at 3×     |
 * |              | … or are under 3 % of them (≥ 5,000 views)                                         | 40 → 60 at 0.3 %  |
 * | `decay`      | ≥ 48 h after posting, the views per hour over the latest 6 h or more are ≥ 0.8× the | 35 → 55 at 8×     |
 * |              | first day's (and ≥ 1,000 views were gained over them)                              |                   |
 *
 * So one signal alone puts a clip under review (the default hold threshold is 60) only when it is strong:
 * a views jump of about 12-fold or more, or video views about 1.8× the post's views; low engagement and
 * growth that does not decay, which a dull or resurfacing clip can show honestly, hold a clip only together
 * with another signal.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Reads a post needs before it is judged at all: one read shows no change. */
export const MIN_READS_TO_JUDGE = 2;

/** Views jump: the least growth between two reads that counts (both must hold), and the engagement that excuses it. */
export const JUMP_MIN_VIEWS = 5_000;
export const JUMP_MIN_FACTOR = 3;
export const JUMP_FULL_FACTOR = 30;
/** Organic views bring roughly 10 likes and retweets per 1,000 (see FALLBACK_ENGAGEMENT_RATE); a tenth of that is "barely moving". */
export const JUMP_MAX_ENGAGEMENT_PER_VIEW = 1 / 1_000;

/** Engagement: below this many views a rate says little (at 1 %, 20 engagements are expected). */
export const ENGAGEMENT_MIN_VIEWS = 2_000;
/** Fires at a fifth of the norm, full strength at a fiftieth. */
export const ENGAGEMENT_FLAG_SHARE = 1 / 5;
export const ENGAGEMENT_FULL_SHARE = 1 / 50;
/**
 * The norm used while the platform has fewer than NORM_MIN_CLIPS approved, verified clips of a size to
 * measure its own median: 1 % of views as likes, retweets, replies and quotes. Short video posts on X
 * commonly get 1 to 3 % (a clip of 1M views with 10,000 to 30,000 likes); the low end keeps the flag (a
 * fifth of it, 0.2 %) far below honest clips, so a young platform does not flag its ordinary ones.
 */
export const FALLBACK_ENGAGEMENT_RATE = 0.01;
/** A platform median measured over fewer clips than this is noise: the fallback is used instead. */
export const NORM_MIN_CLIPS = 30;

/**
 * Video views against the post's views (impressions). X counts a video's views over every post that carries
 * the same video, so a little excess can be honest (counters updated at different moments, a re-post of the
 * video elsewhere); more than 10 % is not what a clip's own post shows.
 */
export const VIDEO_EXCESS_FACTOR = 1.1;
export const VIDEO_EXCESS_FULL_FACTOR = 3;
export const VIDEO_EXCESS_MIN_VIEWS = 1_000;
/** Most people who see a clip in their timeline play some of it (autoplay); under 3 % played means views that never saw it. */
export const VIDEO_TINY_SHARE = 0.03;
export const VIDEO_TINY_FULL_SHARE = 0.003;
export const VIDEO_TINY_MIN_VIEWS = 5_000;

/** Decay: judged from this age on, over a window of at least this long after the first day. */
export const DECAY_MIN_AGE_MS = 48 * HOUR;
export const DECAY_MIN_WINDOW_MS = 6 * HOUR;
export const DECAY_MIN_VIEWS = 1_000;
/** "About as high as" the first day: from 80 % of its rate; full strength at 8 times it. */
export const DECAY_FLAG_RATIO = 0.8;
export const DECAY_FULL_RATIO = 8;
/** A first-day read this soon after posting gives no rate to compare with. */
const DECAY_MIN_FIRST_READ_AGE_MS = 5 * MINUTE;

export type RiskSignal = 'jump' | 'engagement' | 'video' | 'decay';

/** One read of the post, as the history stores it. `views` are X's impressions; `videoViews` the video's own views when X gave them. */
export interface RiskRead {
  at: Date;
  views: number;
  likes: number;
  retweets: number;
  replies: number;
  quotes: number;
  videoViews: number | null;
}

/** The platform's median engagement rate of approved, verified clips, by order of magnitude of views (`viewsMagnitude`). */
export type MeasuredNorms = ReadonlyMap<number, { rate: number; clips: number }>;

/** The norm a clip is compared with: the platform's own median, or the built-in fallback when too few clips measure it. */
export interface EngagementNorm {
  rate: number;
  measured: boolean;
  magnitude: number;
}

export interface RiskFinding {
  signal: RiskSignal;
  points: number;
  reason: string;
}

/** A post's assessment: the score, and each signal that fired with its points and reason, strongest first. */
export interface ViewRiskAssessment {
  score: number;
  findings: RiskFinding[];
}

/** The order of magnitude of a view count: 0 for 0–9, 3 for 1,000–9,999 … (as the SQL that measures the norms computes it). */
export function viewsMagnitude(views: number): number {
  return String(Math.max(0, Math.floor(views))).length - 1;
}

export function engagementNorm(views: number, measured: MeasuredNorms): EngagementNorm {
  const magnitude = viewsMagnitude(views);
  const norm = measured.get(magnitude);
  if (norm && norm.clips >= NORM_MIN_CLIPS && norm.rate > 0) return { rate: norm.rate, measured: true, magnitude };
  return { rate: FALLBACK_ENGAGEMENT_RATE, measured: false, magnitude };
}

/**
 * The post's risk from its reads (any order) and its publication time, against the platform's norms; null
 * while it has fewer than MIN_READS_TO_JUDGE reads. A signal whose data is missing (no publication time, no
 * video views, no views) does not fire.
 */
export function assessViewRisk(input: {
  reads: readonly RiskRead[];
  publishedAt: Date | null;
  norms: MeasuredNorms;
}): ViewRiskAssessment | null {
  const reads = [...input.reads].sort((a, b) => a.at.getTime() - b.at.getTime());
  if (reads.length < MIN_READS_TO_JUDGE) return null;
  const findings = [
    viewsJump(reads),
    lowEngagement(reads[reads.length - 1]!, input.norms),
    videoAgainstViews(reads[reads.length - 1]!),
    noDecay(reads, input.publishedAt),
  ].filter((f): f is RiskFinding => f !== undefined);
  findings.sort((a, b) => b.points - a.points);
  return {
    score: Math.min(
      100,
      findings.reduce((sum, f) => sum + f.points, 0),
    ),
    findings,
  };
}

/** Points between `base` (at the threshold) and `max` (at `full`), on a log scale of how far past the threshold `value` is. */
function graded(value: number, threshold: number, full: number, base: number, max: number): number {
  const strength = value === Infinity ? 1 : Math.log(value / threshold) / Math.log(full / threshold);
  return Math.round(base + (max - base) * Math.min(1, Math.max(0, strength)));
}

function viewsJump(reads: readonly RiskRead[]): RiskFinding | undefined {
  let worst: { from: RiskRead; to: RiskRead; factor: number } | undefined;
  for (let i = 1; i < reads.length; i++) {
    const from = reads[i - 1]!;
    const to = reads[i]!;
    const gained = to.views - from.views;
    const engaged = to.likes + to.retweets - (from.likes + from.retweets);
    if (gained < JUMP_MIN_VIEWS || to.views < JUMP_MIN_FACTOR * from.views) continue;
    if (engaged > gained * JUMP_MAX_ENGAGEMENT_PER_VIEW) continue;
    const factor = from.views === 0 ? Infinity : to.views / from.views;
    if (!worst || factor > worst.factor) worst = { from, to, factor };
  }
  if (!worst) return undefined;
  const { from, to } = worst;
  const engaged = to.likes + to.retweets - (from.likes + from.retweets);
  return {
    signal: 'jump',
    points: graded(worst.factor, JUMP_MIN_FACTOR, JUMP_FULL_FACTOR, 45, 70),
    reason:
      `Views jumped from ${count(from.views)} to ${count(to.views)} between two reads ${apart(to.at.getTime() - from.at.getTime())} ` +
      `while likes and retweets ${engaged > 0 ? `rose by ${count(engaged)}` : 'did not rise'}.`,
  };
}

function lowEngagement(latest: RiskRead, norms: MeasuredNorms): RiskFinding | undefined {
  if (latest.views < ENGAGEMENT_MIN_VIEWS) return undefined;
  const engaged = latest.likes + latest.retweets + latest.replies + latest.quotes;
  const rate = engaged / latest.views;
  const norm = engagementNorm(latest.views, norms);
  if (rate > norm.rate * ENGAGEMENT_FLAG_SHARE) return undefined;
  const below = rate === 0 ? Infinity : norm.rate / rate;
  const where = norm.measured
    ? `the platform's median of ${percent(norm.rate)} for clips of ${sizeBand(norm.magnitude)} views`
    : `the ${percent(norm.rate)} expected of clips of ${sizeBand(norm.magnitude)} views (too few such clips on the platform yet to measure its own)`;
  return {
    signal: 'engagement',
    points: graded(below, 1 / ENGAGEMENT_FLAG_SHARE, 1 / ENGAGEMENT_FULL_SHARE, 30, 55),
    reason:
      engaged === 0
        ? `No likes, retweets, replies or quotes on ${count(latest.views)} views, against ${where}.`
        : `Likes, retweets, replies and quotes are ${percent(rate)} of views (${count(engaged)} on ${count(latest.views)}), ` +
          `${count(Math.round(below))} times below ${where}.`,
  };
}

function videoAgainstViews(latest: RiskRead): RiskFinding | undefined {
  const video = latest.videoViews;
  if (video === null) return undefined;
  const views = latest.views;
  if (video >= VIDEO_EXCESS_MIN_VIEWS && video > views * VIDEO_EXCESS_FACTOR) {
    const factor = views === 0 ? Infinity : video / views;
    return {
      signal: 'video',
      points: graded(factor, VIDEO_EXCESS_FACTOR, VIDEO_EXCESS_FULL_FACTOR, 50, 70),
      reason:
        `The video was played ${count(video)} times but the post was seen only ${count(views)} times: ` +
        'a clip is not played more often than its post is seen.',
    };
  }
  if (views >= VIDEO_TINY_MIN_VIEWS && video < views * VIDEO_TINY_SHARE) {
    const share = video / views;
    return {
      signal: 'video',
      points: graded(share === 0 ? Infinity : VIDEO_TINY_SHARE / share, 1, VIDEO_TINY_SHARE / VIDEO_TINY_FULL_SHARE, 40, 60),
      reason:
        `Only ${count(video)} of the post's ${count(views)} views played the video (${percent(share)}), ` +
        'where most people who see a clip play some of it.',
    };
  }
  return undefined;
}

function noDecay(reads: readonly RiskRead[], publishedAt: Date | null): RiskFinding | undefined {
  if (!publishedAt) return undefined;
  const born = publishedAt.getTime();
  const age = (r: RiskRead) => r.at.getTime() - born;
  const latest = reads[reads.length - 1]!;
  if (age(latest) < DECAY_MIN_AGE_MS) return undefined;
  // The first day's pace: the views of its last read over the hours since posting (views start at 0).
  const firstDay = reads.filter((r) => age(r) >= DECAY_MIN_FIRST_READ_AGE_MS && age(r) <= DAY).at(-1);
  // The latest pace: from the last read at least DECAY_MIN_WINDOW_MS before the latest, once past the first day.
  const start = reads.filter((r) => latest.at.getTime() - r.at.getTime() >= DECAY_MIN_WINDOW_MS).at(-1);
  if (!firstDay || firstDay.views === 0 || !start || age(start) < DAY) return undefined;
  const gained = latest.views - start.views;
  if (gained < DECAY_MIN_VIEWS) return undefined;
  const firstRate = firstDay.views / (age(firstDay) / HOUR);
  const latestRate = gained / ((latest.at.getTime() - start.at.getTime()) / HOUR);
  const ratio = latestRate / firstRate;
  if (ratio < DECAY_FLAG_RATIO) return undefined;
  const days = Math.floor(age(latest) / DAY);
  return {
    signal: 'decay',
    points: graded(ratio, DECAY_FLAG_RATIO, DECAY_FULL_RATIO, 35, 55),
    reason:
      `${days} days after posting the clip still gains ${count(Math.round(latestRate))} views an hour, ` +
      `${ratio >= 1.2 ? 'more than' : 'about as many as'} in its first day (${count(Math.round(firstRate))} an hour); ` +
      'organic views slow down after the first day.',
  };
}

// ----- words -----------------------------------------------------------------------------------------------

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function count(n: number): string {
  return grouped.format(n);
}

/** 1.2%, 0.2%, 0.05%, 0.0042%: one decimal from 1 % up, two significant digits below. */
export function percent(rate: number): string {
  const p = rate * 100;
  if (p === 0) return '0%';
  if (p >= 1) return `${p.toFixed(1)}%`;
  return `${Number(p.toPrecision(2))}%`;
}

/** "1,000 to 9,999" for magnitude 3. */
function sizeBand(magnitude: number): string {
  const low = 10 ** magnitude;
  return `${count(low)} to ${count(low * 10 - 1)}`;
}

/** "less than a minute apart", "30 minutes apart", "an hour apart", "6 hours apart", "3 days apart". */
export function apart(ms: number): string {
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 1) return 'less than a minute apart';
  if (minutes === 1) return 'a minute apart';
  if (minutes < 60) return `${minutes} minutes apart`;
  const hours = Math.round(ms / HOUR);
  if (hours === 1) return 'an hour apart';
  if (hours < 48) return `${hours} hours apart`;
  return `${Math.round(ms / DAY)} days apart`;
}

// ----- on the submission -----------------------------------------------------------------------------------

/** The assessment as the submission keeps and shows it: the score, the reasons, and whether it is at or above the hold threshold. */
export interface SubmissionRisk {
  score: number;
  reasons: string[];
  underReview: boolean;
}

/** A clip at or above RISK_HOLD_THRESHOLD is under review: moderators look at it, the clipper is told why. */
export function isUnderReview(score: number, holdThreshold: number): boolean {
  return score >= holdThreshold;
}

/** The stored score and reasons as shown, judged against the hold threshold in force now; null while not judged yet. */
export function submissionRisk(
  s: { riskScore: number | null; riskReasons: string[] | null },
  holdThreshold: number,
): SubmissionRisk | null {
  if (s.riskScore === null) return null;
  return { score: s.riskScore, reasons: s.riskReasons ?? [], underReview: isUnderReview(s.riskScore, holdThreshold) };
}
