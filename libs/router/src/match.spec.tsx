import { describe, expect, it } from '@jest/globals';
import { createMemoryHistory, resolveTo } from './history.js';
import { matchPath, matchRoutes, type RouteObject } from './match.js';

describe('matchPath', () => {
  it('matches static, dynamic and splat segments, case-insensitively, decoding params', () => {
    expect(matchPath('/', '/')).toEqual({});
    expect(matchPath('/feed', '/feed')).toEqual({});
    expect(matchPath('/feed', '/Feed/')).toEqual({});
    expect(matchPath('/feed', '/feed/more')).toBeNull();
    expect(matchPath('/clipper/:userId', '/clipper/a%20b')).toEqual({ userId: 'a b' });
    expect(matchPath('/clipper/:userId', '/clipper')).toBeNull();
    expect(matchPath('*', '/any/thing')).toEqual({ '*': 'any/thing' });
    expect(matchPath('/files/*', '/files')).toEqual({ '*': '' });
  });
});

describe('matchRoutes', () => {
  const page = (path: string): RouteObject => ({ path, handle: path });
  const table: RouteObject[] = [
    {
      handle: 'layout',
      children: [{ handle: 'errors', children: [page('*'), page('/clipper/:userId'), page('/clipper/new'), page('/'), page('/feed')] }],
    },
  ];
  const leaf = (pathname: string) => matchRoutes(table, pathname)?.map((m) => m.route.handle);

  it('gives the chain from the root layout to the most specific page, listed order breaking ties', () => {
    expect(leaf('/feed')).toEqual(['layout', 'errors', '/feed']);
    expect(leaf('/')).toEqual(['layout', 'errors', '/']);
    expect(leaf('/clipper/new')).toEqual(['layout', 'errors', '/clipper/new']);
    expect(leaf('/clipper/42')).toEqual(['layout', 'errors', '/clipper/:userId']);
    expect(matchRoutes(table, '/clipper/42')?.at(-1)?.params).toEqual({ userId: '42' });
    expect(leaf('/nope/deeper')).toEqual(['layout', 'errors', '*']);
    expect(matchRoutes([page('/feed')], '/other')).toBeNull();
  });

  it('joins relative child paths to their parent', () => {
    const nested: RouteObject[] = [{ path: '/admin', handle: 'admin', children: [{ path: 'users/:id', handle: 'user' }] }];
    expect(matchRoutes(nested, '/admin/users/7')?.map((m) => [m.route.handle, m.params])).toEqual([
      ['admin', { id: '7' }],
      ['user', { id: '7' }],
    ]);
  });
});

describe('history', () => {
  it('resolves relative and partial destinations against the current path', () => {
    expect(resolveTo('/feed?x=1#top', { pathname: '/a/b' })).toEqual({ pathname: '/feed', search: '?x=1', hash: '#top' });
    expect(resolveTo('c', { pathname: '/a/b' })).toEqual({ pathname: '/a/c', search: '', hash: '' });
    expect(resolveTo({ search: 'tab=streamers' }, { pathname: '/discover' })).toEqual({
      pathname: '/discover',
      search: '?tab=streamers',
      hash: '',
    });
  });

  it('pushes, replaces and goes back in memory, telling listeners each move with a new key', () => {
    const history = createMemoryHistory(['/']);
    const seen: string[] = [];
    history.listen((l, action) => seen.push(`${action} ${l.pathname}${l.search}`));
    const first = history.location.key;
    history.push('/feed');
    history.push({ pathname: '/discover', search: '?tab=streamers' });
    history.replace('/leaderboard', { from: 'test' });
    expect(history.location).toMatchObject({ pathname: '/leaderboard', state: { from: 'test' } });
    history.go(-1);
    history.go(-5);
    expect(seen).toEqual(['PUSH /feed', 'PUSH /discover?tab=streamers', 'REPLACE /leaderboard', 'POP /feed', 'POP /']);
    expect(history.location.key).toBe(first);
    expect(history.createHref({ search: '?q=1' })).toBe('/?q=1');
  });
});
