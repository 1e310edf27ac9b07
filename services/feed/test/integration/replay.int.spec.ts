import { randomUUID } from 'node:crypto';
import type { SubmissionSnapshot } from '@clipit/contracts';
import { createLogger, jetstreamManager, NATS_CONNECTION, openServiceDatabase, type NatsConnection } from '@clipit/service-kit';
import { createTestDatabase, dropTestDatabase, submissionSnapshot, tokenSnapshot, userSnapshot } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { feedEntities, feedMigrations } from '../../src/database.js';
import { replayReadModels } from '../../src/replay.js';
import { ReadRepository } from '../../src/repositories/read.repository.js';
import { ReadService } from '../../src/services/read.service.js';
import { IDENTITY_CLIENT, type IdentityPort } from '../../src/ports.js';
import { startFeed, type Event, type FeedHarness } from '../support/feed-harness.js';

// The replay: every read model rebuilt from the start of the stream into fresh tables gives the same
// answers as the live ones, and a swap while events keep coming loses none of them.

let h: FeedHarness;

beforeAll(async () => {
  h = await startFeed();
});
afterAll(async () => {
  await h?.stop();
});

const quiet = createLogger('feed-replay-test', 'silent');

/** A history with every kind of event, some out of order and some changing their mind. */
function history(): Event[] {
  const events: Event[] = [];
  const t0 = Date.now() - 600_000;
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  const streamers = Array.from({ length: 3 }, (_, i) =>
    userSnapshot('streamer', { streamerMultiplier: `1.${i}0`, createdAt: at(i), updatedAt: at(i) }),
  );
  const clippers = Array.from({ length: 6 }, (_, i) => userSnapshot('clipper', { createdAt: at(i), updatedAt: at(i) }));
  const tokens = streamers.map((s) => tokenSnapshot(s.id, { createdAt: at(5), updatedAt: at(5) }));
  for (const user of [...streamers, ...clippers]) events.push(['user.registered', { user, claimedPlaceholderId: null }]);
  events.push(['token.changed', { token: tokens[0]! }], ['token.changed', { token: tokens[1]! }]);
  let n = 0;
  for (const clipper of clippers) {
    for (let k = 0; k < 5; k += 1) {
      n += 1;
      const id = randomUUID();
      const created = at(1000 * n);
      const base: SubmissionSnapshot = submissionSnapshot({
        id,
        userId: clipper.id,
        status: 'pending',
        addedToFeed: false,
        approvedAt: null,
        createdAt: created,
        updatedAt: created,
        views: (n * 37) % 500,
        likes: n % 7,
        tokenId: k === 1 ? tokens[n % 3]!.id : null,
        streamerId: k === 2 ? streamers[n % 3]!.id : null,
      });
      events.push(['submission.created', { submission: base }]);
      if (k === 4) {
        events.push([
          'submission.rejected',
          { submission: { ...base, status: 'rejected', rejectedReason: 'no', updatedAt: at(1000 * n + 1) } },
        ]);
        continue;
      }
      const ready = {
        ...base,
        videoState: 'ready' as const,
        hasVideo: true,
        videoUrl: `/media/videos/${id}/video.mp4`,
        videoThumbnailUrl: `/media/videos/${id}/poster.jpg`,
        playbackId: id,
        updatedAt: at(1000 * n + 2),
      };
      events.push(['submission.video-changed', { submission: ready, reason: null }]);
      const approved = {
        ...ready,
        status: 'approved' as const,
        addedToFeed: true,
        approvedAt: at(1000 * n + 3),
        updatedAt: at(1000 * n + 3),
      };
      events.push(['submission.approved', { submission: approved }]);
      if (k === 3)
        events.push([
          'submission.feed-changed',
          { submission: { ...approved, addedToFeed: false, updatedAt: at(1000 * n + 4) }, addedToFeed: false },
        ]);
      if (k === 0) {
        // A stale snapshot delivered late: changes nothing.
        events.push(['submission.created', { submission: base }]);
        const fans = [randomUUID(), randomUUID()];
        events.push(['social.liked', { userId: fans[0]!, clipId: id, clipOwnerId: clipper.id, likeCount: 1, at: at(1000 * n + 5) }]);
        events.push(['social.liked', { userId: fans[1]!, clipId: id, clipOwnerId: clipper.id, likeCount: 2, at: at(1000 * n + 6) }]);
        events.push(['social.unliked', { userId: fans[0]!, clipId: id, clipOwnerId: clipper.id, likeCount: 1, at: at(1000 * n + 7) }]);
      }
    }
  }
  // The third token after the clips tagged through it.
  events.push(['token.changed', { token: tokens[2]! }]);
  streamers.forEach((s, i) => {
    for (let f = 0; f <= i; f += 1)
      events.push(['social.followed', { followerId: randomUUID(), userId: s.id, followerCount: f + 1, at: at(100_000 + f) }]);
  });
  events.push(['user.updated', { user: { ...clippers[0]!, displayName: 'Renamed', updatedAt: at(200_000) }, changed: ['displayName'] }]);
  return events;
}

/** Every answer the read models give, read through one ReadService. */
async function everyAnswer(reads: ReadService, people: string[]): Promise<unknown> {
  const pages = [];
  let cursor: string | undefined;
  do {
    const page = await reads.feedClips({ limit: 7, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return {
    pages,
    posts: await reads.leaderboardPosts({ limit: 100 }),
    users: await reads.leaderboardUsers({ limit: 100 }),
    stats: await reads.leaderboardStats(),
    featured: await reads.featuredClippers({ limit: 50 }),
    top: await reads.topStreamers({ limit: 50 }),
    clippers: await reads.creators({ tab: 'clippers' }),
    streamers: await reads.creators({ tab: 'streamers' }),
    profiles: await Promise.all(people.map((userId) => reads.clipperProfile({ userId, limit: 100 }))),
    tagged: await Promise.all(people.map((userId) => reads.taggedVideos({ userId, viewerId: userId, limit: 100 }))),
  };
}

describe('replay', () => {
  it('rebuilds every read model from the start of the stream into fresh tables with the same answers, then swaps them in', async () => {
    const events = history();
    await h.apply(...events);
    const people = [
      ...new Set(events.flatMap(([type, data]) => (type === 'user.registered' ? [(data as { user: { id: string } }).user.id] : []))),
    ];
    const reads = h.app.get(ReadService);
    const live = await everyAnswer(reads, people);
    expect((live as { stats: { totalPosts: number } }).stats.totalPosts).toBe(24);

    const db = h.app.get(DataSource);
    const nc = h.app.get<NatsConnection>(NATS_CONNECTION);
    const result = await replayReadModels({
      dataSource: db,
      nc,
      stream: h.names.stream,
      subjectPrefix: h.names.subjectPrefix,
      logger: quiet,
    });
    expect(result).toMatchObject({ schema: 'rm_rebuild', swapped: false, applied: events.length, ignored: 0 });
    await expect(everyAnswer(reads.forSchema('rm_rebuild'), people)).resolves.toEqual(live);

    // Swap while events keep coming: none is lost, none applied to the old models only.
    const extra = Array.from({ length: 40 }, () => userSnapshot('clipper'));
    const publishing = (async () => {
      for (const user of extra) await h.publisher.publish('user.registered', { user, claimedPlaceholderId: null });
    })();
    const swapped = await replayReadModels({
      dataSource: db,
      nc,
      stream: h.names.stream,
      subjectPrefix: h.names.subjectPrefix,
      logger: quiet,
      swap: true,
    });
    await publishing;
    expect(swapped).toMatchObject({ schema: 'rm', swapped: true, retired: expect.stringMatching(/^rm_old_\d{14}$/) });
    await h.apply(['user.registered', { user: userSnapshot('clipper'), claimedPlaceholderId: null }]); // a barrier: everything before it is applied
    expect(await h.count(`SELECT count(*) FROM rm.people WHERE id = ANY($1::uuid[])`, [extra.map((u) => u.id)])).toBe(extra.length);
    // The same answers, but for the clippers who signed up during the swap.
    const after = (await everyAnswer(reads, people)) as { clippers: { creators: Array<{ person?: { id: string } }> } };
    const before = live as typeof after;
    const known = new Set(before.clippers.creators.map((c) => c.person!.id));
    expect({ ...after, clippers: { creators: after.clippers.creators.filter((c) => known.has(c.person!.id)) } }).toEqual(live);
    expect(await h.count(`SELECT count(*) FROM pg_namespace WHERE nspname = 'rm_rebuild'`)).toBe(0);
  });

  it('seeds a new deployment: its own database built from the stream, its live consumer starting right after', async () => {
    const fresh = `${h.names.database}_seeded`.slice(0, 60);
    const url = await createTestDatabase(fresh);
    const db = await openServiceDatabase({
      url,
      urlVariable: 'FEED_DATABASE_URL',
      entities: feedEntities,
      migrations: feedMigrations,
      poolSize: 2,
      migrate: true,
      logger: quiet,
    });
    const nc = h.app.get<NatsConnection>(NATS_CONNECTION);
    const consumer = `feed-seeded-${Date.now()}`;
    const jsm = await jetstreamManager(nc);
    try {
      const result = await replayReadModels({
        dataSource: db,
        nc,
        stream: h.names.stream,
        subjectPrefix: h.names.subjectPrefix,
        logger: quiet,
        swap: true,
        consumerName: consumer,
      });
      const info = await jsm.consumers.info(h.names.stream, consumer);
      expect(info.config).toMatchObject({
        durable_name: consumer,
        opt_start_seq: result.throughSeq + 1,
        filter_subject: `${h.names.subjectPrefix}.>`,
      });
      const reads = h.app.get(ReadService);
      const seeded = new ReadService(new ReadRepository(db), h.app.get<IdentityPort>(IDENTITY_CLIENT));
      await expect(seeded.leaderboardStats()).resolves.toEqual(await reads.leaderboardStats());
      await expect(seeded.feedClips({ limit: 20 })).resolves.toEqual(await reads.feedClips({ limit: 20 }));
    } finally {
      await jsm.consumers.delete(h.names.stream, consumer).catch(() => undefined);
      await db.destroy();
      await dropTestDatabase(fresh);
    }
  });
});
