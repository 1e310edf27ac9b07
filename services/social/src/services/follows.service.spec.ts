import { status } from '@grpc/grpc-js';
import { DomainError, Outbox, TransactionRunner } from '@clipit/service-kit';
import { createTestService, rejectedWith, runTransactionsWith } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { PersonRow } from '../domain/person.js';
import { FollowRepository } from '../repositories/follow.repository.js';
import { PeopleRepository } from '../repositories/people.repository.js';
import { DirectoryService } from './directory.service.js';
import { FOLLOWERS_AMONG_MAX, FollowsService } from './follows.service.js';

const FAN = '0b6c3c1e-8f0e-4a57-9d43-0c1b8f0a2b11';
const STREAMER = '1c7d4d2f-9a1f-4b68-8e54-1d2c9a1b3c22';
const tx = {} as EntityManager;
const now = new Date('2026-11-25T12:00:00.000Z');

const person = (id: string, role: PersonRow['role']): PersonRow => ({
  id,
  role,
  displayName: 'Someone',
  twitterUsername: 'someone',
  profileImageUrl: null,
  sourceUpdatedAt: now,
});

function setup(target: PersonRow) {
  const { service, mock } = createTestService(FollowsService);
  const follows = mock(FollowRepository);
  runTransactionsWith(mock(TransactionRunner), tx);
  follows.count.mockResolvedValue(7);
  mock(PeopleRepository).lock.mockResolvedValue(undefined);
  mock(DirectoryService).require.mockResolvedValue(target);
  const outbox = mock(Outbox);
  outbox.append.mockResolvedValue(undefined as never);
  return { service, follows, outbox, directory: mock(DirectoryService) };
}

const failure = (promise: Promise<unknown>) => rejectedWith(promise, DomainError);

describe('FollowsService', () => {
  it('publishes social.followed with the count only when the pair was added', async () => {
    const f = setup(person(STREAMER, 'streamer'));
    f.follows.add.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    await expect(f.service.follow({ followerId: FAN, userId: STREAMER }, now)).resolves.toEqual({ isFollowing: true, followerCount: 7 });
    await expect(f.service.follow({ followerId: FAN, userId: STREAMER }, now)).resolves.toEqual({ isFollowing: true, followerCount: 7 });
    expect(f.outbox.append).toHaveBeenCalledTimes(1);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'social.followed', {
      followerId: FAN,
      userId: STREAMER,
      followerCount: 7,
      at: now.toISOString(),
    });
  });

  it('publishes social.unfollowed only when a pair was removed', async () => {
    const f = setup(person(STREAMER, 'streamer'));
    f.follows.remove.mockResolvedValueOnce(false);
    await expect(f.service.unfollow({ followerId: FAN, userId: STREAMER }, now)).resolves.toEqual({ isFollowing: false, followerCount: 7 });
    expect(f.outbox.append).not.toHaveBeenCalled();
  });

  it('refuses yourself and bad ids before asking who the user is, and a non-streamer after', async () => {
    const f = setup(person(STREAMER, 'clipper'));
    expect(await failure(f.service.follow({ followerId: FAN, userId: FAN.toUpperCase() }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'You cannot follow yourself',
    });
    expect(await failure(f.service.follow({ followerId: FAN, userId: 'x' }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid user id',
    });
    expect(f.directory.require).not.toHaveBeenCalled();
    expect(await failure(f.service.follow({ followerId: FAN, userId: STREAMER }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Only streamers can be followed',
    });
    expect(f.follows.add).not.toHaveBeenCalled();
  });

  it('lets anyone unfollow anyone they follow, streamer or not (a follow from before a role change)', async () => {
    const f = setup(person(STREAMER, 'clipper'));
    f.follows.remove.mockResolvedValueOnce(true);
    await f.service.unfollow({ followerId: FAN, userId: STREAMER }, now);
    expect(f.outbox.append).toHaveBeenCalledWith(tx, 'social.unfollowed', expect.objectContaining({ followerId: FAN, userId: STREAMER }));
  });

  it('answers not following for a visitor and for the user themself, without a lookup', async () => {
    const f = setup(person(STREAMER, 'streamer'));
    await expect(f.service.state({ userId: STREAMER })).resolves.toEqual({ isFollowing: false, followerCount: 7 });
    await expect(f.service.state({ userId: STREAMER, viewerId: STREAMER })).resolves.toEqual({ isFollowing: false, followerCount: 7 });
    expect(f.follows.isFollowing).not.toHaveBeenCalled();
  });

  it('caps FollowersAmong and drops ids that are not uuids', async () => {
    const f = setup(person(STREAMER, 'streamer'));
    f.follows.followersAmong.mockResolvedValue([FAN]);
    await expect(f.service.followersAmong({ streamerId: STREAMER, userIds: [FAN, 'junk'] })).resolves.toEqual({ userIds: [FAN] });
    expect(f.follows.followersAmong).toHaveBeenCalledWith(STREAMER, [FAN]);
    const many = Array.from({ length: FOLLOWERS_AMONG_MAX + 1 }, () => FAN);
    expect(await failure(f.service.followersAmong({ streamerId: STREAMER, userIds: many }))).toMatchObject({
      code: status.RESOURCE_EXHAUSTED,
    });
  });
});
