import { describe, expect, it } from '@jest/globals';
import {
  applyLiveMessage,
  diffLive,
  liveNotification,
  parseLiveStreamers,
  parseLiveStreamMessage,
  type LiveStreamer,
} from './live-notifications.js';

const streamer = (id: string, extra: Partial<LiveStreamer> = {}): LiveStreamer => ({
  id,
  displayName: null,
  twitterUsername: `user${id}`,
  profileImageUrl: null,
  ...extra,
});
const ids = (list: readonly LiveStreamer[]) => list.map((s) => s.id);

describe('which live streamers to notify', () => {
  it('notifies each live id once, for as long as it stays in the list', () => {
    const first = diffLive(new Set(), [streamer('a'), streamer('b')]);
    expect(ids(first.notify)).toEqual(['a', 'b']);
    const second = diffLive(first.live, [streamer('b'), streamer('a'), streamer('c')]);
    expect(ids(second.notify)).toEqual(['c']);
    expect([...second.live].sort()).toEqual(['a', 'b', 'c']);
  });

  it('forgets an id that leaves the list, so a return notifies again', () => {
    const live = diffLive(new Set(), [streamer('a'), streamer('b')]).live;
    const left = diffLive(live, [streamer('b')]);
    expect(left.notify).toEqual([]);
    expect([...left.live]).toEqual(['b']);
    expect(ids(diffLive(left.live, [streamer('a'), streamer('b')]).notify)).toEqual(['a']);
    const empty = diffLive(left.live, []);
    expect(empty.live.size).toBe(0);
    expect(ids(diffLive(empty.live, [streamer('b')]).notify)).toEqual(['b']);
  });

  it('notifies an id listed twice in one answer once', () => {
    expect(ids(diffLive(new Set(), [streamer('a'), streamer('a')]).notify)).toEqual(['a']);
  });
});

describe('the notification', () => {
  it('names the streamer by display name, else Twitter username, with the fallback icon and a per-stream tag', () => {
    expect(liveNotification(streamer('7', { displayName: 'Ada', profileImageUrl: 'https://cdn.example/ada.png' }))).toEqual({
      title: 'Ada is now live!',
      options: { body: 'Click to watch their stream', icon: 'https://cdn.example/ada.png', tag: 'stream-7' },
      path: '/clipper/7',
    });
    expect(liveNotification(streamer('8', { twitterUsername: 'grace' }))).toEqual({
      title: 'grace is now live!',
      options: { body: 'Click to watch their stream', icon: '/icon.png', tag: 'stream-8' },
      path: '/clipper/8',
    });
  });
});

describe('the live list as answered', () => {
  it('keeps entries with an id, as strings, and reads missing or empty fields as null', () => {
    expect(
      parseLiveStreamers([
        { id: 'u1', displayName: 'Ada', twitterUsername: 'ada', profileImageUrl: '' },
        { id: 42, twitterUsername: 'num' },
        { displayName: 'no id' },
        { id: '' },
        null,
        'x',
      ]),
    ).toEqual([
      { id: 'u1', displayName: 'Ada', twitterUsername: 'ada', profileImageUrl: null },
      { id: '42', displayName: null, twitterUsername: 'num', profileImageUrl: null },
    ]);
  });

  it('answers null for anything that is not a list', () => {
    for (const input of [undefined, null, 'Not Found', { streamers: [] }, 3]) expect(parseLiveStreamers(input)).toBeNull();
  });
});

describe('live stream messages', () => {
  it('reads snapshot, live and offline events, and ignores what it does not understand', () => {
    expect(parseLiveStreamMessage('snapshot', JSON.stringify([streamer('a')]))).toEqual({ type: 'snapshot', streamers: [streamer('a')] });
    expect(parseLiveStreamMessage('live', JSON.stringify(streamer('b')))).toEqual({ type: 'live', streamer: streamer('b') });
    expect(parseLiveStreamMessage('offline', JSON.stringify({ id: 'b' }))).toEqual({ type: 'offline', id: 'b' });
    expect(parseLiveStreamMessage('live', 'not json')).toBeNull();
    expect(parseLiveStreamMessage('live', JSON.stringify({ displayName: 'no id' }))).toBeNull();
    expect(parseLiveStreamMessage('snapshot', JSON.stringify({ streamers: [] }))).toBeNull();
    expect(parseLiveStreamMessage('message', JSON.stringify(streamer('c')))).toBeNull();
  });

  it('announces a go-live once per live period, forgets on offline, and treats a snapshot as a whole list', () => {
    let state = applyLiveMessage(new Set(), { type: 'live', streamer: streamer('a') });
    expect(ids(state.notify)).toEqual(['a']);
    state = applyLiveMessage(state.live, { type: 'live', streamer: streamer('a') }); // replayed or also in a snapshot
    expect(state.notify).toEqual([]);
    state = applyLiveMessage(state.live, { type: 'snapshot', streamers: [streamer('a'), streamer('b')] });
    expect(ids(state.notify)).toEqual(['b']);
    state = applyLiveMessage(state.live, { type: 'offline', id: 'a' });
    expect([...state.live]).toEqual(['b']);
    state = applyLiveMessage(state.live, { type: 'live', streamer: streamer('a') });
    expect(ids(state.notify)).toEqual(['a']);
    state = applyLiveMessage(state.live, { type: 'snapshot', streamers: [] });
    expect([...state.live]).toEqual([]);
  });
});
