import { randomUUID } from 'node:crypto';
import { subjectFor, type SubmissionSnapshot } from '@clipit/contracts';
import { buildEventEnvelope, jetstream } from '@clipit/service-kit';
import { submissionSnapshot, tokenSnapshot, userSnapshot, waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFeed, type FeedHarness } from '../support/feed-harness.js';

// The projections against the real Postgres and NATS: events published on the run's stream as their
// owners publish them, sometimes out of order, twice, or redelivered, and the answers read over gRPC.

let h: FeedHarness;

beforeAll(async () => {
  h = await startFeed();
});
afterAll(async () => {
  await h?.stop();
});

const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const playable = (id: string): Partial<SubmissionSnapshot> => ({
  videoState: 'ready',
  hasVideo: true,
  videoUrl: `/media/videos/${id}/video.mp4`,
  videoThumbnailUrl: `/media/videos/${id}/poster.jpg`,
  videoDuration: 12.5,
  videoAspectRatio: '9:16',
  playbackId: id,
});

/** A clip in the feed with a playable video, approved `ms` after a common start (so the order is known). */
function feedClip(userId: string, at: string, patch: Partial<SubmissionSnapshot> = {}): SubmissionSnapshot {
  const id = randomUUID();
  return submissionSnapshot({ id, userId, approvedAt: at, createdAt: at, updatedAt: at, ...playable(id), ...patch });
}

async function feedIds(limit = 50): Promise<string[]> {
  return (await h.client.listFeedClips({ limit })).clips.map((c) => c.id);
}

describe('the feed', () => {
  it('shows approved clips in the feed with a playable video, newest first, with their author and token', async () => {
    const clipper = userSnapshot('clipper', { displayName: 'Feed Clipper', firstName: 'Fe', lastName: 'Ed', currentTier: 2 });
    const streamer = userSnapshot('streamer');
    const token = tokenSnapshot(streamer.id, { name: 'FEED', pumpFunLink: 'https://pump.fun/coin/feed' });
    const t0 = new Date(Date.now() - 60_000).toISOString();
    const older = feedClip(clipper.id, t0, { tokenId: token.id, name: 'Older', additionalInfo: 'about it' });
    const newer = feedClip(clipper.id, later(t0, 1000), { name: 'Newer' });
    const noVideo = submissionSnapshot({ userId: clipper.id, approvedAt: later(t0, 2000), updatedAt: later(t0, 2000) });
    const notInFeed = feedClip(clipper.id, later(t0, 3000), { addedToFeed: false });
    const pending = feedClip(clipper.id, later(t0, 4000), { status: 'pending', approvedAt: null });
    await h.apply(
      ['user.registered', { user: clipper, claimedPlaceholderId: null }],
      ['user.registered', { user: streamer, claimedPlaceholderId: null }],
      ['token.changed', { token }],
      ['submission.approved', { submission: older }],
      ['submission.approved', { submission: newer }],
      ['submission.approved', { submission: noVideo }],
      ['submission.approved', { submission: notInFeed }],
      ['submission.created', { submission: pending }],
    );
    const ids = await feedIds();
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids).not.toContain(noVideo.id);
    expect(ids).not.toContain(notInFeed.id);
    expect(ids).not.toContain(pending.id);

    const { clips } = await h.client.listFeedClips({ limit: 50 });
    expect(clips.find((c) => c.id === older.id)).toEqual({
      id: older.id,
      name: 'Older',
      url: older.url,
      externalId: older.externalId,
      authorHandle: older.authorHandle,
      description: 'about it',
      status: 'approved',
      hasVideo: true,
      isProcessing: false,
      videoUrl: older.videoUrl,
      videoThumbnailUrl: older.videoThumbnailUrl,
      videoDuration: 12.5,
      videoAspectRatio: '9:16',
      playbackId: older.id,
      views: 0,
      likes: 0,
      retweets: 0,
      replies: 0,
      userId: clipper.id,
      tokenId: token.id,
      likeCount: 0,
      user: { displayName: 'Feed Clipper', firstName: 'Fe', lastName: 'Ed', twitterUsername: clipper.twitterUsername, currentTier: 2 },
      token: { id: token.id, name: 'FEED', pumpFunLink: 'https://pump.fun/coin/feed', streamerId: streamer.id },
      createdAt: new Date(t0).toISOString(),
    });
  });

  it('takes a clip out when it leaves the feed and puts it back on top when it returns', async () => {
    const clipper = userSnapshot('clipper');
    const t0 = new Date(Date.now() - 30_000).toISOString();
    const a = feedClip(clipper.id, t0);
    const b = feedClip(clipper.id, later(t0, 1000));
    await h.apply(
      ['user.registered', { user: clipper, claimedPlaceholderId: null }],
      ['submission.approved', { submission: a }],
      ['submission.approved', { submission: b }],
    );
    expect((await feedIds()).indexOf(b.id)).toBeLessThan((await feedIds()).indexOf(a.id));

    await h.apply([
      'submission.feed-changed',
      { submission: { ...a, addedToFeed: false, updatedAt: later(t0, 5000) }, addedToFeed: false },
    ]);
    expect(await feedIds()).not.toContain(a.id);
    await h.apply(['submission.feed-changed', { submission: { ...a, addedToFeed: true, updatedAt: later(t0, 9000) }, addedToFeed: true }]);
    const ids = await feedIds();
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
  });

  it('keeps the newest snapshot when events arrive out of order, and applies a duplicate or a redelivery once', async () => {
    const clipper = userSnapshot('clipper');
    const t0 = new Date(Date.now() - 20_000).toISOString();
    const approved = feedClip(clipper.id, later(t0, 2000), { updatedAt: later(t0, 2000) });
    const created = { ...approved, status: 'pending' as const, approvedAt: null, addedToFeed: false, updatedAt: t0 };
    await h.apply(['submission.approved', { submission: approved }], ['submission.created', { submission: created }]);
    expect(await feedIds()).toContain(approved.id);
    // The clipper's event comes last: their figures are computed from the clips already here.
    await h.apply(['user.registered', { user: clipper, claimedPlaceholderId: null }]);
    const profile = await h.client.getClipperProfile({ userId: clipper.id, limit: 10 });
    expect(profile.profile!.figures).toMatchObject({ totalClips: 1, approvedClips: 1 });

    // The same envelope again under another message id (a redelivery JetStream cannot deduplicate).
    const envelope = buildEventEnvelope('social.liked', {
      userId: randomUUID(),
      clipId: approved.id,
      clipOwnerId: clipper.id,
      likeCount: 1,
      at: later(t0, 3000),
    });
    const js = jetstream(h.nc);
    const subject = subjectFor('social.liked', h.names.subjectPrefix);
    await js.publish(subject, JSON.stringify(envelope), { msgID: envelope.id });
    await js.publish(subject, JSON.stringify(envelope), { msgID: `${envelope.id}-again` });
    await h.apply(['user.updated', { user: { ...clipper, updatedAt: later(clipper.updatedAt, 1) }, changed: ['displayName'] }]);
    expect(await h.count(`SELECT count(*) FROM inbox WHERE event_id = $1`, [envelope.id])).toBe(1);
    expect((await h.client.listFeedClips({ limit: 50 })).clips.find((c) => c.id === approved.id)!.likeCount).toBe(1);
  });

  it('keeps the like count of the latest change and who likes what, whatever order the likes arrive in', async () => {
    const clipper = userSnapshot('clipper');
    const clip = feedClip(clipper.id, new Date().toISOString());
    const fan = randomUUID();
    const other = randomUUID();
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    await h.apply(
      ['submission.approved', { submission: clip }],
      ['social.liked', { userId: fan, clipId: clip.id, clipOwnerId: clipper.id, likeCount: 1, at: at(1) }],
      ['social.liked', { userId: other, clipId: clip.id, clipOwnerId: clipper.id, likeCount: 2, at: at(2) }],
      ['social.unliked', { userId: other, clipId: clip.id, clipOwnerId: clipper.id, likeCount: 1, at: at(4) }],
      // Arrives late: older than the unlike it comes after.
      ['social.liked', { userId: other, clipId: clip.id, clipOwnerId: clipper.id, likeCount: 2, at: at(3) }],
    );
    expect((await h.client.listFeedClips({ limit: 50 })).clips.find((c) => c.id === clip.id)!.likeCount).toBe(1);
    await expect(h.client.likedAmong({ viewerId: fan, clipIds: [clip.id, randomUUID()] })).resolves.toEqual({ clipIds: [clip.id] });
    await expect(h.client.likedAmong({ viewerId: other, clipIds: [clip.id] })).resolves.toEqual({ clipIds: [] });
  });

  it('pages by an opaque cursor with no duplicate and no gap while clips are added and removed between pages', async () => {
    const clipper = userSnapshot('clipper');
    const base = Date.now() + 3_600_000; // above everything else in this file
    const clips = Array.from({ length: 9 }, (_, i) => feedClip(clipper.id, new Date(base + i * 1000).toISOString()));
    await h.apply(...clips.map((submission) => ['submission.approved', { submission }] as const));
    const first = await h.client.listFeedClips({ limit: 3 });
    expect(first.clips.map((c) => c.id)).toEqual([clips[8]!.id, clips[7]!.id, clips[6]!.id]);
    expect(first.nextCursor).toEqual(expect.any(String));

    // Between pages: a new clip on top, one already seen removed, one not seen yet removed.
    const fresh = feedClip(clipper.id, new Date(base + 60_000).toISOString());
    await h.apply(
      ['submission.approved', { submission: fresh }],
      [
        'submission.feed-changed',
        { submission: { ...clips[7]!, addedToFeed: false, updatedAt: new Date(base + 70_000).toISOString() }, addedToFeed: false },
      ],
      [
        'submission.feed-changed',
        { submission: { ...clips[4]!, addedToFeed: false, updatedAt: new Date(base + 70_000).toISOString() }, addedToFeed: false },
      ],
    );
    const second = await h.client.listFeedClips({ limit: 3, cursor: first.nextCursor! });
    expect(second.clips.map((c) => c.id)).toEqual([clips[5]!.id, clips[3]!.id, clips[2]!.id]);
    const third = await h.client.listFeedClips({ limit: 3, cursor: second.nextCursor! });
    expect(third.clips.map((c) => c.id).slice(0, 2)).toEqual([clips[1]!.id, clips[0]!.id]);
  });

  it('bounds the page size and refuses a cursor it did not write', async () => {
    expect((await h.client.listFeedClips({ limit: 500 })).clips.length).toBeLessThanOrEqual(50);
    await expect(h.client.listFeedClips({ limit: 10, cursor: 'not-a-cursor' })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid cursor',
    });
  });
});

describe('leaderboards, creators and profiles', () => {
  it('computes each person’s figures, mindshare, featured clippers, top streamers and creators from the events', async () => {
    const star = userSnapshot('clipper', { displayName: 'Star' });
    const rookie = userSnapshot('clipper', { displayName: 'Rookie' });
    const streamer = userSnapshot('streamer', { streamerMultiplier: '1.50' });
    const fan = randomUUID();
    const token = tokenSnapshot(streamer.id);
    const t0 = new Date(Date.now() - 10_000).toISOString();
    const starClips = [
      feedClip(star.id, t0, { views: 3000, likes: 30, tokenId: token.id }),
      feedClip(star.id, later(t0, 1), { views: 1000, likes: 10, streamerId: streamer.id }),
      submissionSnapshot({ userId: star.id, status: 'rejected', approvedAt: null, addedToFeed: false, views: 99999 }),
    ];
    const rookieClip = submissionSnapshot({ userId: rookie.id, views: 1000, hasVideo: false });
    await h.apply(
      ['user.registered', { user: star, claimedPlaceholderId: null }],
      ['user.registered', { user: rookie, claimedPlaceholderId: null }],
      ['user.registered', { user: streamer, claimedPlaceholderId: null }],
      ...starClips.map((submission) => ['submission.approved', { submission }] as const),
      ['submission.approved', { submission: rookieClip }],
      // The token after the clip tagged through it: the clip still counts for its streamer.
      ['token.changed', { token }],
      ['social.followed', { followerId: fan, userId: streamer.id, followerCount: 1, at: new Date().toISOString() }],
    );

    const { profile, submissions } = await h.client.getClipperProfile({ userId: star.id, limit: 10 });
    expect(profile!.figures).toEqual({
      totalClips: 3,
      approvedClips: 2,
      totalViews: 4000,
      totalLikes: 40,
      avgViews: 2000,
      followerCount: 0,
      taggedClips: 0,
      taggedViews: 0,
    });
    expect(submissions.map((s) => s.id).sort()).toEqual([starClips[0]!.id, starClips[1]!.id].sort());

    const streamerProfile = await h.client.getClipperProfile({ userId: streamer.id, limit: 10 });
    expect(streamerProfile.profile!.figures).toMatchObject({ followerCount: 1, taggedClips: 2, taggedViews: 4000 });
    expect(streamerProfile.profile!.person).toMatchObject({ role: 'streamer', streamerMultiplier: '1.50' });

    const { users } = await h.client.leaderboardUsers({ limit: 100 });
    const stats = await h.client.getLeaderboardStats({});
    const starEntry = users.find((u) => u.entry!.person!.id === star.id)!;
    expect(starEntry.mindshare).toBeCloseTo((4000 / stats.totalViews) * 100, 1);
    expect(users.reduce((sum, u) => sum + u.mindshare, 0)).toBeLessThanOrEqual(100.05);

    // Uploaded video first, then most views: the rookie's 1,000-view post without a video comes after the star's videos.
    const { posts } = await h.client.leaderboardPosts({ limit: 100 });
    const order = posts.map((p) => p.id);
    expect(order.indexOf(starClips[0]!.id)).toBeLessThan(order.indexOf(starClips[1]!.id));
    expect(order.indexOf(starClips[1]!.id)).toBeLessThan(order.indexOf(rookieClip.id));
    expect(order).not.toContain(starClips[2]!.id);
    expect(posts.every((p) => p.status === 'approved')).toBe(true);

    const featured = (await h.client.featuredClippers({ limit: 50 })).clippers.map((c) => c.person!.id);
    expect(featured.indexOf(star.id)).toBeLessThan(featured.indexOf(rookie.id));
    const top = (await h.client.topStreamers({ limit: 50 })).streamers;
    expect(top[0]!.person!.id).toBe(streamer.id);

    const clippers = (await h.client.listCreators({ tab: 'clippers' })).creators.map((c) => c.person!.id);
    expect(clippers).toEqual(expect.arrayContaining([star.id, rookie.id]));
    expect(clippers).not.toContain(streamer.id);
    expect((await h.client.listCreators({ tab: 'streamers' })).creators.map((c) => c.person!.id)).toContain(streamer.id);
    await expect(h.client.listCreators({ tab: 'admins' })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Tab must be clippers or streamers',
    });
  });

  it('answers 0 (never NaN) for mindshare when nothing has views', async () => {
    const fresh = await startFeed();
    try {
      const clipper = userSnapshot('clipper');
      await fresh.apply(
        ['user.registered', { user: clipper, claimedPlaceholderId: null }],
        ['submission.approved', { submission: submissionSnapshot({ userId: clipper.id }) }],
      );
      const { users } = await fresh.client.leaderboardUsers({ limit: 10 });
      expect(users.map((u) => u.mindshare)).toEqual([0]);
      await expect(fresh.client.getLeaderboardStats({})).resolves.toEqual({ totalPosts: 1, activeUsers: 1, totalViews: 0 });
    } finally {
      await fresh.stop();
    }
  });

  it('answers Clipper not found for an unknown or malformed id', async () => {
    await expect(h.client.getClipperProfile({ userId: randomUUID(), limit: 10 })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      message: 'Clipper not found',
    });
    await expect(h.client.getClipperProfile({ userId: 'nope', limit: 10 })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      message: 'Clipper not found',
    });
  });

  it('shows a streamer’s tagged clips: approved ones to anyone, every status to the streamer', async () => {
    const streamer = userSnapshot('streamer');
    const clipper = userSnapshot('clipper');
    const approved = feedClip(clipper.id, new Date().toISOString(), { streamerId: streamer.id });
    const pending = submissionSnapshot({
      userId: clipper.id,
      streamerId: streamer.id,
      status: 'pending',
      approvedAt: null,
      addedToFeed: false,
    });
    await h.apply(
      ['user.registered', { user: streamer, claimedPlaceholderId: null }],
      ['submission.approved', { submission: approved }],
      ['submission.created', { submission: pending }],
    );
    const anyone = await h.client.listTaggedVideos({ userId: streamer.id, limit: 50 });
    expect(anyone.videos.map((v) => v.id)).toEqual([approved.id]);
    const own = await h.client.listTaggedVideos({ userId: streamer.id, viewerId: streamer.id, limit: 50 });
    expect(own.videos.map((v) => [v.id, v.status]).sort()).toEqual(
      [
        [approved.id, 'approved'],
        [pending.id, 'pending'],
      ].sort(),
    );
    await expect(h.client.listTaggedVideos({ userId: 'x', limit: 5 })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      message: 'Invalid user id',
    });
  });

  it('answers the total of tagged clips beside each page, and User not found for an id that is no user', async () => {
    const streamer = userSnapshot('streamer');
    const clipper = userSnapshot('clipper');
    const t0 = new Date(Date.now() - 60_000).toISOString();
    const clips = Array.from({ length: 5 }, (_, i) => feedClip(clipper.id, later(t0, i * 1000), { streamerId: streamer.id }));
    const pending = submissionSnapshot({ userId: clipper.id, streamerId: streamer.id, status: 'pending', approvedAt: null });
    await h.apply(
      ['user.registered', { user: streamer, claimedPlaceholderId: null }],
      ...clips.map((submission) => ['submission.approved', { submission }] as const),
      ['submission.created', { submission: pending }],
    );
    const first = await h.client.listTaggedVideos({ userId: streamer.id, limit: 2 });
    expect(first).toMatchObject({ total: 5, nextCursor: expect.any(String) });
    const second = await h.client.listTaggedVideos({ userId: streamer.id, limit: 2, cursor: first.nextCursor });
    const third = await h.client.listTaggedVideos({ userId: streamer.id, limit: 2, cursor: second.nextCursor });
    expect([second.total, third.total, third.nextCursor]).toEqual([5, 5, undefined]);
    expect([...first.videos, ...second.videos, ...third.videos].map((v) => v.id)).toEqual(clips.map((c) => c.id).reverse());
    // The streamer's own count takes every status.
    expect((await h.client.listTaggedVideos({ userId: streamer.id, viewerId: streamer.id, limit: 2 })).total).toBe(6);

    await expect(h.client.listTaggedVideos({ userId: randomUUID(), limit: 5 })).rejects.toMatchObject({
      code: status.NOT_FOUND,
      message: 'User not found',
    });
  });
});

describe('rewards’ and campaigns’ events', () => {
  it('shows clip points on creators and featured clippers, the latest revision winning in any order', async () => {
    const clipper = userSnapshot('clipper');
    const at = new Date().toISOString();
    const standing = (clipPoints: number, revision: number) => ({
      userId: clipper.id,
      clipPoints,
      clipperTier: 'bronze' as const,
      currentTier: 1,
      revision,
      at,
    });
    // The standing before the person: kept, and shown once they arrive.
    await h.apply(['rewards.standing-changed', standing(10, 1)]);
    await h.apply(
      ['user.registered', { user: clipper, claimedPlaceholderId: null }],
      ['submission.approved', { submission: submissionSnapshot({ userId: clipper.id }) }],
    );
    const pointsOf = async () =>
      (await h.client.listCreators({ tab: 'clippers' })).creators.find((c) => c.person!.id === clipper.id)!.figures!.clipPoints;
    expect(await pointsOf()).toBe(10);
    await h.apply(['rewards.standing-changed', standing(30, 3)], ['rewards.standing-changed', standing(20, 2)]);
    expect(await pointsOf()).toBe(30);
    const featured = (await h.client.featuredClippers({ limit: 50 })).clippers.find((c) => c.person!.id === clipper.id)!;
    expect(featured.figures!.clipPoints).toBe(30);

    // Without a standing, no points (not zero).
    const other = userSnapshot('clipper');
    await h.apply(['user.registered', { user: other, claimedPlaceholderId: null }]);
    expect(
      (await h.client.listCreators({ tab: 'clippers' })).creators.find((c) => c.person!.id === other.id)!.figures!.clipPoints,
    ).toBeUndefined();
  });

  it('shows the multiplier rewards applies to a streamer, the stored one until rewards has told', async () => {
    const streamer = userSnapshot('streamer');
    await h.apply(['user.registered', { user: streamer, claimedPlaceholderId: null }]);
    const multiplierOf = async () =>
      (await h.client.topStreamers({ limit: 50 })).streamers.find((s) => s.person!.id === streamer.id)!.person!.appliedMultiplier;
    expect(await multiplierOf()).toBe('1.00');
    const at = new Date().toISOString();
    await h.apply(
      ['rewards.streamer-multiplier-changed', { userId: streamer.id, multiplier: 1.5, followerCount: 1000, revision: 2, at }],
      ['rewards.streamer-multiplier-changed', { userId: streamer.id, multiplier: 1.1, followerCount: 0, revision: 1, at }],
    );
    expect(await multiplierOf()).toBe('1.50');
  });

  it('shows the clipper’s hiring profile on their clips in the feed and the leaderboard, the latest revision winning', async () => {
    const clipper = userSnapshot('clipper');
    const clip = feedClip(clipper.id, new Date().toISOString(), { additionalInfo: 'the words' });
    const profile = (patch: Record<string, unknown>) => ({
      id: randomUUID(),
      userId: clipper.id,
      displayName: 'Hire Me',
      profileImageUrl: null,
      averageRating: 0,
      totalReviews: 0,
      totalHires: 0,
      isAvailable: 'true' as const,
      updatedAt: new Date().toISOString(),
      ...patch,
    });
    await h.apply(['user.registered', { user: clipper, claimedPlaceholderId: null }], ['submission.approved', { submission: clip }]);
    const inFeed = async () => (await h.client.listFeedClips({ limit: 50 })).clips.find((c) => c.id === clip.id)!;
    expect((await inFeed()).clipperProfile).toBeUndefined();
    const latest = profile({ averageRating: 4.5, totalReviews: 2, totalHires: 3, isAvailable: 'false', profileImageUrl: '/media/p.jpg' });
    await h.apply(
      ['clipper-profile.changed', { profile: latest, revision: 4 }],
      ['clipper-profile.changed', { profile: profile({ displayName: 'Old' }), revision: 3 }],
    );
    const expected = {
      id: latest.id,
      displayName: 'Hire Me',
      profileImageUrl: '/media/p.jpg',
      averageRating: 4.5,
      totalHires: 3,
      isAvailable: false,
    };
    expect(await inFeed()).toMatchObject({ description: 'the words', url: clip.url, clipperProfile: expected });
    const post = (await h.client.leaderboardPosts({ limit: 100 })).posts.find((p) => p.id === clip.id)!;
    expect(post.clipperProfile).toEqual(expected);
  });
});

describe('post metrics (metrics.updated)', () => {
  it('moves a clip’s views and its clipper’s figures to the newer snapshot, and an older one arriving late changes nothing', async () => {
    const clipper = userSnapshot('clipper', { displayName: 'Measured' });
    const t0 = new Date(Date.now() - 30_000).toISOString();
    // Approved, not verified yet: the snapshot counts 0.
    const approved = feedClip(clipper.id, t0, { views: 0, likes: 0 });
    await h.apply(['user.registered', { user: clipper, claimedPlaceholderId: null }], ['submission.approved', { submission: approved }]);
    const verified = {
      ...approved,
      views: 5200,
      likes: 41,
      retweets: 7,
      replies: 3,
      verifiedAt: later(t0, 5000),
      updatedAt: later(t0, 5000),
    };
    const stale = { ...approved, views: 100, likes: 1, verifiedAt: later(t0, 1000), updatedAt: later(t0, 1000) };
    await h.apply(
      ['metrics.updated', { submission: verified, previousViews: 0, fetchedAt: later(t0, 5000) }],
      ['metrics.updated', { submission: stale, previousViews: 0, fetchedAt: later(t0, 1000) }],
    );

    const { profile, submissions } = await h.client.getClipperProfile({ userId: clipper.id, limit: 10 });
    expect(profile!.figures).toMatchObject({ approvedClips: 1, totalViews: 5200, totalLikes: 41, avgViews: 5200 });
    expect(submissions.find((s) => s.id === approved.id)).toMatchObject({ views: 5200, likes: 41 });
    const post = (await h.client.leaderboardPosts({ limit: 100 })).posts.find((p) => p.id === approved.id);
    expect(post).toMatchObject({ views: 5200, likes: 41, retweets: 7, replies: 3 });
  });
});

describe('lag', () => {
  it('reports no lag when caught up, and says in readiness and over gRPC when it falls behind', async () => {
    const slow = await startFeed({ FEED_MAX_LAG_SECONDS: 1, FEED_LAG_CHECK_MS: 200 });
    const blocker = new (await import('pg')).default.Client({ connectionString: slow.databaseUrl });
    await blocker.connect();
    try {
      await slow.apply(['user.registered', { user: userSnapshot('clipper'), claimedPlaceholderId: null }]);
      await expect(slow.client.getProjectionLag({})).resolves.toEqual({ events: 0, seconds: 0 });

      // Hold the swap lock: every live write waits behind it, as behind a long replay swap or a stuck database.
      await blocker.query('BEGIN');
      await blocker.query('SELECT pg_advisory_xact_lock(7364220014)');
      await slow.publisher.publish('user.registered', { user: userSnapshot('clipper'), claimedPlaceholderId: null });
      await slow.publisher.publish('user.registered', { user: userSnapshot('clipper'), claimedPlaceholderId: null });
      await new Promise((r) => setTimeout(r, 1800));
      const lag = await slow.client.getProjectionLag({});
      expect(lag.events).toBe(2);
      expect(lag.seconds).toBeGreaterThan(1);
      const ready = await fetch(`${slow.httpUrl}/health/ready`);
      expect(ready.status).toBe(200);
      const body = (await ready.json()) as { status: string; checks: Record<string, string> };
      expect(body.status).toBe('degraded');
      expect(body.checks['projections']).toMatch(/^down: read models are 2 events and \d+\.\d s behind the stream/);
      // The gauge is the process's: the suite's other feed instance (caught up) sets it too, every 2 s.
      await waitFor(
        async () =>
          /feed_projection_lag_events\{[^}]*\} 2/.test(await (await fetch(`${slow.httpUrl}/metrics`)).text()) ? true : undefined,
        3000,
        'the lag gauge',
      );

      await blocker.query('COMMIT');
      await new Promise((r) => setTimeout(r, 800));
      await expect(slow.client.getProjectionLag({})).resolves.toEqual({ events: 0, seconds: 0 });
    } finally {
      await blocker.end();
      await slow.stop();
    }
  });
});
