// Follows, likes, live state and stream time over real HTTP: gateway → social (own database, people and
// clips read models fed by identity's and submissions' events) and identity mirroring the live state
// back (ADR 0021). Every rule with its words, repeats that change nothing, the exact count under
// concurrency, and the live stream delivering a go-live published through another gateway replica.
// A clip is liked only once the feed lists it (approved, added, its video processed by the media worker).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { synthesizeClip } from '@clipit/media';
import { waitFor } from '@clipit/testing';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';
import { openSse, type SseStream } from './support/sse.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let seq = 0;
let postSeq = 0;
const postUrl = () => `https://x.com/clipper/status/${Date.now()}${String((postSeq += 1)).padStart(4, '0')}`;

interface Account {
  id: string;
  handle: string;
  cookie: string;
  displayName: string;
}

describe('social (gateway + social + identity + submissions + admin, real servers)', () => {
  let p: Platform;
  let adminToken = '';
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const as = (who: Account, method: string, path: string, body?: unknown) => api(path, json(method, body, { cookie: who.cookie }));

  async function signUp(role: 'clipper' | 'streamer', displayName?: string): Promise<Account> {
    seq += 1;
    const tag = `${Date.now().toString(36).slice(-5)}${seq}`;
    const handle = `${role === 'streamer' ? 'st' : 'cl'}_${tag}`.slice(0, 15);
    const name = displayName ?? `Person ${tag}`;
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role,
        password: 'a-good-password',
        displayName: name,
      }),
    );
    expect(res.status).toBe(201);
    const sid = /clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
    return { id: ((await res.json()) as { user: { id: string } }).user.id, handle, cookie: `clipit.sid=${sid}`, displayName: name };
  }

  /** A submission approved and added to the feed through the admin area (with a video or not), once social's clips have it. */
  async function approvedClip(owner: Account, withVideo: boolean): Promise<string> {
    const res = await as(owner, 'POST', '/api/submissions', { name: 'A clip to like', url: postUrl(), walletAddress: '' });
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { id: string }).id;
    if (withVideo) {
      const form = new FormData();
      form.append('video', new Blob([video], { type: 'video/mp4' }), 'clip.mp4');
      form.append('submissionId', id);
      expect((await api('/api/submissions/upload-video', { method: 'POST', headers: { cookie: owner.cookie }, body: form })).status).toBe(
        200,
      );
      await waitFor(
        async () =>
          (await p.socialDb.query(`SELECT 1 FROM clips WHERE id = $1 AND video_state = 'ready'`, [id])).rowCount ? true : undefined,
        90_000,
        'the processed video in social',
      );
    }
    const approved = await api(
      `/api/admin/submissions/${id}/approve-and-add-to-feed`,
      json('POST', {}, { authorization: `Bearer ${adminToken}` }),
    );
    expect(approved.status).toBe(200);
    await waitFor(
      async () => ((await p.socialDb.query('SELECT 1 FROM clips WHERE id = $1 AND added_to_feed', [id])).rowCount ? true : undefined),
      10_000,
      'clip in social',
    );
    return id;
  }

  /** A clip in the feed: approved, added and with its video processed. */
  const feedClip = (owner: Account) => approvedClip(owner, true);

  let videoDir: string;
  let video: Uint8Array<ArrayBuffer>;

  let streamer: Account;
  let fan: Account;
  let stranger: Account;

  beforeAll(async () => {
    // Fifty-odd accounts sign up from one address here.
    videoDir = await mkdtemp(join(tmpdir(), 'clipit-social-e2e-'));
    const file = join(videoDir, 'clip.mp4');
    await synthesizeClip({ path: file, durationSeconds: 3, width: 360, height: 640, withAudio: false, fps: 10, keyframeSeconds: 0.5 });
    video = new Uint8Array(await readFile(file));
    // 1,000 toggles queued on one clip's row can keep a call past the gateway's 5 s on a loaded 2-core test
    // machine: the test judges answers and counts, so it gives social's calls 30 s.
    p = await startPlatform({ RATE_LIMIT_MAX_PER_IP: 1000, SOCIAL_GRPC_DEADLINE_MS: 30_000 }, {}, { mediaWorker: true });
    const res = await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }));
    adminToken = ((await res.json()) as { token: string }).token;
    [streamer, fan, stranger] = [await signUp('streamer', 'Ada Streams'), await signUp('clipper'), await signUp('clipper')];
  });
  afterAll(async () => {
    await p?.stop();
    if (videoDir) await rm(videoDir, { recursive: true, force: true });
  });

  describe('follows', () => {
    it('follows and unfollows, each once however often pressed, with the count and the list following', async () => {
      expect(await (await api(`/api/following/${streamer.id}`)).json()).toEqual({ isFollowing: false }); // signed out
      expect(await (await as(fan, 'GET', `/api/following/${streamer.id}`)).json()).toEqual({ isFollowing: false });

      for (let i = 0; i < 2; i += 1) {
        const res = await as(fan, 'POST', `/api/follow/${streamer.id}`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ isFollowing: true, followerCount: 1 });
      }
      expect(await (await as(fan, 'GET', `/api/following/${streamer.id}`)).json()).toEqual({ isFollowing: true });
      expect(await (await as(stranger, 'GET', `/api/following/${streamer.id}`)).json()).toEqual({ isFollowing: false });
      expect(await (await api(`/api/followers/${streamer.id}`)).json()).toEqual({ count: 1 });
      expect(await (await api(`/api/followers/list/${streamer.id}`)).json()).toEqual({
        followers: [{ id: fan.id, displayName: fan.displayName, twitterUsername: fan.handle, profileImageUrl: null }],
        nextCursor: null,
        total: 1,
      });

      for (let i = 0; i < 2; i += 1)
        expect(await (await as(fan, 'POST', `/api/unfollow/${streamer.id}`)).json()).toEqual({ isFollowing: false, followerCount: 0 });
      expect(await (await api(`/api/followers/${streamer.id}`)).json()).toEqual({ count: 0 });
      expect(await (await api(`/api/followers/list/${streamer.id}`)).json()).toMatchObject({ followers: [], total: 0 });
      expect(
        (
          await p.socialDb.query(
            "SELECT count(*)::int AS n FROM outbox WHERE type = 'social.followed' AND envelope->'data'->>'userId' = $1",
            [streamer.id],
          )
        ).rows[0].n,
      ).toBe(1);
    });

    it('pages a streamer’s followers newest first: each page with the total, the next by its cursor, none twice or missed', async () => {
      const popular = await signUp('streamer');
      const fans = [
        await signUp('clipper'),
        await signUp('clipper'),
        await signUp('clipper'),
        await signUp('clipper'),
        await signUp('clipper'),
      ];
      // One after another, so "newest first" has one answer.
      for (const f of fans) expect((await as(f, 'POST', `/api/follow/${popular.id}`)).status).toBe(200);

      type Page = { followers: Array<{ id: string }>; nextCursor: string | null; total: number };
      const pages: Page[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
        const res = await api(`/api/followers/list/${popular.id}${query}`);
        expect(res.status).toBe(200);
        const page = (await res.json()) as Page;
        pages.push(page);
        cursor = page.nextCursor;
      } while (cursor && pages.length < 10);
      expect(pages.map((page) => [page.followers.length, page.total])).toEqual([
        [2, 5],
        [2, 5],
        [1, 5],
      ]);
      expect(pages.flatMap((page) => page.followers.map((f) => f.id))).toEqual(fans.map((f) => f.id).reverse());
      expect(pages.at(-1)!.nextCursor).toBeNull();

      // The default page (50) holds them all.
      const all = (await (await api(`/api/followers/list/${popular.id}`)).json()) as Page;
      expect([all.followers.length, all.nextCursor, all.total]).toEqual([5, null, 5]);
    });

    it('follows a streamer who signed up a moment ago (asked of identity when the event has not arrived)', async () => {
      const fresh = await signUp('streamer');
      const res = await as(fan, 'POST', `/api/follow/${fresh.id}`);
      expect(await res.json()).toEqual({ isFollowing: true, followerCount: 1 });
    });

    it('answers the reads of a user who signed up a moment ago, never 404 for the lag of their event', async () => {
      // Each read on a user of its own, asked at once: social may not have user.registered yet for any of them.
      const [a, b, c] = await Promise.all([signUp('streamer'), signUp('streamer'), signUp('clipper')]);
      const [count, list, following] = await Promise.all([
        api(`/api/followers/${a.id}`),
        api(`/api/followers/list/${b.id}`),
        as(fan, 'GET', `/api/following/${c.id}`),
      ]);
      expect([count.status, list.status, following.status]).toEqual([200, 200, 200]);
      expect(await count.json()).toEqual({ count: 0 });
      expect(await list.json()).toEqual({ followers: [], nextCursor: null, total: 0 });
      expect(await following.json()).toEqual({ isFollowing: false });
    });

    it('refuses yourself, a clipper, an unknown user and a visitor, each with its words, and stores nothing', async () => {
      await expectText(await as(streamer, 'POST', `/api/follow/${streamer.id}`), 400, 'You cannot follow yourself');
      await expectText(await as(streamer, 'POST', `/api/follow/${fan.id}`), 400, 'Only streamers can be followed');
      await expectText(await as(fan, 'POST', `/api/follow/${UNKNOWN}`), 404, 'User not found');
      await expectText(await as(fan, 'POST', `/api/unfollow/${UNKNOWN}`), 404, 'User not found');
      await expectText(await as(fan, 'POST', '/api/follow/not-a-user'), 400, 'Invalid user id');
      await expectText(await api(`/api/follow/${streamer.id}`, { method: 'POST' }), 401, 'Not signed in');
      await expectText(await api(`/api/unfollow/${streamer.id}`, { method: 'POST' }), 401, 'Not signed in');
      await expectText(await api(`/api/followers/${UNKNOWN}`), 404, 'User not found');
      await expectText(await api(`/api/followers/list/${UNKNOWN}`), 404, 'User not found');
      await expectText(await api(`/api/following/${UNKNOWN}`), 404, 'User not found');
      await expectText(await api(`/api/followers/list/${streamer.id}?cursor=junk`), 400, 'Invalid cursor');
      // A write carrying the cookie from another site is refused before it reaches social.
      await expectText(
        await fetch(`${p.url}/api/follow/${streamer.id}`, {
          method: 'POST',
          headers: { cookie: fan.cookie, origin: 'https://evil.example' },
        }),
        403,
        'Cross-site request refused',
      );
      expect(
        (
          await p.socialDb.query('SELECT count(*)::int AS n FROM followers WHERE following_id = ANY($1::uuid[])', [
            [streamer.id, fan.id, UNKNOWN],
          ])
        ).rows[0].n,
      ).toBe(0);
      // An id that is no user leaves nothing behind: no follow, no event, no person.
      expect(
        (await p.socialDb.query("SELECT count(*)::int AS n FROM outbox WHERE envelope->'data'->>'userId' = $1", [UNKNOWN])).rows[0].n,
      ).toBe(0);
      expect((await p.socialDb.query('SELECT count(*)::int AS n FROM people WHERE id = $1', [UNKNOWN])).rows[0].n).toBe(0);
    });
  });

  describe('likes', () => {
    it('likes once however often, unlikes once, and answers the count with whether I like it', async () => {
      const clip = await feedClip(stranger);
      const path = `/api/feed/clips/${clip}/like`;
      for (let i = 0; i < 2; i += 1) expect(await (await as(fan, 'POST', path)).json()).toEqual({ likeCount: 1, likedByCurrentUser: true });
      expect(await (await as(streamer, 'POST', path)).json()).toEqual({ likeCount: 2, likedByCurrentUser: true });
      for (let i = 0; i < 2; i += 1)
        expect(await (await as(fan, 'DELETE', path)).json()).toEqual({ likeCount: 1, likedByCurrentUser: false });
      await expectText(await api(path, { method: 'POST' }), 401, 'Not signed in');
      await expectText(await api(path, { method: 'DELETE' }), 401, 'Not signed in');
    });

    it('ends 1,000 concurrent toggles by 50 users on one clip with the exact count', async () => {
      const clip = await feedClip(stranger);
      const path = `/api/feed/clips/${clip}/like`;
      // All at once: identity's hashing line (ADR 0044) holds fifty test-cost hashes well within its budget.
      const users = await Promise.all(Array.from({ length: 50 }, () => signUp('clipper')));
      const statuses: number[] = [];
      await Promise.all(
        users.map(async (user, i) => {
          // 20 toggles each, in turn; the odd-numbered users end on a like.
          const toggles = [...Array.from({ length: 19 }, (_, t) => (t % 2 === 0 ? 'POST' : 'DELETE')), i % 2 === 1 ? 'POST' : 'DELETE'];
          for (const method of toggles) statuses.push((await as(user, method, path)).status);
        }),
      );
      expect(statuses).toHaveLength(1000);
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(await (await as(fan, 'DELETE', path)).json()).toEqual({ likeCount: 25, likedByCurrentUser: false });
      expect((await p.socialDb.query('SELECT like_count FROM clips WHERE id = $1', [clip])).rows[0].like_count).toBe(25);
    });

    it('refuses a clip the feed does not list (pending, without a playable video, removed) with a reason, and an unknown one as not found', async () => {
      const NOT_IN_FEED = 'This clip is not in the feed, so it cannot be liked';
      const res = await as(stranger, 'POST', '/api/submissions', { name: 'Pending clip', url: postUrl(), walletAddress: '' });
      const pending = ((await res.json()) as { id: string }).id;
      await waitFor(async () => ((await p.socialDb.query('SELECT 1 FROM clips WHERE id = $1', [pending])).rowCount ? true : undefined));
      await expectText(await as(fan, 'POST', `/api/feed/clips/${pending}/like`), 409, NOT_IN_FEED);

      // Approved and added to the feed, but with no video the feed cannot play: the feed does not list it, so it cannot be liked.
      const noVideo = await approvedClip(stranger, false);
      const feed = (await (await api('/api/feed/clips?limit=50')).json()) as { submissions: Array<{ id: string }> };
      expect(feed.submissions.map((c) => c.id)).not.toContain(noVideo);
      await expectText(await as(fan, 'POST', `/api/feed/clips/${noVideo}/like`), 409, NOT_IN_FEED);
      expect((await p.socialDb.query('SELECT like_count FROM clips WHERE id = $1', [noVideo])).rows[0].like_count).toBe(0);

      await expectText(await as(fan, 'POST', `/api/feed/clips/${UNKNOWN}/like`), 404, 'Clip not found');
      await expectText(await as(fan, 'POST', '/api/feed/clips/not-a-clip/like'), 404, 'Clip not found');

      const removed = await feedClip(stranger);
      expect(
        (await api(`/api/admin/submissions/${removed}/remove-from-feed`, json('POST', {}, { authorization: `Bearer ${adminToken}` })))
          .status,
      ).toBe(200);
      await waitFor(async () =>
        (await p.socialDb.query('SELECT 1 FROM clips WHERE id = $1 AND NOT added_to_feed', [removed])).rowCount ? true : undefined,
      );
      await expectText(await as(fan, 'POST', `/api/feed/clips/${removed}/like`), 409, NOT_IN_FEED);
    });
  });

  describe('live state and stream time', () => {
    it('goes live telling every follower, shows it to followers only, mirrors it on /api/user/me, and goes offline', async () => {
      const host = await signUp('streamer', 'Live Host');
      const followers = [fan, await signUp('clipper'), await signUp('clipper')];
      for (const f of followers) await as(f, 'POST', `/api/follow/${host.id}`);

      let res = await as(host, 'POST', '/api/users/go-live');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ isLive: 'true', nextStreamTime: null, notifiedFollowers: 3 });
      expect(await (await as(host, 'POST', '/api/users/go-live')).json()).toMatchObject({ isLive: 'true', notifiedFollowers: 0 });

      expect(await (await as(fan, 'GET', '/api/followers/live')).json()).toEqual([
        { id: host.id, displayName: 'Live Host', twitterUsername: host.handle, profileImageUrl: null },
      ]);
      expect(await (await as(stranger, 'GET', '/api/followers/live')).json()).toEqual([]);
      await expectText(await api('/api/followers/live'), 401, 'Not signed in');
      await waitFor(
        async () => (((await (await as(host, 'GET', '/api/user/me')).json()) as { isLive: string }).isLive === 'true' ? true : undefined),
        10_000,
        'isLive mirrored',
      );

      res = await as(host, 'POST', '/api/users/go-offline');
      expect(await res.json()).toEqual({ isLive: 'false', nextStreamTime: null });
      expect(await (await as(fan, 'GET', '/api/followers/live')).json()).toEqual([]);
      await waitFor(
        async () => (((await (await as(host, 'GET', '/api/user/me')).json()) as { isLive: string }).isLive === 'false' ? true : undefined),
        10_000,
        'offline mirrored',
      );
    });

    it('sets and clears the next stream time, mirrored on /api/user/me, and refuses what is not a future zoned time', async () => {
      const host = await signUp('streamer');
      const at = new Date(Date.now() + 2 * 86_400_000);
      at.setUTCSeconds(0, 0);
      let res = await as(host, 'PATCH', '/api/users/stream-time', { streamTime: at.toISOString() });
      expect(await res.json()).toEqual({ isLive: 'false', nextStreamTime: at.toISOString() });
      await waitFor(async () =>
        ((await (await as(host, 'GET', '/api/user/me')).json()) as { nextStreamTime: string }).nextStreamTime === at.toISOString()
          ? true
          : undefined,
      );
      res = await as(host, 'PATCH', '/api/users/stream-time', { streamTime: null });
      expect(await res.json()).toEqual({ isLive: 'false', nextStreamTime: null });
      await waitFor(async () =>
        ((await (await as(host, 'GET', '/api/user/me')).json()) as { nextStreamTime: string | null }).nextStreamTime === null
          ? true
          : undefined,
      );

      const invalid = 'Stream time must be a date and time with a time zone (ISO 8601), or null to clear it';
      await expectText(await as(host, 'PATCH', '/api/users/stream-time', { streamTime: 'friday night' }), 400, invalid);
      await expectText(await as(host, 'PATCH', '/api/users/stream-time', { streamTime: '2030-01-01T20:00' }), 400, invalid);
      await expectText(await as(host, 'PATCH', '/api/users/stream-time', {}), 400, invalid);
      await expectText(await as(host, 'PATCH', '/api/users/stream-time', { streamTime: 12 }), 400, invalid);
      await expectText(
        await as(host, 'PATCH', '/api/users/stream-time', { streamTime: '2020-01-01T20:00:00Z' }),
        400,
        'Stream time must be in the future',
      );
      await expectText(await as(host, 'PATCH', '/api/users/stream-time', { streamTime: null, when: 1 }), 400, 'Unknown field: when');
    });

    it('refuses every streaming call to a clipper with 403 and its words, and to a visitor with 401', async () => {
      await expectText(await as(fan, 'POST', '/api/users/go-live'), 403, 'Only streamers can go live');
      await expectText(await as(fan, 'POST', '/api/users/go-offline'), 403, 'Only streamers can go offline');
      await expectText(
        await as(fan, 'PATCH', '/api/users/stream-time', { streamTime: new Date(Date.now() + 86_400_000).toISOString() }),
        403,
        'Only streamers can set a stream time',
      );
      await expectText(await api('/api/users/go-live', { method: 'POST' }), 401, 'Not signed in');
      await expectText(await api('/api/users/stream-time', json('PATCH', { streamTime: null })), 401, 'Not signed in');
      expect((await p.socialDb.query('SELECT count(*)::int AS n FROM live_states WHERE user_id = $1', [fan.id])).rows[0].n).toBe(0);
    });
  });

  describe('the live stream', () => {
    const streams: SseStream[] = [];
    afterAll(() => streams.forEach((s) => s.close()));
    const open = async (url: string, who: Account, lastEventId?: string) => {
      const s = await openSse(`${url}/api/live/stream`, { cookie: who.cookie, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) });
      streams.push(s);
      return s;
    };

    it('refuses a visitor with 401 text', async () => {
      await expectText(await api('/api/live/stream'), 401, 'Not signed in');
    });

    it('delivers a go-live published through one gateway to a follower connected to another within 1 s', async () => {
      const host = await signUp('streamer', 'Replica Host');
      const follower = await signUp('clipper');
      await as(follower, 'POST', `/api/follow/${host.id}`);
      const other = await p.startGateway();

      const stream = await open(other.httpUrl, follower);
      expect(stream.status).toBe(200);
      expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
      const snapshot = await stream.next((e) => e.event === 'snapshot');
      expect(JSON.parse(snapshot.data)).toEqual([]);
      const bystander = await open(other.httpUrl, stranger);
      await bystander.next((e) => e.event === 'snapshot');

      const sent = performance.now();
      const res = await as(host, 'POST', '/api/users/go-live'); // through the first gateway
      expect(res.status).toBe(200);
      const live = await stream.next((e) => e.event === 'live', 1000);
      expect(live.at - sent).toBeLessThan(1000);
      expect(JSON.parse(live.data)).toEqual({
        id: host.id,
        displayName: 'Replica Host',
        twitterUsername: host.handle,
        profileImageUrl: null,
      });
      expect(Number(live.id)).toBeGreaterThan(0);

      await as(host, 'POST', '/api/users/go-offline');
      const offline = await stream.next((e) => e.event === 'offline');
      expect(JSON.parse(offline.data)).toEqual({ id: host.id });
      expect(Number(offline.id)).toBeGreaterThan(Number(live.id));
      // A user who does not follow the streamer hears nothing of it.
      expect(bystander.events.filter((e) => e.event !== 'snapshot')).toEqual([]);
    });

    it('replays what a reconnecting browser missed after its Last-Event-ID, and a snapshot of who is live without one', async () => {
      const host = await signUp('streamer', 'Returning Host');
      const follower = await signUp('clipper');
      await as(follower, 'POST', `/api/follow/${host.id}`);
      const first = await open(p.url, follower);
      await first.next((e) => e.event === 'snapshot');
      await as(host, 'POST', '/api/users/go-live');
      const seen = await first.next((e) => e.event === 'live');
      first.close();

      // While the browser is away: offline, then live again.
      await as(host, 'POST', '/api/users/go-offline');
      await as(host, 'POST', '/api/users/go-live');
      await waitFor(async () => ((await (await as(follower, 'GET', '/api/followers/live')).json()) as unknown[]).length === 1 || undefined);

      const again = await open(p.url, follower, seen.id);
      const back = await again.next((e) => e.event === 'live' && Number(e.id) > Number(seen.id), 3000);
      expect(again.events.map((e) => e.event)).toEqual(['offline', 'live']);
      expect(JSON.parse(back.data)).toMatchObject({ id: host.id });

      const fresh = await open(p.url, follower);
      const snapshot = await fresh.next((e) => e.event === 'snapshot');
      expect(JSON.parse(snapshot.data)).toEqual([
        { id: host.id, displayName: 'Returning Host', twitterUsername: host.handle, profileImageUrl: null },
      ]);
    });

    it('sends heartbeats, ends the stream after its longest life, and limits open streams per account', async () => {
      const follower = await signUp('clipper');
      const short = await p.startGateway({ LIVE_HEARTBEAT_SECONDS: 1, LIVE_STREAM_MAX_SECONDS: 5, LIVE_STREAMS_PER_USER: 2 });
      const a = await open(short.httpUrl, follower);
      const b = await open(short.httpUrl, follower);
      await expectText(
        await fetch(`${short.httpUrl}/api/live/stream`, { headers: { cookie: follower.cookie } }),
        429,
        'Too many live connections for this account; close a tab and try again',
      );
      await waitFor(() => (a.comments.includes('heartbeat') ? true : undefined), 3000, 'a heartbeat');
      await waitFor(() => (a.finished ? true : undefined), 8000, 'the stream ended by the server');
      await b.ended;
      const c = await open(short.httpUrl, follower); // room again once the others ended
      expect(c.status).toBe(200);
    });
  });
});
