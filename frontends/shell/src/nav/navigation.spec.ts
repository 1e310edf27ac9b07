import { describe, expect, it } from '@jest/globals';
import { activeBottomTab, isDiscoverActive, isWithin } from './navigation.js';

describe('the active route', () => {
  it('highlights Clips, Discover and Login on their pages and the pages below them', () => {
    expect(activeBottomTab('/feed')).toBe('feed');
    expect(activeBottomTab('/feed/')).toBe('feed');
    expect(activeBottomTab('/feed/abc')).toBe('feed');
    expect(activeBottomTab('/discover')).toBe('discover');
    expect(activeBottomTab('/login')).toBe('login');
  });

  it('highlights nothing elsewhere, including paths that only start with the same letters', () => {
    for (const path of ['/', '/feedback', '/discovery', '/logins', '/leaderboard', '/clipper/1', '/nope']) {
      expect({ path, tab: activeBottomTab(path) }).toEqual({ path, tab: null });
    }
  });

  it('matches whole path segments', () => {
    expect(isWithin('/', '/')).toBe(true);
    expect(isWithin('/clippers/dashboard', '/clippers/dashboard')).toBe(true);
    expect(isWithin('/clippers', '/clippers/dashboard')).toBe(false);
  });

  it('marks the Discover menu when one of its pages is open', () => {
    expect(isDiscoverActive('/discover')).toBe(true);
    expect(isDiscoverActive('/leaderboard')).toBe(true);
    expect(isDiscoverActive('/feed')).toBe(false);
  });
});
