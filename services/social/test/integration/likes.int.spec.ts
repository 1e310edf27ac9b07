import { randomUUID } from 'node:crypto';
import { parseEventData } from '@clipit/contracts';
import { waitFor } from '@clipit/testing';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { refusal, startSocialAlone, submissionSnapshot, type SocialHarness } from '../support/social-harness.js';

// Likes against the real Postgres and NATS: only a clip in the feed, twice is once, the exact count
// under any number of concurrent toggles, one event per real change, and the clips read model.

let h: SocialHarness;

beforeAll(async () => {
  h = await startSocialAlone();
});
afterAll(async () => {
  await h?.stop();
});

const likeEvents = (clipId: string) =>
  h.events.filter((e) => e.envelope.type.startsWith('social.') && (e.envelope.data as { clipId?: string }).clipId === clipId);

describe('Like and Unlike', () => {
  it('likes once however often asked, unlikes once, and publishes one event per real change', async () => {
    const clip = await h.newClip();
    const fan = randomUUID();
    await expect(h.client.like({ userId: fan, clipId: clip.id })).resolves.toEqual({ likeCount: 1, likedByCurrentUser: true });
    await expect(h.client.like({ userId: fan, clipId: clip.id })).resolves.toEqual({ likeCount: 1, likedByCurrentUser: true });
    await expect(h.client.unlike({ userId: fan, clipId: clip.id })).resolves.toEqual({ likeCount: 0, likedByCurrentUser: false });
    await expect(h.client.unlike({ userId: fan, clipId: clip.id })).resolves.toEqual({ likeCount: 0, likedByCurrentUser: false });

    const events = await waitFor(() => (likeEvents(clip.id).length >= 2 ? likeEvents(clip.id) : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(likeEvents(clip.id).map((e) => e.envelope.type)).toEqual(['social.liked', 'social.unliked']);
    expect(parseEventData('social.liked', events[0]!.envelope.data)).toMatchObject({
      userId: fan,
      clipId: clip.id,
      clipOwnerId: clip.userId,
      likeCount: 1,
    });
  });

  it('ends 1,000 concurrent toggles by 50 users on one clip with the exact count', async () => {
    const clip = await h.newClip();
    const users = Array.from({ length: 50 }, () => randomUUID());
    // Each user toggles 20 times in turn (like, unlike, …); odd-numbered users end on a like.
    const finalLiked = new Set(users.filter((_, i) => i % 2 === 1));
    await Promise.all(
      users.map(async (userId, i) => {
        const toggles = i % 2 === 1 ? 19 : 20;
        for (let t = 0; t < toggles; t += 1) {
          const answer =
            t % 2 === 0 ? await h.client.like({ userId, clipId: clip.id }) : await h.client.unlike({ userId, clipId: clip.id });
          expect(answer.likedByCurrentUser).toBe(t % 2 === 0);
        }
        if (toggles === 19) await h.client.like({ userId, clipId: clip.id }); // a repeat: changes nothing
      }),
    );
    expect(await h.count('SELECT like_count FROM clips WHERE id = $1', [clip.id])).toBe(finalLiked.size);
    expect(await h.count('SELECT count(*) FROM video_likes WHERE submission_id = $1', [clip.id])).toBe(finalLiked.size);
    const anyone = await h.client.unlike({ userId: randomUUID(), clipId: clip.id });
    expect(anyone).toEqual({ likeCount: 25, likedByCurrentUser: false });
    // 25 users × 10 likes and 9 unlikes + 25 users × 10 likes and 10 unlikes: 975 real changes, each one event.
    await waitFor(() => (likeEvents(clip.id).length >= 975 ? true : undefined), 20_000, 'every like event');
    await new Promise((r) => setTimeout(r, 300));
    expect(likeEvents(clip.id)).toHaveLength(975);
  });

  it('refuses a clip the feed does not list (pending, rejected, removed, video not playable) with a reason, and changes nothing', async () => {
    const notInFeed = [
      await h.newClip({ status: 'pending', addedToFeed: false, approvedAt: null }),
      await h.newClip({ status: 'rejected', addedToFeed: false, rejectedReason: 'Not a clip' }),
      await h.newClip({ addedToFeed: false }),
      // Approved and added, but the feed lists a clip only once its video plays.
      await h.newClip({ videoState: 'processing', hasVideo: true, videoUrl: null }),
      await h.newClip({ videoState: 'none', hasVideo: false, videoUrl: null }),
      await h.newClip({ videoState: 'rejected', hasVideo: false, videoUrl: null }),
    ];
    for (const clip of notInFeed) {
      expect(await refusal(h.client.like({ userId: randomUUID(), clipId: clip.id }))).toEqual([
        status.FAILED_PRECONDITION,
        'This clip is not in the feed, so it cannot be liked',
      ]);
    }
    for (const clipId of [randomUUID(), 'not-a-uuid'])
      expect(await refusal(h.client.like({ userId: randomUUID(), clipId }))).toEqual([status.NOT_FOUND, 'Clip not found']);
    expect(
      await h.count('SELECT count(*) FROM video_likes WHERE submission_id = ANY($1::uuid[])', [notInFeed.map((clip) => clip.id)]),
    ).toBe(0);
    expect(await h.count('SELECT coalesce(sum(like_count), 0) FROM clips WHERE id = ANY($1::uuid[])', [notInFeed.map((c) => c.id)])).toBe(
      0,
    );
  });

  it('lets a clip be liked once its video is ready, as the feed lists it then', async () => {
    const processing = await h.newClip({ videoState: 'processing', hasVideo: true, videoUrl: null });
    const fan = randomUUID();
    expect((await refusal(h.client.like({ userId: fan, clipId: processing.id })))[0]).toBe(status.FAILED_PRECONDITION);
    const ready = submissionSnapshot({
      ...processing,
      videoState: 'ready',
      videoUrl: `/media/videos/${processing.id}/video.mp4`,
      updatedAt: new Date(Date.parse(processing.updatedAt) + 1000).toISOString(),
    });
    await h.publisher.publish('submission.video-changed', { submission: ready, reason: null });
    await waitFor(async () =>
      (await h.count("SELECT count(*) FROM clips WHERE id = $1 AND video_state = 'ready'", [processing.id])) === 1 ? true : undefined,
    );
    await expect(h.client.like({ userId: fan, clipId: processing.id })).resolves.toEqual({ likeCount: 1, likedByCurrentUser: true });
  });

  it('follows the clip in and out of the feed, keeping its likes, and lets a like be taken back after removal', async () => {
    const clip = await h.newClip();
    const fan = randomUUID();
    await h.client.like({ userId: fan, clipId: clip.id });
    const removed = submissionSnapshot({ ...clip, addedToFeed: false, updatedAt: new Date(Date.now() + 1000).toISOString() });
    await h.publisher.publish('submission.feed-changed', { submission: removed, addedToFeed: false });
    await waitFor(async () =>
      (await h.count('SELECT count(*) FROM clips WHERE id = $1 AND NOT added_to_feed', [clip.id])) === 1 ? true : undefined,
    );
    expect(await refusal(h.client.like({ userId: randomUUID(), clipId: clip.id }))).toEqual([
      status.FAILED_PRECONDITION,
      'This clip is not in the feed, so it cannot be liked',
    ]);
    await expect(h.client.unlike({ userId: fan, clipId: clip.id })).resolves.toEqual({ likeCount: 0, likedByCurrentUser: false });

    // An older snapshot arriving late does not put it back.
    await h.publisher.publish('submission.approved', { submission: clip });
    await h.newClip(); // a later event: once it is projected, the stale one was applied (or ignored)
    expect(await h.count('SELECT count(*) FROM clips WHERE id = $1 AND added_to_feed', [clip.id])).toBe(0);
  });
});
