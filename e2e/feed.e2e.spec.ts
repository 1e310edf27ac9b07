// The public reads over real HTTP: gateway → feed (its own database, read models fed only by identity's,
// submissions' and social's events). A clipper signs up, submits a post tagged with a streamer's token
// with a real video (the media worker transcodes it), an admin approves it into the feed, and the feed,
// leaderboards, creators, profile and tagged videos show it with the right figures; a like, a follow and
// a removal from the feed show at once; cached answers carry an ETag and revalidate to 304.
import { synthesizeClip } from '@clipit/media';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

interface Account {
  id: string;
  handle: string;
  cookie: string;
}

interface FeedClip {
  id: string;
  likeCount: number;
  likedByCurrentUser: boolean;
  [field: string]: unknown;
}

describe('public reads (gateway + feed + identity + submissions + social + admin + media worker)', () => {
  let p: Platform;
  let dir: string;
  let video: string;
  let adminToken = '';
  let seq = 0;
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const json = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const admin = (id: string, action: string) =>
    api(`/api/admin/submissions/${id}/${action}`, json('POST', {}, { authorization: `Bearer ${adminToken}` }));
  const read = async <T>(path: string, cookie?: string): Promise<T> => {
    const res = await api(path, cookie ? { headers: { cookie } } : undefined);
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  const feedIds = async (cookie?: string) =>
    (await read<{ submissions: FeedClip[] }>('/api/feed/clips?limit=50', cookie)).submissions.map((c) => c.id);

  async function signUp(role: 'clipper' | 'streamer', extra: Record<string, string> = {}): Promise<Account> {
    seq += 1;
    const handle = `${role === 'streamer' ? 'fs' : 'fc'}_${Date.now().toString(36).slice(-5)}${seq}`.slice(0, 15);
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role,
        password: 'a-good-password',
        displayName: `Name ${handle}`,
        ...extra,
      }),
    );
    expect(res.status).toBe(201);
    const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    return { id: ((await res.json()) as { user: { id: string } }).user.id, handle, cookie: `clipit.sid=${sid}` };
  }

  /**
   * Until the feed has applied everything rewards and campaigns have told of a person (a clipper's hiring
   * profile and standing, a streamer's applied multiplier: the owners' revisions equal the feed's), and
   * with `approvedId`, once rewards has taken that approval. Each of those events drops the gateway's
   * cached reads, so a test that counts answers from the cache waits for them first.
   */
  const settled = (who: Account, role: 'clipper' | 'streamer', approvedId?: string) =>
    waitFor(
      async () => {
        const one = async (db: typeof p.feedDb, sql: string) => Number((await db.query(sql, [who.id])).rows[0]?.['r'] ?? 0);
        if (approvedId) {
          const taken = await p.rewardsDb.query(`SELECT 1 FROM submissions WHERE id = $1 AND status = 'approved'`, [approvedId]);
          if (!taken.rowCount) return undefined;
        }
        const pairs =
          role === 'clipper'
            ? [
                [
                  await one(p.campaignsDb, 'SELECT revision AS r FROM clipper_profiles WHERE user_id = $1'),
                  await one(p.feedDb, 'SELECT revision AS r FROM rm.clipper_profiles WHERE user_id = $1'),
                ],
                [
                  await one(p.rewardsDb, 'SELECT revision AS r FROM clipper_standings WHERE user_id = $1'),
                  await one(p.feedDb, 'SELECT revision AS r FROM rm.standings WHERE user_id = $1'),
                ],
              ]
            : [
                [
                  await one(p.rewardsDb, 'SELECT multiplier_revision AS r FROM people WHERE id = $1'),
                  await one(p.feedDb, 'SELECT revision AS r FROM rm.streamer_multipliers WHERE user_id = $1'),
                ],
              ];
        // Told at least once (a clipper's profile, a streamer's multiplier), and every change applied.
        return pairs[0]![0]! > 0 && pairs.every(([owner, feed]) => owner === feed) ? true : undefined;
      },
      15_000,
      `rewards' and campaigns' news of ${who.handle} in the feed`,
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'clipit-e2e-feed-'));
    video = join(dir, 'clip.mp4');
    await synthesizeClip({ path: video, durationSeconds: 3, width: 360, height: 640, withAudio: false, fps: 10, keyframeSeconds: 0.5 });
    p = await startPlatform({}, {}, { mediaWorker: true });
    adminToken = (
      (await (await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }))).json()) as { token: string }
    ).token;
  }, 90_000);
  afterAll(async () => {
    await p?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('takes a clip from sign-up to the feed, leaderboards, creators, profile and tagged videos, with likes, follows and removal', async () => {
    const streamer = await signUp('streamer', { tokenLink: 'https://pump.fun/coin/feede2e' });
    const clipper = await signUp('clipper');
    const fan = await signUp('clipper');
    const tokens = await read<Array<{ id: string; name: string }>>('/api/tokens');
    const token = tokens.find((t) => t.name === `Name ${streamer.handle}`)!;
    expect(token).toBeDefined();

    // A post tagged with the streamer's token, with a real video.
    const url = `https://x.com/${clipper.handle}/status/${Date.now()}`;
    const created = await api(
      '/api/submissions',
      json(
        'POST',
        { name: 'Feed journey', url, walletAddress: '', additionalInfo: 'watch this', tokenId: token.id },
        { cookie: clipper.cookie },
      ),
    );
    expect(created.status).toBe(201);
    const clipId = ((await created.json()) as { id: string }).id;
    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(await readFile(video))], { type: 'video/mp4' }), 'clip.mp4');
    form.append('submissionId', clipId);
    expect((await api('/api/submissions/upload-video', { method: 'POST', headers: { cookie: clipper.cookie }, body: form })).status).toBe(
      200,
    );
    await waitFor(
      async () =>
        (await p.feedDb.query(`SELECT 1 FROM rm.clips WHERE id = $1 AND video_state = 'ready'`, [clipId])).rowCount ? true : undefined,
      90_000,
      'the processed video in the read models',
    );

    // Pending: not public. The streamer sees it among their tagged clips; a visitor does not.
    expect(await feedIds()).not.toContain(clipId);
    expect((await read<{ videos: Array<{ id: string }> }>(`/api/tagged-videos/${streamer.id}`)).videos).toEqual([]);
    const own = await read<{ videos: Array<{ id: string; status: string }> }>(`/api/tagged-videos/${streamer.id}`, streamer.cookie);
    expect(own.videos.map((v) => [v.id, v.status])).toEqual([[clipId, 'pending']]);

    expect((await admin(clipId, 'approve-and-add-to-feed')).status).toBe(200);
    await waitFor(async () => ((await feedIds()).includes(clipId) ? true : undefined), 5000, 'the approved clip in the feed');

    // campaigns made the clipper's hiring profile from their sign-up and told it (clipper-profile.changed).
    const clip = await waitFor(
      async () => {
        const page = await read<{ submissions: FeedClip[]; nextCursor: string | null }>('/api/feed/clips?limit=10');
        const found = page.submissions.find((c) => c.id === clipId);
        return found?.['clipperProfile'] ? found : undefined;
      },
      15_000,
      'the clipper profile on the feed clip',
    );
    const hiring = (await p.campaignsDb.query<{ id: string }>('SELECT id FROM clipper_profiles WHERE user_id = $1', [clipper.id])).rows[0]!;
    const clipperProfile = {
      id: hiring.id,
      displayName: `Name ${clipper.handle}`,
      profileImageUrl: null,
      averageRating: 0,
      totalHires: 0,
      isAvailable: 'true',
    };
    expect(clip).toEqual({
      id: clipId,
      name: 'Feed journey',
      description: 'watch this',
      url,
      authorHandle: clipper.handle,
      videoUrl: expect.stringMatching(/^\/media\/videos\/[\w-]+\/video\.mp4$/),
      videoDuration: expect.any(Number),
      videoAspectRatio: '9:16',
      videoThumbnailUrl: expect.stringMatching(/^\/media\/videos\/[\w-]+\/poster\.jpg$/),
      hasVideo: 'true',
      views: 0,
      likes: 0,
      retweets: 0,
      publishedAt: null,
      userId: clipper.id,
      tokenId: token.id,
      muxPlaybackId: expect.any(String),
      likeCount: 0,
      likedByCurrentUser: false,
      user: {
        displayName: `Name ${clipper.handle}`,
        firstName: null,
        lastName: null,
        profileImageUrl: null,
        twitterUsername: clipper.handle,
        currentTier: 1,
      },
      clipperProfile,
      token: { id: token.id, name: token.name, pumpFunLink: 'https://pump.fun/coin/feede2e', streamerId: streamer.id },
    });
    // The video the feed names is served.
    expect((await api(clip['videoUrl'] as string, { headers: { range: 'bytes=0-99' } })).status).toBe(206);

    const posts =
      await read<Array<{ id: string; hasVideo: string; description: string | null; isProcessing: boolean }>>('/api/leaderboard/posts');
    expect(posts.find((x) => x.id === clipId)).toMatchObject({
      hasVideo: 'true',
      description: 'watch this',
      url,
      isProcessing: false,
      clipperProfile,
    });
    const users = await read<Array<{ userId: string; totalViews: number; mindshare: number }>>('/api/leaderboard/users');
    expect(users.find((u) => u.userId === clipper.id)).toMatchObject({ totalViews: 0, mindshare: 0 });
    expect(await read('/api/leaderboard/stats')).toEqual({ totalPosts: 1, activeUsers: 1, totalViews: 0 });
    // Clip Points: the approval's standing from rewards (rewards.standing-changed), as the stats route has them.
    const { points } = (await read<{ points: number }>(`/api/clipper/stats/${clipper.id}`)) as { points: number };
    expect(points).toBeGreaterThan(0);
    const clippers = await waitFor(
      async () => {
        const list = await read<Array<{ userId: string; clipPoints: number | null }>>('/api/creators/clippers');
        return list.find((c) => c.userId === clipper.id)?.clipPoints === points ? list : undefined;
      },
      15_000,
      'the clip points on the creators list',
    );
    const featured =
      await read<Array<{ userId: string; approvedClips: number; totalClips: number; clipPoints?: number }>>('/api/featured-clippers');
    expect(featured.find((f) => f.userId === clipper.id)).toMatchObject({ approvedClips: 1, totalClips: 1, clipPoints: points });
    expect(clippers.find((c) => c.userId === clipper.id)).toEqual({
      userId: clipper.id,
      twitterUsername: clipper.handle,
      profileImageUrl: null,
      verified: true,
      followers: 0,
      totalClips: 1,
      totalViews: 0,
      avgViews: 0,
      clipPoints: points,
    });
    // A clipper rewards has no standing for yet: no points (null), not a made-up 0.
    expect(clippers.find((c) => c.userId === fan.id)?.clipPoints).toBeNull();
    const profile = await read<{ user: { id: string }; stats: Record<string, number>; submissions: Array<{ id: string; status: string }> }>(
      `/api/clipper/${clipper.id}`,
    );
    expect(profile.stats).toEqual({ totalClips: 1, approvedClips: 1, totalViews: 0, totalLikes: 0, avgViews: 0, followerCount: 0 });
    expect(profile.submissions.map((s) => [s.id, s.status])).toEqual([[clipId, 'approved']]);
    expect((await read<{ videos: Array<{ id: string }> }>(`/api/tagged-videos/${streamer.id}`)).videos.map((v) => v.id)).toEqual([clipId]);

    // A like: the count for everyone, the flag for the one who liked.
    expect((await api(`/api/feed/clips/${clipId}/like`, json('POST', undefined, { cookie: fan.cookie }))).status).toBe(200);
    await waitFor(
      async () =>
        (await read<{ submissions: FeedClip[] }>('/api/feed/clips?limit=50')).submissions.find((c) => c.id === clipId)?.likeCount === 1
          ? true
          : undefined,
      5000,
      'the like',
    );
    const fanView = (await read<{ submissions: FeedClip[] }>('/api/feed/clips?limit=50', fan.cookie)).submissions.find(
      (c) => c.id === clipId,
    )!;
    expect(fanView).toMatchObject({ likeCount: 1, likedByCurrentUser: true });
    expect(
      (await read<{ submissions: FeedClip[] }>('/api/feed/clips?limit=50', clipper.cookie)).submissions.find((c) => c.id === clipId),
    ).toMatchObject({ likeCount: 1, likedByCurrentUser: false });

    // A follow: the top streamers and the streamers tab count it, and show the multiplier rewards applies
    // for one follower (its step from the steps table, 1.1: not the stored 1.00).
    expect((await api(`/api/follow/${streamer.id}`, json('POST', undefined, { cookie: fan.cookie }))).status).toBe(200);
    const step = Number(
      (
        await p.rewardsDb.query<{ multiplier: string }>(
          'SELECT multiplier FROM multiplier_steps WHERE min_followers <= 1 ORDER BY min_followers DESC LIMIT 1',
        )
      ).rows[0]!.multiplier,
    );
    expect(step).toBe(1.1);
    const top = await waitFor(
      async () => {
        const list = await read<Array<{ id: string; followerCount: number; totalClips: number; multiplier: number }>>('/api/top-streamers');
        const found = list.find((s) => s.id === streamer.id);
        return found?.followerCount === 1 && found.multiplier === step ? found : undefined;
      },
      15_000,
      'the follow and the applied multiplier',
    );
    expect(top).toMatchObject({ followerCount: 1, totalClips: 1, multiplier: step });
    // The multiplier shown is the one rewards applied: what it stored and published for this streamer.
    expect(
      (await p.rewardsDb.query<{ applied_multiplier: string }>('SELECT applied_multiplier FROM people WHERE id = $1', [streamer.id]))
        .rows[0],
    ).toEqual({ applied_multiplier: '1.10' });
    expect(
      (await read<Array<{ userId: string; followers: number; totalClips: number }>>('/api/creators/streamers')).find(
        (s) => s.userId === streamer.id,
      ),
    ).toMatchObject({ followers: 1, totalClips: 1 });

    // Removed from the feed: gone from it at once, still an approved post.
    expect((await admin(clipId, 'remove-from-feed')).status).toBe(200);
    await waitFor(async () => (!(await feedIds()).includes(clipId) ? true : undefined), 5000, 'the removal');
    expect((await read<Array<{ id: string }>>('/api/leaderboard/posts')).map((x) => x.id)).toContain(clipId);
  }, 150_000);

  it('answers tagged videos with their total and pages past 50 by cursor; the streamer’s own count takes every status', async () => {
    const streamer = await signUp('streamer');
    const clipper = await signUp('clipper');
    // 120 tagged clips (55 approved, 65 pending), written straight into the read model: the route's paging,
    // not the pipeline, is what this proves (the first test takes a clip through the pipeline).
    await p.feedDb.query(
      `INSERT INTO rm.clips (id, user_id, name, url, external_id, author_handle, streamer_id, tagged_user_id, status, added_to_feed,
         video_state, has_video, approved_at, created_at, source_updated_at, visible)
       SELECT gen_random_uuid(), $1, 'Tagged ' || n, 'https://x.com/a/status/' || n, n::text, 'a', $2, $2,
         CASE WHEN n <= 55 THEN 'approved' ELSE 'pending' END, false, 'none', false,
         -- Approved long ago: below every post the other tests approve on the leaderboard.
         CASE WHEN n <= 55 THEN now() - interval '1 day' END, now() - n * interval '1 second', now(), false
       FROM generate_series(1, 120) AS n`,
      [clipper.id, streamer.id],
    );
    type Page = { videos: Array<{ id: string; name: string; status: string }>; nextCursor: string | null; total: number };
    const all = async (cookie?: string) => {
      const pages: Page[] = [];
      let cursor: string | null = null;
      do {
        const page: Page = await read<Page>(
          `/api/tagged-videos/${streamer.id}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
          cookie,
        );
        pages.push(page);
        cursor = page.nextCursor;
      } while (cursor);
      return pages;
    };
    const visitor = await all();
    expect(visitor.map((page) => [page.videos.length, page.total])).toEqual([
      [50, 55],
      [5, 55],
    ]);
    const names = visitor.flatMap((page) => page.videos.map((v) => v.name));
    expect(names).toEqual(Array.from({ length: 55 }, (_, i) => `Tagged ${i + 1}`));
    const own = await all(streamer.cookie);
    expect(own.map((page) => [page.videos.length, page.total])).toEqual([
      [50, 120],
      [50, 120],
      [20, 120],
    ]);
    expect(new Set(own.flatMap((page) => page.videos.map((v) => v.id))).size).toBe(120);
    await settled(streamer, 'streamer');
    await settled(clipper, 'clipper');
  });

  it('answers from the cache with an ETag, 304 when the browser has it, and a new answer after a change', async () => {
    const first = await api('/api/leaderboard/posts');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const again = await api('/api/leaderboard/posts', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');

    const clipper = await signUp('clipper');
    const created = await api(
      '/api/submissions',
      json(
        'POST',
        { name: 'Changes the board', url: `https://x.com/${clipper.handle}/status/${Date.now()}`, walletAddress: '' },
        { cookie: clipper.cookie },
      ),
    );
    const id = ((await created.json()) as { id: string }).id;
    expect((await admin(id, 'approve')).status).toBe(200);
    const changed = await waitFor(
      async () => {
        const res = await api('/api/leaderboard/posts', { headers: { 'if-none-match': etag } });
        return res.status === 200 ? res : undefined;
      },
      5000,
      'a new answer',
    );
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as Array<{ id: string }>).map((x) => x.id)).toContain(id);
    // A signed-in reader's feed is theirs: private.
    expect((await api('/api/feed/clips', { headers: { cookie: clipper.cookie } })).headers.get('cache-control')).toBe('private, no-cache');
    await settled(clipper, 'clipper', id);
  }, 30_000);

  it('answers a URL its route has already checked at the front, with the same headers and bytes', async () => {
    const frontAnswers = async () =>
      Number(/^gateway_front_answers_total(?:\{[^}]*\})? (\d+)/m.exec(await (await fetch(`${p.url}/metrics`)).text())?.[1] ?? 0);
    const perConnection = new Set(['date', 'connection', 'keep-alive', 'x-correlation-id']);
    const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => !perConnection.has(name)));
    const path = `/api/leaderboard/users?limit=7&n=${Date.now()}`;

    const before = await frontAnswers();
    const viaRoute = await api(path);
    const viaFront = await api(path, { headers: { 'x-correlation-id': 'front-check-1' } });
    expect(await frontAnswers()).toBe(before + 1);
    expect(viaFront.status).toBe(200);
    expect(headersOf(viaFront)).toEqual(headersOf(viaRoute));
    expect(viaFront.headers.get('x-correlation-id')).toBe('front-check-1');
    expect(await viaFront.text()).toBe(await viaRoute.text());

    // 304: the same headers as the route's.
    const etag = viaRoute.headers.get('etag')!;
    const other = `/api/leaderboard/users?limit=6&n=${Date.now()}`;
    const firstOther = await api(other, { headers: { 'if-none-match': '"first-visit"' } });
    expect(firstOther.status).toBe(200);
    const otherEtag = firstOther.headers.get('etag')!;
    const [a, b] = [await api(other, { headers: { 'if-none-match': otherEtag } }), await api(path, { headers: { 'if-none-match': etag } })];
    expect([a.status, b.status]).toEqual([304, 304]);
    expect(headersOf(a)).toEqual(headersOf(b));
    expect(await frontAnswers()).toBe(before + 3);

    // What the route refuses is never answered at the front: a control character in an ignored parameter.
    const refused = `/api/leaderboard/users?limit=7&x=%01`;
    expect((await api(refused)).status).toBe(400);
    expect((await api(refused)).status).toBe(400);
    // A signed-in reader's feed depends on them: always the route's (private) answer.
    const reader = await signUp('clipper');
    await api('/api/feed/clips?limit=3', { headers: { cookie: reader.cookie } });
    const own = await api('/api/feed/clips?limit=3', { headers: { cookie: reader.cookie } });
    expect(own.headers.get('cache-control')).toBe('private, no-cache');
    // Methods other than GET, and requests with a body, go to the route too.
    expect((await api(path, { method: 'HEAD' })).status).toBe(200);
    expect(await frontAnswers()).toBe(before + 3);
  }, 30_000);

  it('refuses in text: an unknown clipper or user, an unknown tab, a bad cursor', async () => {
    const text = async (path: string) => {
      const res = await api(path);
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    };
    expect(await text(`/api/clipper/${UNKNOWN}`)).toEqual({ status: 404, type: 'text/plain; charset=utf-8', body: 'Clipper not found' });
    expect(await text('/api/clipper/not-an-id')).toEqual({ status: 404, type: 'text/plain; charset=utf-8', body: 'Clipper not found' });
    expect(await text('/api/creators/admins')).toEqual({
      status: 400,
      type: 'text/plain; charset=utf-8',
      body: 'Tab must be clippers or streamers',
    });
    expect(await text('/api/feed/clips?cursor=nope')).toEqual({ status: 400, type: 'text/plain; charset=utf-8', body: 'Invalid cursor' });
    expect(await text('/api/tagged-videos/nope')).toEqual({ status: 400, type: 'text/plain; charset=utf-8', body: 'Invalid user id' });
    // An id that is no user: 404, not an empty page with a total of 0.
    expect(await text(`/api/tagged-videos/${UNKNOWN}`)).toEqual({ status: 404, type: 'text/plain; charset=utf-8', body: 'User not found' });
    expect(await text(`/api/tagged-videos/${UNKNOWN}?limit=5`)).toEqual({
      status: 404,
      type: 'text/plain; charset=utf-8',
      body: 'User not found',
    });
  });
});
