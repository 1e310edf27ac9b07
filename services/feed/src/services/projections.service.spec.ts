import { randomUUID } from 'node:crypto';
import { eventCatalog, type EventType } from '@clipit/contracts';
import { buildEventEnvelope } from '@clipit/service-kit';
import { automock, submissionSnapshot, tokenSnapshot, userSnapshot } from '@clipit/testing';
import { describe, expect, it } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { ProjectionStore } from '../repositories/projection.store.js';
import { Projections, type ProjectedEventType } from './projections.service.js';

const tx = {} as EntityManager;

function setup() {
  const store = automock(ProjectionStore);
  for (const method of [
    'applyUser',
    'applyToken',
    'applySubmission',
    'applyLike',
    'applyFollowerCount',
    'recomputeAllFigures',
    'applyStanding',
    'applyStreamerMultiplier',
    'applyClipperProfile',
  ] as const) {
    store[method].mockResolvedValue(undefined as never);
  }
  return { store, handlers: new Projections(store).handlers() };
}

const apply = <T extends ProjectedEventType>(
  handlers: ReturnType<typeof setup>['handlers'],
  type: T,
  data: Parameters<typeof buildEventEnvelope<T>>[1],
) => (handlers[type] as (e: unknown, tx: EntityManager) => Promise<void>)(buildEventEnvelope(type, data), tx);

describe('Projections', () => {
  it('covers every event of identity, submissions, social, rewards and campaigns the public reads show, and nothing else', () => {
    const { handlers } = setup();
    const wanted = (Object.keys(eventCatalog) as EventType[]).filter(
      (t) =>
        // Not submission.matches-changed: a clip's matches are the moderator's and its hold rewards' (ADR 0048,
        // 0050); nothing a public read shows moves with them, and the next snapshot-bearing event carries the rest.
        (t.startsWith('submission.') && t !== 'submission.matches-changed') ||
        [
          'user.registered',
          'user.updated',
          'token.changed',
          'metrics.updated',
          'social.liked',
          'social.unliked',
          'social.followed',
          'social.unfollowed',
          'rewards.standing-changed',
          'rewards.streamer-multiplier-changed',
          'clipper-profile.changed',
        ].includes(t),
    );
    expect(Object.keys(handlers).sort()).toEqual(wanted.sort());
  });

  it('keeps rewards’ clip points and applied multipliers, and campaigns’ clipper profiles, each with its revision', async () => {
    const { store, handlers } = setup();
    const userId = randomUUID();
    const at = '2026-11-26T10:00:00.000Z';
    const standing = { userId, clipPoints: 42, clipperTier: 'bronze' as const, currentTier: 1, revision: 3, at };
    await apply(handlers, 'rewards.standing-changed', standing);
    expect(store.applyStanding).toHaveBeenCalledWith(tx, standing);
    const multiplier = { userId, multiplier: 1.25, followerCount: 150, revision: 2, at };
    await apply(handlers, 'rewards.streamer-multiplier-changed', multiplier);
    expect(store.applyStreamerMultiplier).toHaveBeenCalledWith(tx, multiplier);
    const profile = {
      id: randomUUID(),
      userId,
      displayName: 'Casey',
      profileImageUrl: null,
      averageRating: 4.5,
      totalReviews: 2,
      totalHires: 3,
      isAvailable: 'true' as const,
      updatedAt: at,
    };
    await apply(handlers, 'clipper-profile.changed', { profile, revision: 5 });
    expect(store.applyClipperProfile).toHaveBeenCalledWith(tx, profile, 5);
  });

  it('applies users and tokens as their snapshots', async () => {
    const { store, handlers } = setup();
    const user = userSnapshot('clipper');
    await apply(handlers, 'user.registered', { user, claimedPlaceholderId: null });
    await apply(handlers, 'user.updated', { user, changed: ['displayName'] });
    expect(store.applyUser.mock.calls).toEqual([
      [tx, user],
      [tx, user],
    ]);
    const token = tokenSnapshot(user.id);
    await apply(handlers, 'token.changed', { token });
    expect(store.applyToken).toHaveBeenCalledWith(tx, token);
  });

  it('applies every submission event as the snapshot it carries', async () => {
    const { store, handlers } = setup();
    const s = submissionSnapshot();
    await apply(handlers, 'submission.created', { submission: s });
    await apply(handlers, 'submission.approved', { submission: s });
    await apply(handlers, 'submission.rejected', { submission: s });
    await apply(handlers, 'submission.feed-changed', { submission: s, addedToFeed: true });
    await apply(handlers, 'submission.video-changed', { submission: s, reason: null });
    await apply(handlers, 'metrics.updated', { submission: s, previousViews: 0, fetchedAt: s.updatedAt });
    expect(store.applySubmission).toHaveBeenCalledTimes(6);
    for (const call of store.applySubmission.mock.calls) expect(call).toEqual([tx, s]);
  });

  it('keeps a like as the count after it and the viewer’s pair, an unlike likewise', async () => {
    const { store, handlers } = setup();
    const [userId, clipId, clipOwnerId] = [randomUUID(), randomUUID(), randomUUID()];
    const at = '2026-11-26T10:00:00.000Z';
    await apply(handlers, 'social.liked', { userId, clipId, clipOwnerId, likeCount: 3, at });
    await apply(handlers, 'social.unliked', { userId, clipId, clipOwnerId, likeCount: 2, at });
    expect(store.applyLike.mock.calls).toEqual([
      [tx, userId, clipId, true, 3, at],
      [tx, userId, clipId, false, 2, at],
    ]);
  });

  it('keeps a follow or an unfollow as the streamer’s count after it', async () => {
    const { store, handlers } = setup();
    const [followerId, userId] = [randomUUID(), randomUUID()];
    const at = '2026-11-26T10:00:00.000Z';
    await apply(handlers, 'social.followed', { followerId, userId, followerCount: 8, at });
    await apply(handlers, 'social.unfollowed', { followerId, userId, followerCount: 7, at });
    expect(store.applyFollowerCount.mock.calls).toEqual([
      [tx, { id: userId, count: 8, at }],
      [tx, { id: userId, count: 7, at }],
    ]);
  });
});
