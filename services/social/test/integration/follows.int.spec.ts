import { randomUUID } from 'node:crypto';
import { parseEventData, subjectFor } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { refusal, startSocialAlone, userSnapshot, type SocialHarness } from '../support/social-harness.js';

// Follows against the real Postgres and NATS: the rules, each pair once however often or however many
// at once, the events published with the change and only with a change, keyset pages of followers,
// and the people read model that never lets older news overwrite newer.

let h: SocialHarness;

beforeAll(async () => {
  h = await startSocialAlone();
});
afterAll(async () => {
  await h?.stop();
});

const eventsOf = (type: 'social.followed' | 'social.unfollowed', userId: string) =>
  h.events.filter((e) => e.envelope.type === type && (e.envelope.data as { userId: string }).userId === userId);

describe('Follow and Unfollow', () => {
  it('follows a streamer once however often it is asked, and publishes one social.followed', async () => {
    const [streamer, fan] = [await h.newUser('streamer'), await h.newUser('clipper')];
    for (let i = 0; i < 3; i += 1) {
      await expect(h.client.follow({ followerId: fan.id, userId: streamer.id })).resolves.toEqual({ isFollowing: true, followerCount: 1 });
    }
    await expect(h.client.getFollowState({ viewerId: fan.id, userId: streamer.id })).resolves.toEqual({
      isFollowing: true,
      followerCount: 1,
    });
    await expect(h.client.getFollowState({ userId: streamer.id })).resolves.toEqual({ isFollowing: false, followerCount: 1 });

    const [published] = await waitFor(
      () => (eventsOf('social.followed', streamer.id).length ? eventsOf('social.followed', streamer.id) : undefined),
      10_000,
      'social.followed',
    );
    expect(published!.subject).toBe(subjectFor('social.followed', h.names.subjectPrefix));
    expect(parseEventData('social.followed', published!.envelope.data)).toMatchObject({
      followerId: fan.id,
      userId: streamer.id,
      followerCount: 1,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsOf('social.followed', streamer.id)).toHaveLength(1);

    for (let i = 0; i < 2; i += 1) {
      await expect(h.client.unfollow({ followerId: fan.id, userId: streamer.id })).resolves.toEqual({
        isFollowing: false,
        followerCount: 0,
      });
    }
    await waitFor(() => (eventsOf('social.unfollowed', streamer.id).length ? true : undefined), 10_000, 'social.unfollowed');
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsOf('social.unfollowed', streamer.id)).toHaveLength(1);
    expect(await h.count('SELECT count(*) FROM followers WHERE following_id = $1', [streamer.id])).toBe(0);
  });

  it('counts exactly when 40 people follow one streamer at once, each twice', async () => {
    const streamer = await h.newUser('streamer');
    const fans = await Promise.all(Array.from({ length: 40 }, () => h.newUser('clipper')));
    const answers = await Promise.all(fans.flatMap((f) => [f, f]).map((f) => h.client.follow({ followerId: f.id, userId: streamer.id })));
    expect(answers.every((a) => a.isFollowing)).toBe(true);
    expect(Math.max(...answers.map((a) => a.followerCount))).toBe(40);
    await expect(h.client.getFollowState({ userId: streamer.id })).resolves.toMatchObject({ followerCount: 40 });
    const counts = await waitFor(() => {
      const seen = eventsOf('social.followed', streamer.id);
      return seen.length === 40 ? seen.map((e) => (e.envelope.data as { followerCount: number }).followerCount) : undefined;
    });
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1)); // each change saw its own count
  });

  it('refuses following yourself, a non-streamer, a bad id; and an unknown user when identity cannot say', async () => {
    const [streamer, clipper] = [await h.newUser('streamer'), await h.newUser('clipper')];
    expect(await refusal(h.client.follow({ followerId: streamer.id, userId: streamer.id }))).toEqual([
      status.INVALID_ARGUMENT,
      'You cannot follow yourself',
    ]);
    expect(await refusal(h.client.follow({ followerId: streamer.id, userId: clipper.id }))).toEqual([
      status.INVALID_ARGUMENT,
      'Only streamers can be followed',
    ]);
    expect(await refusal(h.client.follow({ followerId: 'nope', userId: streamer.id }))).toEqual([
      status.INVALID_ARGUMENT,
      'Invalid user id',
    ]);
    // Not in the read model and identity unreachable here: the caller is told the truth (unavailable), not "not found".
    expect(await refusal(h.client.follow({ followerId: clipper.id, userId: randomUUID() }))).toEqual([
      status.UNAVAILABLE,
      'This user cannot be looked up right now; please try again in a minute',
    ]);
    expect(await h.count('SELECT count(*) FROM followers WHERE follower_id = ANY($1::uuid[])', [[streamer.id, clipper.id]])).toBe(0);
  });
});

describe('ListFollowers, ListLiveFollowed and FollowersAmong', () => {
  it('lists followers newest first in keyset pages, with the fields a follower list item shows', async () => {
    const streamer = await h.newUser('streamer');
    const fans = [];
    for (let i = 0; i < 5; i += 1) {
      const fan = await h.newUser('clipper', { profileImageUrl: `https://cdn.example/p${i}.png` });
      await h.client.follow({ followerId: fan.id, userId: streamer.id });
      fans.push(fan);
    }
    const first = await h.client.listFollowers({ userId: streamer.id, limit: 2 });
    expect(first.total).toBe(5);
    expect(first.followers).toEqual(
      [fans[4]!, fans[3]!].map((f) => ({
        id: f.id,
        displayName: f.displayName,
        twitterUsername: f.twitterUsername,
        profileImageUrl: f.profileImageUrl,
      })),
    );
    const second = await h.client.listFollowers({ userId: streamer.id, limit: 2, cursor: first.nextCursor! });
    const third = await h.client.listFollowers({ userId: streamer.id, limit: 2, cursor: second.nextCursor! });
    expect([...first.followers, ...second.followers, ...third.followers].map((f) => f.id)).toEqual(fans.map((f) => f.id).reverse());
    expect(third.nextCursor).toBeUndefined();
    expect(await refusal(h.client.listFollowers({ userId: streamer.id, cursor: 'bogus', limit: 0 }))).toEqual([
      status.INVALID_ARGUMENT,
      'Invalid cursor',
    ]);
  });

  it('names the followed streamers who are live, and only to their followers', async () => {
    const [a, b, fan, stranger] = [
      await h.newUser('streamer'),
      await h.newUser('streamer'),
      await h.newUser('clipper'),
      await h.newUser('clipper'),
    ];
    await h.client.follow({ followerId: fan.id, userId: a.id });
    await h.client.follow({ followerId: fan.id, userId: b.id });
    await expect(h.client.listLiveFollowed({ userId: fan.id })).resolves.toEqual({ streamers: [] });

    await expect(h.client.goLive({ userId: a.id })).resolves.toMatchObject({ notifiedFollowers: 1, state: { isLive: 'true' } });
    const live = await h.client.listLiveFollowed({ userId: fan.id });
    expect(live.streamers.map((s) => s.streamer)).toEqual([{ id: a.id, displayName: a.displayName, twitterUsername: a.twitterUsername }]);
    expect(live.streamers[0]!.livePeriod).toBeGreaterThan(0);
    await expect(h.client.listLiveFollowed({ userId: stranger.id })).resolves.toEqual({ streamers: [] });
    await expect(h.client.followersAmong({ streamerId: a.id, userIds: [fan.id, stranger.id, 'not-an-id'] })).resolves.toEqual({
      userIds: [fan.id],
    });

    await h.client.goOffline({ userId: a.id });
    await expect(h.client.listLiveFollowed({ userId: fan.id })).resolves.toEqual({ streamers: [] });
  });
});

describe('people read model', () => {
  it('takes a newer user.updated and ignores an older one that arrives after it', async () => {
    const streamer = await h.newUser('streamer');
    const fan = await h.newUser('clipper');
    await h.client.follow({ followerId: fan.id, userId: streamer.id });
    const t = Date.now();
    const newer = userSnapshot('clipper', { ...fan, displayName: 'Newest name', updatedAt: new Date(t + 2000).toISOString() });
    const older = userSnapshot('clipper', { ...fan, displayName: 'Stale name', updatedAt: new Date(t + 1000).toISOString() });
    await h.publisher.publish('user.updated', { user: newer, changed: ['displayName'] });
    await h.publisher.publish('user.updated', { user: older, changed: ['displayName'] });
    const marker = await h.newUser('clipper'); // published after both: once it is projected, both were applied
    expect(marker.id).toBeDefined();
    const { followers } = await h.client.listFollowers({ userId: streamer.id, limit: 0 });
    expect(followers[0]!.displayName).toBe('Newest name');
  });
});
