// X post metrics over real servers: gateway → submissions (scheduler, metrics queue on Redis) → metrics
// worker → the stand-in for X's API v2 → metrics.fetched on NATS → submissions (counts, view history,
// verification) → metrics.updated → feed, rewards. And the oEmbed proxy against the stand-in for X's oEmbed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { POST_MESSAGES } from '@clipit/field-rules';
import { waitFor } from '@clipit/testing';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
let seq = 0;
const postId = () => `19${Date.now()}${String((seq += 1)).padStart(3, '0')}`;

interface History {
  submissionId: string;
  views: number;
  verificationCode: string | null;
  verifiedAt: string | null;
  lastMetricsFetch: string | null;
  publishedAt: string | null;
  points: { at: string; views: number; likes: number; retweets: number; replies: number }[];
}

describe('X post metrics and previews (gateway + submissions + metrics worker + feed + rewards, real servers)', () => {
  let p: Platform;
  let adminToken = '';
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));

  async function signUp(prefix: string): Promise<{ id: string; cookie: string }> {
    const handle = `${prefix}_${Date.now().toString(36).slice(-6)}`;
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role: 'clipper',
        password: 'a-good-password',
      }),
    );
    expect(res.status).toBe(201);
    return {
      id: ((await res.json()) as { user: { id: string } }).user.id,
      cookie: `clipit.sid=${/clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]}`,
    };
  }

  async function submit(cookie: string, id: string): Promise<{ submissionId: string; code: string }> {
    const res = await api(
      '/api/submissions',
      json('POST', { name: `Clip ${id}`, url: `https://x.com/somebody/status/${id}`, walletAddress: '' }, { cookie }),
    );
    expect(res.status).toBe(201);
    const submissionId = ((await res.json()) as { id: string }).id;
    const mine = (await (await api('/api/submissions', { headers: { cookie } })).json()) as { id: string; verificationCode: string }[];
    const code = mine.find((s) => s.id === submissionId)?.verificationCode;
    expect(code).toMatch(/^CLIP-[A-Z0-9]{6}$/);
    return { submissionId, code: code! };
  }

  const approve = async (id: string) => {
    const res = await api(`/api/admin/submissions/${id}/approve`, json('POST', {}, { authorization: `Bearer ${adminToken}` }));
    expect(res.status).toBe(200);
  };

  const history = async (id: string, cookie: string): Promise<History> => {
    const res = await api(`/api/submissions/${id}/metrics-history`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return (await res.json()) as History;
  };

  beforeAll(async () => {
    p = await startPlatform({}, {}, { metricsWorker: true });
    adminToken = (
      (await (await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }))).json()) as { token: string }
    ).token;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('reads an approved post’s metrics from X, records its view history, and counts its views once the post holds the verification code', async () => {
    const clipper = await signUp('xm');
    const verifiedPost = postId();
    const unverifiedPost = postId();
    const verified = await submit(clipper.cookie, verifiedPost);
    const unverified = await submit(clipper.cookie, unverifiedPost);
    // The clipper put the code in one post; the other is somebody else's, by another author.
    p.xApi.setPost(verifiedPost, {
      text: `Huge clutch 😱 ${verified.code.toLowerCase()} #clipit`,
      author_id: '111',
      metrics: { impression_count: 12_345, like_count: 321, retweet_count: 12, reply_count: 4 },
    });
    p.xApi.setPost(unverifiedPost, {
      text: 'not mine',
      author_id: '222',
      metrics: { impression_count: 99_000, like_count: 7, retweet_count: 1, reply_count: 0 },
    });

    // Pending posts are not read.
    const requestsBefore = p.xApi.counters.requests;
    await new Promise((r) => setTimeout(r, 1500));
    expect(p.xApi.counters.requests).toBe(requestsBefore);

    await approve(verified.submissionId);
    await approve(unverified.submissionId);

    const read = await waitFor(
      async () => {
        const h = await history(verified.submissionId, clipper.cookie);
        return h.points.length > 0 && h.verifiedAt ? h : undefined;
      },
      30_000,
      'the verified post’s metrics read',
    );
    expect(read).toMatchObject({
      submissionId: verified.submissionId,
      views: 12_345,
      verificationCode: verified.code,
      verifiedAt: expect.any(String),
      lastMetricsFetch: expect.any(String),
      publishedAt: expect.any(String),
    });
    expect(read.points).toEqual([{ at: read.lastMetricsFetch, views: 12_345, likes: 321, retweets: 12, replies: 4 }]);
    // Both posts went to X in one lookup of at most 100 ids.
    expect(p.xApi.requests.some((r) => r.ids.includes(verifiedPost))).toBe(true);
    expect(Math.max(...p.xApi.requests.map((r) => r.ids.length))).toBeLessThanOrEqual(100);

    // The owner sees the unverified post's real counts, marked unverified.
    const other = await waitFor(
      async () => {
        const h = await history(unverified.submissionId, clipper.cookie);
        return h.points.length > 0 ? h : undefined;
      },
      30_000,
      'the unverified post’s metrics read',
    );
    expect(other).toMatchObject({ views: 99_000, verifiedAt: null });

    // Only the verified post's views count: the leaderboard, the clipper's figures and the dashboard follow.
    const posts = await waitFor(
      async () => {
        const list = (await (await api('/api/leaderboard/posts')).json()) as { id: string; views: number }[];
        return list.find((x) => x.id === verified.submissionId && x.views === 12_345) ? list : undefined;
      },
      20_000,
      'the leaderboard shows the views',
    );
    expect(posts.find((x) => x.id === unverified.submissionId)?.views ?? 0).toBe(0);
    await waitFor(
      async () => {
        const dashboard = (await (await api('/api/dashboard', { headers: { cookie: clipper.cookie } })).json()) as {
          metrics: { avgViews: number };
        };
        return dashboard.metrics.avgViews > 0 ? true : undefined;
      },
      20_000,
      'rewards counts the views',
    );
  });

  it('scores an inflated clip’s views: its risk and reasons on the admin list, “under review” with the reasons on the clipper’s list', async () => {
    const clipper = await signUp('xr');
    const id = postId();
    const { submissionId, code } = await submit(clipper.cookie, id);
    p.xApi.setPost(id, {
      text: `Clip of the day ${code}`,
      created_at: new Date(Date.now() - 3600_000).toISOString(),
      metrics: { impression_count: 1_200, like_count: 30, retweet_count: 4, reply_count: 3, quote_count: 1 },
      videoViews: 500,
    });
    await approve(submissionId);
    await waitFor(
      async () => ((await history(submissionId, clipper.cookie)).points.length === 1 ? true : undefined),
      30_000,
      'the first read',
    );
    const adminItem = async () => {
      const res = await api('/api/admin/submissions', { headers: { authorization: `Bearer ${adminToken}` } });
      expect(res.status).toBe(200);
      const page = (await res.json()) as {
        submissions: { id: string; risk: { score: number; reasons: string[]; underReview: boolean } | null }[];
      };
      return page.submissions.find((s) => s.id === submissionId);
    };
    // One read: not judged yet.
    expect((await adminItem())?.risk).toBeNull();

    // Bought views: 48,000 with 2 more likes and retweets, and the video barely played. Its next read is made due now.
    p.xApi.setPost(id, {
      metrics: { impression_count: 48_000, like_count: 31, retweet_count: 5, reply_count: 3, quote_count: 1 },
      videoViews: 520,
    });
    await p.submissionsDb.query('UPDATE submissions SET metrics_due_at = now() WHERE id = $1', [submissionId]);
    await waitFor(
      async () => ((await history(submissionId, clipper.cookie)).points.length === 2 ? true : undefined),
      30_000,
      'the second read',
    );

    const risk = (await adminItem())?.risk;
    expect(risk).toMatchObject({ score: 100, underReview: true });
    expect(risk!.reasons[0]).toMatch(
      /^Views jumped from 1,200 to 48,000 between two reads (less than a minute|a minute|\d+ minutes) apart while likes and retweets rose by 2\.$/,
    );
    expect(risk!.reasons).toContain(
      "Only 520 of the post's 48,000 views played the video (1.1%), where most people who see a clip play some of it.",
    );
    expect(risk!.reasons.some((r) => r.startsWith('Likes, retweets, replies and quotes are 0.083% of views (40 on 48,000)'))).toBe(true);

    // The clipper sees it under review with the same reasons, and no score.
    const mine = (await (await api('/api/submissions', { headers: { cookie: clipper.cookie } })).json()) as Record<string, unknown>[];
    const own = mine.find((s) => s['id'] === submissionId)!;
    expect(own['viewsReview']).toEqual({ reasons: risk!.reasons });
    expect(own).not.toHaveProperty('risk');
    expect(JSON.stringify(own)).not.toContain('"score"');
    // Another clip of theirs, read once: nothing to review.
    const other = await submit(clipper.cookie, postId());
    const list = (await (await api('/api/submissions', { headers: { cookie: clipper.cookie } })).json()) as Record<string, unknown>[];
    expect(list.find((s) => s['id'] === other.submissionId)?.['viewsReview']).toBeNull();
  });

  it('serves the view history to its owner and admins only', async () => {
    const owner = await signUp('xo');
    const stranger = await signUp('xs');
    const { submissionId } = await submit(owner.cookie, postId());
    await approve(submissionId);

    await expectText(await api(`/api/submissions/${submissionId}/metrics-history`), 401, 'Not signed in');
    await expectText(
      await api(`/api/submissions/${submissionId}/metrics-history`, { headers: { cookie: stranger.cookie } }),
      404,
      'Submission not found',
    );
    await expectText(
      await api('/api/submissions/not-a-uuid/metrics-history', { headers: { cookie: owner.cookie } }),
      400,
      'Invalid submission id',
    );
    expect((await history(submissionId, owner.cookie)).submissionId).toBe(submissionId);
  });

  it('proxies X’s oEmbed for post links only, and caches it', async () => {
    const id = postId();
    const url = encodeURIComponent(`https://x.com/somebody/status/${id}`);
    const first = await api(`/api/twitter/oembed?url=${url}`);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ type: 'rich', html: expect.stringContaining('blockquote') });
    const calls = p.xOembed.counters.requests;
    expect((await api(`/api/twitter/oembed?url=${url}`)).status).toBe(200);
    expect(p.xOembed.counters.requests).toBe(calls);

    await expectText(
      await api(`/api/twitter/oembed?url=${encodeURIComponent('https://example.com/somebody/status/1')}`),
      400,
      POST_MESSAGES.invalidUrl,
    );
    expect(p.xOembed.counters.requests).toBe(calls);
  });
});
