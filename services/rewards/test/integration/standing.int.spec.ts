import { randomUUID } from 'node:crypto';
import type { RewardsEarningCreatedV1, RewardsStandingChangedV1 } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startRewards, type RewardsHarness } from '../support/rewards-harness.js';

// Rewards fed by the real NATS stream and kept in the real Postgres: submissions' events make standings
// (points, points tier, user tier) and one earning per approved clip, exactly once; tiers are data.

let h: RewardsHarness;
beforeAll(async () => {
  // Every read of the tiers table goes to the database: the 'tiers are data' test changes a rate.
  h = await startRewards({ REWARDS_TABLES_CACHE_MS: 0 });
});
afterAll(async () => {
  await h?.stop();
});

const DAY = 24 * 60 * 60 * 1000;
const eventsOf = <T>(type: string, userId: string) =>
  h.events
    .filter((e) => e.envelope.type === type && (e.envelope.data as { userId: string }).userId === userId)
    .map((e) => e.envelope.data as T);

describe('an approved clip', () => {
  it('earns its tier’s rate once, however often its approval is delivered, and counts for points', async () => {
    const clipper = await h.newUser('clipper', { walletAddress: 'Wallet1111111111111111111111111111111111111' });
    await h.submission('submission.created', { userId: clipper.id, status: 'pending', approvedAt: null });
    const approved = await h.submission('submission.approved', { userId: clipper.id, views: 250 });
    // The same approval again (a redelivery, or a second publish of one fact), then a feed change.
    await h.publisher.publish('submission.approved', { submission: approved });
    await h.submission('submission.approved', { ...approved, addedToFeed: false, updatedAt: new Date(Date.now() + 1000).toISOString() });

    expect(await h.count('SELECT count(*) FROM earnings WHERE submission_id = $1', [approved.id])).toBe(1);
    const dashboard = await h.client.getDashboard({ userId: clipper.id });
    expect(dashboard.earningsSummary).toEqual({ paid: '0', pending: '10', total: '10', held: '0' });
    expect(dashboard.metrics).toMatchObject({
      totalApproved: 1,
      approvedInWindow: 1,
      approvalRate: 1,
      avgViews: 250,
      approvedThisWeek: 1,
      windowWeeks: 4,
    });
    expect(dashboard.currentTier).toBe(1);
    expect(dashboard.tierProgress).toMatchObject({
      currentTier: { name: 'Bronze', ratePerClip: '10' },
      nextTier: { name: 'Silver', ratePerClip: '15' },
    });
    expect(dashboard.recentSubmissions[0]).toMatchObject({ id: approved.id, status: 'approved', views: 250, platform: 'twitter' });

    // 10 × 1 approved × ratio 1 + 250 / 10 = 35.
    const stats = await h.client.getClipperStats({ userId: clipper.id });
    expect(stats).toMatchObject({
      points: 35,
      tier: 'bronze',
      breakdown: { approvedCount: 1, basePoints: 10, viewBonusPoints: 25, approvalRatio: 1, inactivityPenalty: false, finalPoints: 35 },
      // Spec 02 §6, answered by rewards (the gateway passes it on).
      lockedFeatures: ['Streamer Multipliers', 'Hire Button Visibility', 'Paid Campaigns'],
    });
    const earned = await waitFor(() =>
      eventsOf<RewardsEarningCreatedV1>('rewards.earning-created', clipper.id).length
        ? eventsOf<RewardsEarningCreatedV1>('rewards.earning-created', clipper.id)
        : undefined,
    );
    expect(earned).toEqual([expect.objectContaining({ submissionId: approved.id, amount: '10' })]);
  });

  it('ignores an event older than the state it holds', async () => {
    const clipper = await h.newUser('clipper');
    const approved = await h.submission('submission.approved', { userId: clipper.id });
    // A rejection stamped before the approval arrives late: not applied.
    await h.publisher.publish('submission.rejected', {
      submission: {
        ...approved,
        status: 'rejected',
        approvedAt: null,
        rejectedReason: 'late',
        updatedAt: new Date(Date.parse(approved.updatedAt) - 5000).toISOString(),
      },
    });
    await h.submission('submission.created', { userId: clipper.id, status: 'pending', approvedAt: null }); // a later event: the one before it was handled
    expect((await h.db.query('SELECT status FROM submissions WHERE id = $1', [approved.id])).rows[0]).toEqual({ status: 'approved' });
  });
});

describe('post metrics (metrics.updated)', () => {
  it('moves an approved clip’s views, and with them the clipper’s points and average, without earning twice; an older snapshot changes nothing', async () => {
    const clipper = await h.newUser('clipper');
    // Approved before its post was verified: it counts 0 views.
    const approved = await h.submission('submission.approved', { userId: clipper.id, views: 0 });
    expect(await h.client.getClipperStats({ userId: clipper.id })).toMatchObject({ points: 10 });

    const at = (ms: number) => new Date(Date.parse(approved.updatedAt) + ms).toISOString();
    const verified = { ...approved, views: 4000, likes: 120, verifiedAt: at(2000), updatedAt: at(2000) };
    await h.publisher.publish('metrics.updated', { submission: verified, previousViews: 0, fetchedAt: at(2000) });
    await waitFor(
      async () =>
        (await h.count('SELECT count(*) FROM submissions WHERE id = $1 AND views = 4000', [approved.id])) === 1 ? true : undefined,
      10_000,
      'metrics.updated applied',
    );
    // An earlier read published late: older than what is held, so not applied.
    const { envelope } = await h.publisher.publish('metrics.updated', {
      submission: { ...approved, views: 900, verifiedAt: at(1000), updatedAt: at(1000) },
      previousViews: 0,
      fetchedAt: at(1000),
    });
    await waitFor(
      async () =>
        (await h.count(`SELECT count(*) FROM inbox WHERE consumer = 'rewards' AND event_id = $1`, [envelope.id])) === 1 ? true : undefined,
      10_000,
      'the late metrics.updated handled',
    );

    expect((await h.db.query('SELECT views FROM submissions WHERE id = $1', [approved.id])).rows[0]).toEqual({ views: '4000' });
    // 10 × 1 approved × ratio 1 + 4000 / 10 = 410.
    expect(await h.client.getClipperStats({ userId: clipper.id })).toMatchObject({ points: 410, breakdown: { viewBonusPoints: 400 } });
    expect((await h.client.getDashboard({ userId: clipper.id })).metrics).toMatchObject({ avgViews: 4000 });
    expect(await h.count('SELECT count(*) FROM earnings WHERE submission_id = $1', [approved.id])).toBe(1);
  });
});

describe('standing', () => {
  it('rises to Silver when every requirement is met, tells the platform, and from then on pays and counts the tagged streamer’s multiplier', async () => {
    const clipper = await h.newUser('clipper');
    const streamer = await h.newUser('streamer');
    await h.publisher.publish('social.followed', {
      followerId: randomUUID(),
      userId: streamer.id,
      followerCount: 1000,
      at: new Date().toISOString(),
    });
    await waitFor(async () =>
      (await h.count('SELECT follower_count FROM people WHERE id = $1', [streamer.id])) === 1000 ? true : undefined,
    );

    for (let i = 0; i < 9; i += 1) await h.submission('submission.approved', { userId: clipper.id, views: 500 });
    expect((await h.client.getDashboard({ userId: clipper.id })).currentTier).toBe(1);
    // The 10th approved clip meets Silver (10 approved, 5 in 4 weeks, 100%, 500 average views).
    await h.submission('submission.approved', { userId: clipper.id, views: 500 });
    const dashboard = await h.client.getDashboard({ userId: clipper.id });
    expect(dashboard.currentTier).toBe(2);
    expect(dashboard.tierProgress!.currentTier).toEqual({ name: 'Silver', ratePerClip: '15' });
    expect(dashboard.tierProgress!.missingRequirements).toEqual(expect.arrayContaining([expect.stringMatching(/^15 more approved clips/)]));

    // A clip tagged with a streamer of 1,000 followers: 15 × 1.5.
    const tagged = await h.submission('submission.approved', { userId: clipper.id, views: 500, streamerId: streamer.id });
    expect((await h.db.query('SELECT amount::text FROM earnings WHERE submission_id = $1', [tagged.id])).rows[0]).toEqual({
      amount: '22.500000',
    });
    // 9 × 10 at Bronze, the 10th at Silver's 15, then 22.5.
    expect((await h.client.getDashboard({ userId: clipper.id })).earningsSummary!.pending).toBe('127.5');
    // Base 10 × ratio 1 × (10 × 1 + 1.5) = 115; views 11 × 500 / 10 = 550.
    expect(await h.client.getClipperStats({ userId: clipper.id })).toMatchObject({
      points: 665,
      tier: 'silver',
      lockedFeatures: ['Hire Button Visibility', 'Paid Campaigns'],
    });

    const changes = await waitFor(() => {
      const seen = eventsOf<RewardsStandingChangedV1>('rewards.standing-changed', clipper.id);
      return seen.some((e) => e.currentTier === 2) ? seen : undefined;
    });
    expect(changes.map((e) => e.revision)).toEqual(changes.map((_, i) => i + 1));
    expect(changes.find((e) => e.currentTier === 2)).toMatchObject({ clipperTier: 'silver' });
  });

  it('halves the points after 14 days without an approved clip when Refresh Points recomputes them, and ranks clippers by points', async () => {
    const quiet = await h.newUser('clipper');
    await h.submission('submission.approved', { userId: quiet.id, views: 100, approvedAt: new Date(Date.now() - 15 * DAY).toISOString() });
    const refreshed = await h.client.refreshPoints({ userId: quiet.id });
    // (10 + 100 / 10) × 0.5.
    expect(refreshed).toMatchObject({ points: 10, breakdown: { inactivityPenalty: true, finalPoints: 10 } });
    const top = (await h.db.query<{ n: string }>('SELECT max(clip_points)::text AS n FROM clipper_standings')).rows[0]!.n;
    const total = await h.count('SELECT count(*) FROM clipper_standings');
    const above = await h.count('SELECT count(*) FROM clipper_standings WHERE clip_points > 10');
    expect(refreshed).toMatchObject({ rank: above + 1, totalClippers: total });
    expect(Number(top)).toBeGreaterThan(10);
  });

  it('counts a rejection against the approval ratio', async () => {
    const clipper = await h.newUser('clipper');
    await h.submission('submission.approved', { userId: clipper.id });
    await h.submission('submission.rejected', { userId: clipper.id });
    expect(await h.client.getClipperStats({ userId: clipper.id })).toMatchObject({
      points: 5,
      breakdown: { approvalRatio: 0.5, basePoints: 5 },
    });
    const dashboard = await h.client.getDashboard({ userId: clipper.id });
    expect(dashboard.recentSubmissions[0]).toMatchObject({ status: 'rejected', rejectedReason: 'Not a clip of the stream' });
  });
});

describe('tiers are data', () => {
  it('lists the seeded tiers, and a changed rate pays the next approval without a deploy', async () => {
    const { tiers } = await h.client.listTiers({});
    expect(tiers.map((t) => [t.name, t.ratePerPost, t.minTotalApproved, t.minApprovedInWindow, t.minApprovalRate, t.minAvgViews])).toEqual([
      ['Bronze', '10', 0, 1, 0.5, 100],
      ['Silver', '15', 10, 5, 0.7, 500],
      ['Gold', '25', 25, 10, 0.8, 1500],
      ['Diamond', '40', 50, 20, 0.9, 5000],
    ]);
    await h.db.query('UPDATE tiers SET rate_per_post = 12.25 WHERE level = 1');
    try {
      const clipper = await h.newUser('clipper');
      const s = await h.submission('submission.approved', { userId: clipper.id });
      expect((await h.db.query('SELECT amount::text FROM earnings WHERE submission_id = $1', [s.id])).rows[0]).toEqual({
        amount: '12.250000',
      });
    } finally {
      await h.db.query('UPDATE tiers SET rate_per_post = 10 WHERE level = 1');
    }
  });
});

describe('earnings and payouts reads', () => {
  it('pages a clipper’s earnings newest first with the clip’s name, and refuses a bad id or cursor', async () => {
    const clipper = await h.newUser('clipper');
    for (let i = 0; i < 3; i += 1) await h.submission('submission.approved', { userId: clipper.id, name: `Clip ${i}` });
    const first = await h.client.listEarnings({ userId: clipper.id, limit: 2 });
    expect(first.earnings.map((e) => e.submissionName)).toEqual(['Clip 2', 'Clip 1']);
    expect(first.earnings[0]).toMatchObject({ status: 'pending', type: 'post', amount: '10' });
    const second = await h.client.listEarnings({ userId: clipper.id, limit: 2, cursor: first.nextCursor! });
    expect(second.earnings.map((e) => e.submissionName)).toEqual(['Clip 0']);
    expect(second.nextCursor).toBeUndefined();
    await expect(h.client.listEarnings({ userId: 'nope', limit: 2 })).rejects.toThrow('Invalid user id');
    await expect(h.client.listEarnings({ userId: clipper.id, limit: 2, cursor: 'junk' })).rejects.toThrow('Invalid cursor');
    expect(await h.client.listPayouts({ limit: 10 })).toEqual({ payouts: [] });
  });
});
