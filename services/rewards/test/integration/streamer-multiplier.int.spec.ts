import { randomUUID } from 'node:crypto';
import type { RewardsStreamerMultiplierChangedV1 } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { StreamerMultiplierService } from '../../src/services/streamer-multiplier.service.js';
import { startRewards, userSnapshot, type RewardsHarness } from '../support/rewards-harness.js';

// The multiplier rewards applies to a streamer's clips, told to the platform (rewards.streamer-multiplier-changed,
// ADR 0042) through the real outbox and NATS: on sign-up, on a follower step crossed, on an admin change, and by
// the daily recompute after the steps table changed; never for a clipper, never twice for the same value.

let h: RewardsHarness;
beforeAll(async () => {
  // Every read of the steps table goes to the database: the last test changes a step.
  h = await startRewards({ REWARDS_TABLES_CACHE_MS: 0 });
});
afterAll(async () => {
  await h?.stop();
});

const toldOf = (userId: string) =>
  h.events
    .filter((e) => e.envelope.type === 'rewards.streamer-multiplier-changed')
    .map((e) => e.envelope.data as RewardsStreamerMultiplierChangedV1)
    .filter((d) => d.userId === userId)
    .map((d) => [d.multiplier, d.followerCount, d.revision]);
const until = (userId: string, n: number) =>
  waitFor(async () => (toldOf(userId).length >= n ? true : undefined), 10_000, `${n} multiplier event(s)`);
const follow = async (userId: string, followerCount: number) => {
  await h.publisher.publish('social.followed', { followerId: randomUUID(), userId, followerCount, at: new Date().toISOString() });
  await waitFor(async () =>
    (await h.count('SELECT follower_count FROM people WHERE id = $1', [userId])) === followerCount ? true : undefined,
  );
};

describe('rewards.streamer-multiplier-changed', () => {
  it('tells a new streamer’s step, each step crossed and an admin’s multiplier, once each, with growing revisions', async () => {
    const streamer = await h.newUser('streamer');
    await until(streamer.id, 1);
    await follow(streamer.id, 99);
    await follow(streamer.id, 100);
    await until(streamer.id, 2);
    await follow(streamer.id, 150);
    const admin = userSnapshot('streamer', {
      ...streamer,
      streamerMultiplier: '1.80',
      updatedAt: new Date(Date.now() + 1000).toISOString(),
    });
    await h.publisher.publish('user.updated', { user: admin, changed: ['streamerMultiplier'] });
    await until(streamer.id, 3);
    expect(toldOf(streamer.id)).toEqual([
      [1.1, 0, 1],
      [1.25, 100, 2],
      [1.8, 150, 3],
    ]);
    expect((await h.db.query('SELECT applied_multiplier, multiplier_revision FROM people WHERE id = $1', [streamer.id])).rows).toEqual([
      { applied_multiplier: '1.80', multiplier_revision: 3 },
    ]);

    const clipper = await h.newUser('clipper');
    await follow(clipper.id, 5000);
    expect(toldOf(clipper.id)).toEqual([]);
  });

  it('tells every streamer a changed step in the daily recompute, and nothing when nothing changed', async () => {
    const streamer = await h.newUser('streamer');
    await until(streamer.id, 1);
    const service = h.app.get(StreamerMultiplierService);
    expect((await service.reconcileAll()).changed).toBe(0);
    await h.db.query('UPDATE multiplier_steps SET multiplier = 1.15 WHERE min_followers = 0');
    try {
      const run = await service.reconcileAll();
      expect(run.changed).toBeGreaterThanOrEqual(1);
      await until(streamer.id, 2);
      expect(toldOf(streamer.id)).toEqual([
        [1.1, 0, 1],
        [1.15, 0, 2],
      ]);
    } finally {
      await h.db.query('UPDATE multiplier_steps SET multiplier = 1.1 WHERE min_followers = 0');
    }
  });
});
