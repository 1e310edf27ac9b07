// The versioned read API's owner data over real HTTP (issue 37, ADR 0053): a streamer's campaigns and the
// clips they count (campaigns, with each clip's view history from submissions), a clipper's own submissions
// and view histories (submissions), earnings and payouts (rewards). Clips go the whole way: submitted tagged
// with the streamer, approved by an admin, read from the X stand-in by the metrics worker, counted by a
// campaign, paid by the weekly run. Each route answers the key's owner only, pages by the owners' cursors,
// refuses a key without its scope and answers 304 to an unchanged ETag.
import { API_KEY_MESSAGES, type ApiKeyScope } from '@clipit/field-rules';
import { waitFor } from '@clipit/testing';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signUp, type Account } from './support/accounts.js';
import { expectText, json } from './support/http.js';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
interface Point {
  at: string;
  views: number;
}
interface V1Campaign {
  id: string;
  status: string;
  deliveredViews: number;
  verifiedViews: number;
  progressPercent: number;
}
interface V1Clip {
  submissionId: string;
  clipperId: string;
  postUrl?: string;
  views: number;
  underReview: boolean;
  viewHistory: Point[];
}
interface V1Submission {
  id: string;
  postUrl: string;
  status: string;
  views: number;
  checks: { postVerified: boolean; viewsReview: unknown; flag: unknown; videoState: string };
}
interface V1Earning {
  submissionId: string;
  amount: string;
  status: string;
  txSignature: string | null;
}

const VIEWS = [12_000, 7_000, 5_000];
let seq = 0;

describe('the v1 read API over the owners (gateway + campaigns + submissions + metrics worker + rewards, real servers)', () => {
  let p: Platform;
  let adminToken = '';
  let streamer: Account;
  let clipper: Account;
  const keys: Record<'streamer' | 'clipper' | 'other' | 'boards', string> = { streamer: '', clipper: '', other: '', boards: '' };
  let running = '';
  let waiting = '';
  const clips: string[] = [];

  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const asAdmin = (path: string) => api(path, json('POST', {}, { authorization: `Bearer ${adminToken}` }));
  const withKey = (key: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${p.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  async function read<T>(key: string, path: string): Promise<Page<T>> {
    const res = await withKey(key, path);
    expect(res.status).toBe(200);
    return (await res.json()) as Page<T>;
  }
  /** Every page of a list, `limit` at a time: the items and how many pages it took. */
  async function walk<T>(key: string, path: string, limit: number): Promise<{ items: T[]; pages: number }> {
    const items: T[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page<T> = await read<T>(key, `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      items.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    return { items, pages };
  }
  async function makeKey(who: Account, scopes: ApiKeyScope[]): Promise<string> {
    const res = await api('/api/keys', json('POST', { name: `v1 ${scopes.join(' ')}`, scopes }, { cookie: who.cookie }));
    expect(res.status).toBe(201);
    return ((await res.json()) as { key: string }).key;
  }
  async function campaign(title: string): Promise<string> {
    const body = {
      title,
      description: 'Clips of the launch stream, posted on X during launch week.',
      targetViews: 100_000,
      budgetAmount: 500,
    };
    const res = await api('/api/cpm-campaigns', json('POST', body, { cookie: streamer.cookie }));
    expect(res.status).toBe(201);
    return ((await res.json()) as { campaign: { id: string } }).campaign.id;
  }
  /** A post tagged with the streamer, its verification code in the text X answers, approved by an admin. */
  async function approvedClip(views: number): Promise<string> {
    const postId = `19${Date.now()}${(seq += 1)}`;
    const url = `https://x.com/${clipper.handle}/status/${postId}`;
    const res = await api(
      '/api/submissions',
      json('POST', { name: `Clip ${seq}`, url, walletAddress: '', streamerId: streamer.id }, { cookie: clipper.cookie }),
    );
    expect(res.status).toBe(201);
    const { id, verificationCode } = (await res.json()) as { id: string; verificationCode: string };
    p.xApi.setPost(postId, { text: `Launch clip ${verificationCode}`, metrics: { impression_count: views, like_count: views / 100 } });
    expect((await asAdmin(`/api/admin/submissions/${id}/approve`)).status).toBe(200);
    return id;
  }

  beforeAll(async () => {
    p = await startPlatform({}, {}, { metricsWorker: true });
    const unlocked = await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }));
    adminToken = ((await unlocked.json()) as { token: string }).token;
    // Tiers are data (ADR 0025): one approved clip reaches gold, whose clips count toward campaigns (ADR 0041).
    await p.rewardsDb.query(
      'UPDATE tiers SET min_total_approved = 1, min_approved_in_window = 1, min_approval_rate = 0, min_avg_views = 0 WHERE level IN (2, 3)',
    );
    const [s, c, other] = await Promise.all([
      signUp(p.url, { prefix: 'v1s', role: 'streamer' }),
      signUp(p.url, { prefix: 'v1c' }),
      signUp(p.url, { prefix: 'v1o', role: 'streamer' }),
    ]);
    streamer = s;
    clipper = c;
    [keys.streamer, keys.clipper, keys.other, keys.boards] = await Promise.all([
      makeKey(streamer, ['campaigns:read', 'submissions:read']),
      makeKey(clipper, ['campaigns:read', 'submissions:read']),
      makeKey(other, ['campaigns:read', 'submissions:read', 'leaderboards:read']),
      makeKey(streamer, ['leaderboards:read']),
    ]);
    running = await campaign('Launch week push');
    expect((await asAdmin(`/api/admin/campaigns/${running}/approve`)).status).toBe(200);
    waiting = await campaign('Next month push');
    for (const views of VIEWS) clips.push(await approvedClip(views));
    // The worker reads each post, submissions verifies it, campaigns counts it once rewards puts the clipper at gold.
    await waitFor(
      async () => {
        const page = await read<V1Clip>(keys.streamer, `/api/v1/campaigns/${running}/clips`);
        return page.items.length === 3 && page.items.every((c) => c.views > 0 && c.viewHistory.length > 0) ? true : undefined;
      },
      12_000,
      'three counted clips, read from X',
    );
  });

  afterAll(async () => {
    await p?.stop();
  });

  it("answers the streamer's campaigns with delivered and verified views, a page at a time, and nobody else's", async () => {
    const { items, pages } = await walk<V1Campaign>(keys.streamer, '/api/v1/campaigns', 1);
    expect(pages).toBe(2);
    const delivered = VIEWS.reduce((a, b) => a + b, 0);
    expect(items).toEqual([
      expect.objectContaining({ id: waiting, status: 'pending', deliveredViews: 0, verifiedViews: 0 }),
      expect.objectContaining({
        id: running,
        status: 'approved',
        deliveredViews: delivered,
        verifiedViews: delivered,
        progressPercent: 24,
      }),
    ]);
    expect(await read(keys.other, '/api/v1/campaigns')).toEqual({ items: [], nextCursor: null });
    expect(await read(keys.clipper, '/api/v1/campaigns')).toEqual({ items: [], nextCursor: null });
  });

  it("pages a campaign's counted clips, each with its post and view history; another's campaign is 404", async () => {
    const { items, pages } = await walk<V1Clip>(keys.streamer, `/api/v1/campaigns/${running}/clips`, 2);
    expect(pages).toBe(2);
    // The latest approval first.
    expect(items.map((c) => [c.submissionId, c.views, c.underReview, c.clipperId])).toEqual(
      [...clips].reverse().map((id, i) => [id, [...VIEWS].reverse()[i], false, clipper.id]),
    );
    expect(items[0]!.postUrl).toMatch(new RegExp(`^https://x\\.com/${clipper.handle}/status/\\d+$`));
    expect(items[0]!.viewHistory.at(-1)).toMatchObject({ views: VIEWS[2], at: expect.any(String) });

    await expectText(await withKey(keys.other, `/api/v1/campaigns/${running}/clips`), 404, 'Campaign not found');
    await expectText(await withKey(keys.clipper, `/api/v1/campaigns/${running}/clips`), 404, 'Campaign not found');
    await expectText(await withKey(keys.streamer, '/api/v1/campaigns/not-an-id/clips'), 400, 'Invalid campaign id');
    await expectText(await withKey(keys.streamer, `/api/v1/campaigns/${running}/clips?cursor=bm9wZQ`), 400, 'Invalid cursor');
    expect(await read(keys.streamer, `/api/v1/campaigns/${waiting}/clips`)).toEqual({ items: [], nextCursor: null });
  });

  it("pages the clipper's own submissions with their checks, and one's view history; not for anyone else", async () => {
    const { items, pages } = await walk<V1Submission>(keys.clipper, '/api/v1/submissions', 2);
    expect(pages).toBe(2);
    expect(items.map((s) => [s.id, s.status, s.views])).toEqual(
      [...clips].reverse().map((id, i) => [id, 'approved', [...VIEWS].reverse()[i]]),
    );
    expect(items[0]!.checks).toEqual(expect.objectContaining({ postVerified: true, viewsReview: null, flag: null, videoState: 'none' }));

    const views = await withKey(keys.clipper, `/api/v1/submissions/${clips[0]}/views`);
    expect(views.status).toBe(200);
    expect(await views.json()).toMatchObject({
      submissionId: clips[0],
      views: VIEWS[0],
      postVerified: true,
      points: [{ views: VIEWS[0] }],
    });

    expect(await read(keys.streamer, '/api/v1/submissions')).toEqual({ items: [], nextCursor: null });
    await expectText(await withKey(keys.streamer, `/api/v1/submissions/${clips[0]}/views`), 404, 'Submission not found');
    await expectText(await withKey(keys.clipper, '/api/v1/submissions/nope/views'), 400, 'Invalid submission id');
    await expectText(await withKey(keys.clipper, '/api/v1/submissions?cursor=bm9wZQ'), 400, 'Invalid cursor');
  });

  it("answers the clipper's earnings and payouts with the transaction's signature, and an ETag that answers 304", async () => {
    await waitFor(
      async () => ((await read<V1Earning>(keys.clipper, '/api/v1/earnings')).items.length === 3 ? true : undefined),
      10_000,
      'three earnings',
    );
    expect((await p.runPayouts(new Date(Date.now() + 8 * 24 * 3_600_000))).paid).toBe(1);
    const payouts = await read<{ id: string; amount: string; txSignature: string; earningsCount: number }>(keys.clipper, '/api/v1/payouts');
    expect(payouts).toEqual({
      items: [
        expect.objectContaining({ txSignature: expect.any(String), amount: expect.stringMatching(/^\d+(\.\d+)?$/), earningsCount: 3 }),
      ],
      nextCursor: null,
    });
    const { items, pages } = await walk<V1Earning>(keys.clipper, '/api/v1/earnings', 2);
    expect(pages).toBe(2);
    // Each clip's earning once, all paid by that payout.
    expect(items.map((e) => [e.submissionId, e.status, e.txSignature]).sort()).toEqual(
      clips.map((id) => [id, 'paid', payouts.items[0]!.txSignature]).sort(),
    );
    expect(await read(keys.other, '/api/v1/earnings')).toEqual({ items: [], nextCursor: null });
    expect(await read(keys.other, '/api/v1/payouts')).toEqual({ items: [], nextCursor: null });

    const first = await withKey(keys.clipper, '/api/v1/earnings?limit=2');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await withKey(keys.clipper, '/api/v1/earnings?limit=2', { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('refuses a key without the route’s scope (403 naming it)', async () => {
    const routes: [string, ApiKeyScope][] = [
      ['/api/v1/campaigns', 'campaigns:read'],
      [`/api/v1/campaigns/${running}/clips`, 'campaigns:read'],
      ['/api/v1/submissions', 'submissions:read'],
      [`/api/v1/submissions/${clips[0]}/views`, 'submissions:read'],
      ['/api/v1/earnings', 'submissions:read'],
      ['/api/v1/payouts', 'submissions:read'],
    ];
    for (const [path, scope] of routes) await expectText(await withKey(keys.boards, path), 403, API_KEY_MESSAGES.scopeMissing(scope));
  });
});
