import { describe, expect, it } from '@jest/globals';
import {
  chartGeometry,
  toViewHistory,
  updatedText,
  verificationText,
  viewHistoryText,
  type MetricsHistoryAnswer,
  type ViewPoint,
} from './view-history.js';

const point = (iso: string, views: number): ViewPoint => ({ at: new Date(iso), views });
const BOX = { width: 100, height: 20, pad: 0 };

describe('chartGeometry', () => {
  it('draws time along x and views up y, from 0 at the bottom to the highest count at the top', () => {
    const geometry = chartGeometry(
      [point('2026-11-24T12:00:00Z', 0), point('2026-11-25T12:00:00Z', 500), point('2026-11-26T12:00:00Z', 1000)],
      BOX,
    );
    expect(geometry).toEqual({ line: 'M0 20 L50 10 L100 0', area: 'M0 20 L50 10 L100 0 L100 20 L0 20 Z', last: { x: 100, y: 0 } });
  });

  it('spaces points by time, not by index', () => {
    const geometry = chartGeometry(
      [point('2026-11-24T00:00:00Z', 100), point('2026-11-24T06:00:00Z', 100), point('2026-11-25T00:00:00Z', 200)],
      BOX,
    );
    expect(geometry?.line).toBe('M0 10 L25 10 L100 0');
  });

  it('keeps the padding inside the box', () => {
    const geometry = chartGeometry([point('2026-11-24T00:00:00Z', 0), point('2026-11-25T00:00:00Z', 10)], {
      width: 160,
      height: 40,
      pad: 2,
    });
    expect(geometry?.line).toBe('M2 38 L158 2');
  });

  it('draws one point, or points all at 0, as a flat line', () => {
    expect(chartGeometry([point('2026-11-24T12:00:00Z', 42)], BOX)?.line).toBe('M0 0 L100 0');
    expect(chartGeometry([point('2026-11-24T12:00:00Z', 0), point('2026-11-25T12:00:00Z', 0)], BOX)?.line).toBe('M0 20 L100 20');
  });

  it('is null without points', () => {
    expect(chartGeometry([], BOX)).toBeNull();
  });
});

describe('viewHistoryText', () => {
  it('says the first and the last count with their days', () => {
    expect(
      viewHistoryText([point('2026-11-24T12:00:00Z', 1200), point('2026-11-25T12:00:00Z', 3000), point('2026-11-26T12:00:00Z', 8400)]),
    ).toBe('Views over time: 1.2K on 24 Nov → 8.4K on 26 Nov');
    expect(viewHistoryText([point('2026-11-24T12:00:00Z', 999)])).toBe('Views over time: 999 on 24 Nov');
    expect(viewHistoryText([point('2026-11-24T12:00:00Z', 0), point('2026-12-01T12:00:00Z', 2_500_000)])).toBe(
      'Views over time: 0 on 24 Nov → 2.5M on 1 Dec',
    );
  });

  it('says when nothing is recorded yet', () => {
    expect(viewHistoryText([])).toBe('No views recorded yet');
  });
});

describe('updatedText', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  it.each([
    [null, 'Not fetched yet'],
    ['2026-11-26T11:59:30Z', 'Updated just now'],
    ['2026-11-26T11:59:00Z', 'Updated 1 minute ago'],
    ['2026-11-26T11:15:00Z', 'Updated 45 minutes ago'],
    ['2026-11-26T09:00:00Z', 'Updated 3 hours ago'],
    ['2026-11-24T11:00:00Z', 'Updated 2 days ago'],
    ['2026-11-26T12:00:05Z', 'Updated just now'],
  ])('%s → %s', (at, text) => {
    expect(updatedText(at === null ? null : new Date(at), now)).toBe(text);
  });
});

describe('verificationText', () => {
  it('says Verified, or what to do for the views to count', () => {
    expect(verificationText({ verified: true, verificationCode: 'CLIP-7K2Q' })).toBe('Verified');
    expect(verificationText({ verified: false, verificationCode: 'CLIP-7K2Q' })).toBe(
      "Unverified — add CLIP-7K2Q to your post, or sign in with X as the post's author, so its views count",
    );
    expect(verificationText({ verified: false, verificationCode: null })).toBe(
      "Unverified — sign in with X as the post's author so its views count",
    );
  });
});

describe('toViewHistory', () => {
  const answer: MetricsHistoryAnswer = {
    submissionId: 's-1',
    views: 8400,
    likes: 10,
    retweets: 2,
    replies: 1,
    quoteCount: 0,
    bookmarkCount: 0,
    verificationCode: 'CLIP-7K2Q',
    verifiedAt: null,
    lastMetricsFetch: '2026-11-26T11:00:00Z',
    publishedAt: '2026-11-24T10:00:00Z',
    points: [
      { at: '2026-11-26T12:00:00Z', views: 8400, likes: 10, retweets: 2, replies: 1 },
      { at: 'not a date', views: 5, likes: 0, retweets: 0, replies: 0 },
      { at: '2026-11-24T12:00:00Z', views: 1200, likes: 1, retweets: 0, replies: 0 },
    ],
  };

  it('reads the answer: points by time (unreadable ones dropped), the last fetch, the verification', () => {
    expect(toViewHistory(answer)).toEqual({
      views: 8400,
      points: [point('2026-11-24T12:00:00Z', 1200), point('2026-11-26T12:00:00Z', 8400)],
      lastFetchedAt: new Date('2026-11-26T11:00:00Z'),
      verified: false,
      verificationCode: 'CLIP-7K2Q',
    });
    expect(toViewHistory({ ...answer, verifiedAt: '2026-11-25T00:00:00Z', lastMetricsFetch: null })).toMatchObject({
      verified: true,
      lastFetchedAt: null,
    });
  });
});
