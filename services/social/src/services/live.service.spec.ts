import { status } from '@grpc/grpc-js';
import { DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { PersonRow } from '../domain/person.js';
import { FollowRepository } from '../repositories/follow.repository.js';
import { LiveRepository, type LiveStateRow } from '../repositories/live.repository.js';
import { DirectoryService } from './directory.service.js';
import { LiveService } from './live.service.js';

const STREAMER = '1c7d4d2f-9a1f-4b68-8e54-1d2c9a1b3c22';
const tx = {} as EntityManager;
const now = new Date('2026-11-25T12:00:00.000Z');
const streamer: PersonRow = {
  id: STREAMER,
  role: 'streamer',
  displayName: 'Ada',
  twitterUsername: 'ada',
  profileImageUrl: null,
  sourceUpdatedAt: now,
};
const state = (patch: Partial<LiveStateRow> = {}): LiveStateRow => ({
  userId: STREAMER,
  isLive: false,
  livePeriod: null,
  liveSince: null,
  liveRevision: 0,
  nextStreamTime: null,
  streamTimeRevision: 0,
  ...patch,
});

function setup(person: PersonRow, current: LiveStateRow) {
  const { service, mock } = createTestService(LiveService);
  const live = mock(LiveRepository);
  runTransactionsWith(mock(TransactionRunner), tx);
  live.lock.mockResolvedValue(current);
  mock(FollowRepository).count.mockResolvedValue(12);
  mock(DirectoryService).require.mockResolvedValue(person);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, live, outbox };
}

const failure = (promise: Promise<unknown>) => rejectedWith(promise, DomainError);

describe('LiveService', () => {
  it('goes live counting the followers it tells, in one event with the period and revision', async () => {
    const f = setup(streamer, state({ liveRevision: 4 }));
    f.live.goLive.mockResolvedValue(state({ isLive: true, livePeriod: 31, liveSince: now, liveRevision: 5 }));
    await expect(f.service.goLive({ userId: STREAMER }, now)).resolves.toEqual({ notifiedFollowers: 12, state: { isLive: 'true' } });
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'social.live-changed', {
      streamer: { id: STREAMER, displayName: 'Ada', twitterUsername: 'ada', profileImageUrl: null },
      isLive: true,
      livePeriod: 31,
      revision: 5,
      notifiedFollowers: 12,
      at: now.toISOString(),
    });
  });

  it('tells nobody again while already live, and goes offline only when live', async () => {
    const live = setup(streamer, state({ isLive: true, livePeriod: 3, liveSince: now, liveRevision: 1 }));
    await expect(live.service.goLive({ userId: STREAMER }, now)).resolves.toEqual({ notifiedFollowers: 0, state: { isLive: 'true' } });
    expect(live.outbox.append).not.toHaveBeenCalled();
    const offline = setup(streamer, state());
    await expect(offline.service.goOffline({ userId: STREAMER }, now)).resolves.toEqual({ isLive: 'false' });
    expect(offline.live.goOffline).not.toHaveBeenCalled();
    expect(offline.outbox.append).not.toHaveBeenCalled();
  });

  it('refuses every streaming call to a non-streamer with its own words', async () => {
    const f = setup({ ...streamer, role: 'clipper' }, state());
    expect(await failure(f.service.goLive({ userId: STREAMER }))).toMatchObject({
      code: status.PERMISSION_DENIED,
      message: 'Only streamers can go live',
    });
    expect(await failure(f.service.goOffline({ userId: STREAMER }))).toMatchObject({
      code: status.PERMISSION_DENIED,
      message: 'Only streamers can go offline',
    });
    expect(await failure(f.service.setStreamTime({ userId: STREAMER, streamTime: '2026-12-01T20:00:00Z' }))).toMatchObject({
      code: status.PERMISSION_DENIED,
      message: 'Only streamers can set a stream time',
    });
    expect(f.live.lock).not.toHaveBeenCalled();
  });

  it('stores a new stream time with an event; the same time again changes nothing', async () => {
    const at = new Date('2026-12-01T20:00:00.000Z');
    const f = setup(streamer, state({ nextStreamTime: at, streamTimeRevision: 2 }));
    await expect(f.service.setStreamTime({ userId: STREAMER, streamTime: '2026-12-01T21:00:00+01:00' }, now)).resolves.toEqual({
      isLive: 'false',
      nextStreamTime: at.toISOString(),
    });
    expect(f.live.setStreamTime).not.toHaveBeenCalled();
    f.live.setStreamTime.mockResolvedValue(state({ nextStreamTime: null, streamTimeRevision: 3 }));
    await expect(f.service.setStreamTime({ userId: STREAMER }, now)).resolves.toEqual({ isLive: 'false' });
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'social.stream-time-changed', {
      userId: STREAMER,
      nextStreamTime: null,
      revision: 3,
      at: now.toISOString(),
    });
  });

  it('refuses a stream time that is not a future zoned time before locking anything', async () => {
    const f = setup(streamer, state());
    expect(await failure(f.service.setStreamTime({ userId: STREAMER, streamTime: '2026-12-01 20:00' }, now))).toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    expect(await failure(f.service.setStreamTime({ userId: STREAMER, streamTime: '2026-11-20T20:00:00Z' }, now))).toMatchObject({
      message: 'Stream time must be in the future',
    });
    expect(f.live.lock).not.toHaveBeenCalled();
  });
});
