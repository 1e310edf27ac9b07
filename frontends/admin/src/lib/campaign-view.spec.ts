import { describe, expect, it } from '@jest/globals';
import { formatBudget, formatViews, previewOf, progressWidth, streamerLabel } from './campaign-view.js';

describe('campaign view', () => {
  it('abbreviates budgets and views as the admin area does', () => {
    expect(formatBudget(500)).toBe('$500');
    expect(formatBudget(1250)).toBe('$1.3K');
    expect(formatBudget(500_000)).toBe('$500.0K');
    expect(formatViews(100_000)).toBe('100.0K');
    expect(formatViews(2_500_000)).toBe('2.5M');
    expect(formatViews(0)).toBe('0');
  });

  it('names the streamer with what is known', () => {
    expect(streamerLabel({ streamerDisplayName: 'Big', streamerHandle: 'big' })).toBe('Big @big');
    expect(streamerLabel({ streamerDisplayName: null, streamerHandle: 'big' })).toBe('@big');
    expect(streamerLabel({ streamerDisplayName: 'Big', streamerHandle: null })).toBe('Big');
    expect(streamerLabel({ streamerDisplayName: null, streamerHandle: null })).toBe('Unknown streamer');
  });

  it('holds the bar to 0–100 and cuts long descriptions', () => {
    expect(progressWidth(24.7)).toBe(24.7);
    expect(progressWidth(130)).toBe(100);
    expect(progressWidth(Number.NaN)).toBe(0);
    expect(previewOf('short')).toEqual({ preview: 'short', truncated: false });
    expect(previewOf('x'.repeat(200), 10)).toEqual({ preview: `${'x'.repeat(10)}…`, truncated: true });
  });
});
