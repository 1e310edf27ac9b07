import { describe, expect, it } from '@jest/globals';
import {
  apart,
  assessViewRisk,
  engagementNorm,
  FALLBACK_ENGAGEMENT_RATE,
  isUnderReview,
  percent,
  submissionRisk,
  viewsMagnitude,
  type MeasuredNorms,
  type RiskRead,
  type RiskSignal,
  type ViewRiskAssessment,
} from './view-risk.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = new Date('2026-11-20T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const NO_NORMS: MeasuredNorms = new Map();

/** A read `ms` after T0; engagement is an ordinary clip's (2 % of views) unless given. */
function read(ms: number, views: number, patch: Partial<Omit<RiskRead, 'at' | 'views'>> = {}): RiskRead {
  return {
    at: at(ms),
    views,
    likes: Math.round(views * 0.015),
    retweets: Math.round(views * 0.003),
    replies: Math.round(views * 0.001),
    quotes: Math.round(views * 0.001),
    videoViews: null,
    ...patch,
  };
}

const quiet = { likes: 0, retweets: 0, replies: 0, quotes: 0 };

function assess(reads: RiskRead[], publishedAt: Date | null = null, norms: MeasuredNorms = NO_NORMS): ViewRiskAssessment {
  const result = assessViewRisk({ reads, publishedAt, norms });
  if (!result) throw new Error('expected an assessment');
  return result;
}

const finding = (a: ViewRiskAssessment, signal: RiskSignal) => a.findings.find((f) => f.signal === signal);
const signals = (a: ViewRiskAssessment) => a.findings.map((f) => f.signal).sort();

describe('assessViewRisk: views jump while likes and retweets do not', () => {
  it('flags the jump with its figures, an hour apart, at full points for a 40-fold jump', () => {
    const a = assess([
      read(0, 1_200, { likes: 30, retweets: 4, replies: 3, quotes: 1 }),
      read(HOUR, 48_000, { likes: 31, retweets: 5, replies: 3, quotes: 1 }),
    ]);
    expect(finding(a, 'jump')).toEqual({
      signal: 'jump',
      points: 70,
      reason: 'Views jumped from 1,200 to 48,000 between two reads an hour apart while likes and retweets rose by 2.',
    });
  });

  it('needs both ≥ 5,000 views gained and ≥ 3-fold growth, and at most 1 like or retweet per 1,000 new views', () => {
    const jumpOf = (from: number, to: number, engaged: number) =>
      finding(
        assess([
          read(0, from, { likes: 100, retweets: 0, replies: 500, quotes: 500 }),
          read(30 * MIN, to, { likes: 100 + engaged, retweets: 0, replies: 500, quotes: 500 }),
        ]),
        'jump',
      );
    expect(jumpOf(2_000, 6_999, 0)).toBeUndefined(); // 4,999 gained
    expect(jumpOf(2_000, 7_000, 0)?.points).toBe(47); // 5,000 gained, 3.5-fold: just past the threshold
    expect(jumpOf(10_000, 29_999, 0)).toBeUndefined(); // 2.9999-fold
    expect(jumpOf(10_000, 30_000, 20)?.reason).toBe(
      'Views jumped from 10,000 to 30,000 between two reads 30 minutes apart while likes and retweets rose by 20.',
    );
    expect(jumpOf(10_000, 30_000, 21)).toBeUndefined(); // 21 on 20,000 new views: engagement came with them
    expect(jumpOf(10_000, 30_000, -3)?.reason).toMatch(/while likes and retweets did not rise\.$/);
  });

  it('reports the strongest of several jumps', () => {
    const a = assess([read(0, 1_000, quiet), read(HOUR, 6_000, quiet), read(2 * HOUR, 6_100, quiet), read(26 * HOUR, 200_000, quiet)]);
    expect(finding(a, 'jump')?.reason).toBe(
      'Views jumped from 6,100 to 200,000 between two reads 24 hours apart while likes and retweets did not rise.',
    );
  });
});

describe('assessViewRisk: engagement far below the platform norm for the size', () => {
  const clip = (views: number, engaged: number) => [
    read(0, Math.round(views * 0.9), { ...quiet, likes: engaged }),
    read(HOUR, views, { ...quiet, likes: engaged }),
  ];

  it('compares with the built-in 1 % while the platform has too few clips of the size, and says so', () => {
    expect(engagementNorm(48_000, NO_NORMS)).toEqual({ rate: FALLBACK_ENGAGEMENT_RATE, measured: false, magnitude: 4 });
    expect(finding(assess(clip(48_000, 24)), 'engagement')).toEqual({
      signal: 'engagement',
      points: 45,
      reason:
        'Likes, retweets, replies and quotes are 0.05% of views (24 on 48,000), 20 times below the 1.0% expected of clips of ' +
        '10,000 to 99,999 views (too few such clips on the platform yet to measure its own).',
    });
  });

  it("uses the platform's measured median for the same order of magnitude once enough clips measure it", () => {
    const norms: MeasuredNorms = new Map([
      [4, { rate: 0.02, clips: 30 }],
      [5, { rate: 0.5, clips: 29 }],
    ]);
    expect(engagementNorm(10_000, norms)).toEqual({ rate: 0.02, measured: true, magnitude: 4 });
    expect(engagementNorm(100_000, norms)).toEqual({ rate: FALLBACK_ENGAGEMENT_RATE, measured: false, magnitude: 5 });
    // 0.4 % is a fifth of 2 %: flagged; just above it is not.
    expect(finding(assess(clip(50_000, 200), null, norms), 'engagement')?.reason).toBe(
      "Likes, retweets, replies and quotes are 0.4% of views (200 on 50,000), 5 times below the platform's median of 2.0% for clips of 10,000 to 99,999 views.",
    );
    expect(finding(assess(clip(50_000, 201), null, norms), 'engagement')).toBeUndefined();
    // The same clip against the fallback (1 %) is ordinary.
    expect(finding(assess(clip(50_000, 200)), 'engagement')).toBeUndefined();
  });

  it('says so plainly when there is no engagement at all (full points), and leaves clips under 2,000 views alone', () => {
    expect(finding(assess(clip(2_000, 0)), 'engagement')).toEqual({
      signal: 'engagement',
      points: 55,
      reason:
        'No likes, retweets, replies or quotes on 2,000 views, against the 1.0% expected of clips of 1,000 to 9,999 views (too few such clips on the platform yet to measure its own).',
    });
    expect(finding(assess(clip(1_999, 0)), 'engagement')).toBeUndefined();
  });

  it('measures magnitudes as the SQL does', () => {
    expect([0, 9, 10, 999, 1_000, 48_000, 1_000_000].map(viewsMagnitude)).toEqual([0, 0, 1, 2, 3, 4, 6]);
  });
});

describe('assessViewRisk: video views far from the post’s views', () => {
  const withVideo = (views: number, videoViews: number | null) =>
    assess([read(0, views, { videoViews }), read(HOUR, views, { videoViews })]);

  it('flags more video views than the post was seen (by over 10 %)', () => {
    expect(finding(withVideo(48_000, 60_000), 'video')).toEqual({
      signal: 'video',
      points: 53,
      reason:
        'The video was played 60,000 times but the post was seen only 48,000 times: a clip is not played more often than its post is seen.',
    });
    expect(finding(withVideo(48_000, 150_000), 'video')?.points).toBe(70);
    expect(finding(withVideo(48_000, 52_800), 'video')).toBeUndefined(); // exactly 10 % more
    expect(finding(withVideo(500, 900), 'video')).toBeUndefined(); // under 1,000 video views: counters too small to judge
  });

  it('flags a video played by a tiny share of the post’s views', () => {
    expect(finding(withVideo(48_000, 300), 'video')).toEqual({
      signal: 'video',
      points: 54,
      reason: "Only 300 of the post's 48,000 views played the video (0.63%), where most people who see a clip play some of it.",
    });
    expect(finding(withVideo(48_000, 1_440), 'video')).toBeUndefined(); // 3 %
    expect(finding(withVideo(4_999, 0), 'video')).toBeUndefined(); // too few views to judge
    expect(finding(withVideo(48_000, 0), 'video')?.points).toBe(60);
  });

  it('says nothing without video views (a post without a video, or X not giving them)', () => {
    expect(finding(withVideo(48_000, null), 'video')).toBeUndefined();
  });
});

describe('assessViewRisk: growth that does not decay', () => {
  const published = T0;
  // 10,000 views in 2 h, 40,000 by 20 h: 2,000 an hour over the first day.
  const firstDay = [read(2 * HOUR, 10_000), read(20 * HOUR, 40_000)];

  it('flags views per hour over the latest reads as high as the first day’s, well after posting', () => {
    const a = assess([...firstDay, read(54 * HOUR, 60_000), read(60 * HOUR, 72_000)], published);
    expect(finding(a, 'decay')).toEqual({
      signal: 'decay',
      points: 37,
      reason:
        '2 days after posting the clip still gains 2,000 views an hour, about as many as in its first day (2,000 an hour); organic views slow down after the first day.',
    });
    const faster = assess([...firstDay, read(96 * HOUR, 100_000), read(102 * HOUR, 220_000)], published);
    expect(finding(faster, 'decay')?.reason).toMatch(
      /^4 days after posting the clip still gains 20,000 views an hour, more than in its first day/,
    );
    expect(finding(faster, 'decay')?.points).toBe(55);
  });

  it('leaves decaying growth, young posts, short windows and posts without a first-day read alone', () => {
    // 1,580 an hour is under 80 % of 2,000.
    expect(finding(assess([...firstDay, read(54 * HOUR, 60_000), read(60 * HOUR, 69_480)], published), 'decay')).toBeUndefined();
    // 47 h old.
    expect(finding(assess([...firstDay, read(41 * HOUR, 60_000), read(47 * HOUR, 90_000)], published), 'decay')).toBeUndefined();
    // The latest reads span less than 6 h.
    expect(finding(assess([...firstDay, read(55 * HOUR, 90_000), read(60 * HOUR, 100_000)], published), 'decay')).toBeUndefined();
    // No read in the first day.
    expect(
      finding(assess([read(30 * HOUR, 40_000), read(54 * HOUR, 60_000), read(60 * HOUR, 72_000)], published), 'decay'),
    ).toBeUndefined();
    // Fewer than 1,000 views gained over the window.
    expect(
      finding(assess([read(2 * HOUR, 100), read(20 * HOUR, 400), read(54 * HOUR, 900), read(60 * HOUR, 1_800)], published), 'decay'),
    ).toBeUndefined();
    // No publication time: the age is unknown.
    expect(finding(assess([...firstDay, read(54 * HOUR, 60_000), read(60 * HOUR, 72_000)], null), 'decay')).toBeUndefined();
  });
});

describe('assessViewRisk: clips that raise nothing', () => {
  it('a normal viral clip whose views decay: read every 30 minutes for 2 days, then every 6 hours for a week, video views 45 %', () => {
    const views = (h: number) => Math.round(1_000_000 * (1 - Math.exp(-h / 8)));
    const hours = [0.2, ...Array.from({ length: 96 }, (_, i) => (i + 1) / 2), ...Array.from({ length: 20 }, (_, i) => 54 + i * 6)];
    const reads = hours.map((h) => read(h * HOUR, views(h), { videoViews: Math.round(views(h) * 0.45) }));
    expect(assess(reads, T0)).toEqual({ score: 0, findings: [] });
  });

  it('a small clip with few reads: not judged after one read, nothing after two', () => {
    expect(assessViewRisk({ reads: [read(0, 150, quiet)], publishedAt: T0, norms: NO_NORMS })).toBeNull();
    expect(assessViewRisk({ reads: [], publishedAt: null, norms: NO_NORMS })).toBeNull();
    expect(assess([read(0, 150, quiet), read(HOUR, 300, quiet)], T0)).toEqual({ score: 0, findings: [] });
  });

  it('missing data: no publication time, no video views, no views at all', () => {
    expect(assess([read(0, 0, quiet), read(HOUR, 0, quiet)], null)).toEqual({ score: 0, findings: [] });
    expect(assess([read(0, 20_000), read(30 * MIN, 25_000)], null)).toEqual({ score: 0, findings: [] });
  });
});

describe('the score', () => {
  it('adds the points of the signals that fire, strongest first, at most 100', () => {
    // Bought views: a jump with no engagement, nobody playing the video.
    const a = assess([
      read(0, 1_200, { ...quiet, likes: 30, videoViews: 500 }),
      read(HOUR, 48_000, { ...quiet, likes: 32, videoViews: 520 }),
    ]);
    expect(signals(a)).toEqual(['engagement', 'jump', 'video']);
    expect(a.findings.map((f) => f.points)).toEqual([70, 49, 42]);
    expect(a.score).toBe(100);
  });

  it('is the one signal’s points when one fires, in any order of reads', () => {
    const reads = [
      read(0, 1_200, { likes: 30, retweets: 4, replies: 300, quotes: 200 }),
      read(HOUR, 48_000, { likes: 31, retweets: 5, replies: 300, quotes: 700 }),
    ];
    expect(assess([...reads].reverse())).toEqual(assess(reads));
    expect(assess(reads).score).toBe(70);
  });
});

describe('under review', () => {
  it('holds at or above the threshold, judged when shown', () => {
    expect(isUnderReview(60, 60)).toBe(true);
    expect(isUnderReview(59, 60)).toBe(false);
    expect(submissionRisk({ riskScore: 70, riskReasons: ['Views jumped.'] }, 60)).toEqual({
      score: 70,
      reasons: ['Views jumped.'],
      underReview: true,
    });
    expect(submissionRisk({ riskScore: 70, riskReasons: ['Views jumped.'] }, 80)?.underReview).toBe(false);
    expect(submissionRisk({ riskScore: 0, riskReasons: [] }, 60)).toEqual({ score: 0, reasons: [], underReview: false });
    expect(submissionRisk({ riskScore: null, riskReasons: null }, 60)).toBeNull();
  });
});

describe('wording', () => {
  it('percentages: one decimal from 1 %, two significant digits below', () => {
    expect([0, 0.012, 0.01, 0.004, 0.0005, 0.0000421, 0.00625].map(percent)).toEqual([
      '0%',
      '1.2%',
      '1.0%',
      '0.4%',
      '0.05%',
      '0.0042%',
      '0.63%',
    ]);
  });

  it('time between reads', () => {
    expect([20_000, MIN, 30 * MIN, 59.6 * MIN, HOUR, 6 * HOUR, 47 * HOUR, 72 * HOUR].map(apart)).toEqual([
      'less than a minute apart',
      'a minute apart',
      '30 minutes apart',
      'an hour apart',
      'an hour apart',
      '6 hours apart',
      '47 hours apart',
      '3 days apart',
    ]);
  });
});
