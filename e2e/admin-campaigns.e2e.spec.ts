// Admins review CPM campaigns over real HTTP (ADR 0020, ADR 0027): gateway → admin (token, audit log)
// → campaigns. A streamer's campaign is listed pending with its streamer and progress; only an admin
// token reviews it; approving starts it (0% delivered), a second approval is refused, a second campaign
// of the same streamer cannot start while the first runs, a rejection keeps its reason, and the audit
// log holds every review with its result.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asOurPage, E2E_ADMIN_PASSWORD, startPlatform, type Platform } from './support/platform.js';
import { expectText, json } from './support/http.js';

const WALLET = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-5)}${(seq += 1)}`;

interface Account {
  id: string;
  handle: string;
  cookie: string;
}

interface AdminCampaign {
  id: string;
  streamerId: string;
  streamerDisplayName: string | null;
  streamerHandle: string | null;
  title: string;
  targetViews: number;
  budgetAmount: number;
  status: string;
  deliveredViews: number;
  progressPercent: number;
  rejectedReason: string | null;
  reviewedBy: string | null;
  approvedAt: string | null;
}

interface AdminCampaignPage {
  campaigns: AdminCampaign[];
  nextCursor: string | null;
  total: number;
}

const brief = (title: string) => ({
  title,
  description: 'Clips of the launch stream, posted on X during launch week.',
  targetViews: 100_000,
  budgetAmount: 500,
});

describe('admins review CPM campaigns (gateway + admin + campaigns + identity, real servers)', () => {
  let p: Platform;
  let token = '';
  let streamer: Account;
  const api = (path: string, init?: RequestInit) => fetch(...asOurPage(p.url, path, init));
  const admin = (method: string, path: string, body?: unknown) => api(path, json(method, body, { authorization: `Bearer ${token}` }));

  async function signUpStreamer(displayName: string): Promise<Account> {
    const handle = unique('st_');
    const res = await api(
      '/api/auth/signup',
      json('POST', {
        email: `${handle}@example.com`,
        twitterHandle: handle,
        walletAddress: WALLET,
        role: 'streamer',
        password: 'a-good-password',
        displayName,
        tokenLink: 'https://pump.fun/coin/abc',
      }),
    );
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { user: { id: string } }).user.id;
    return { id, handle, cookie: `clipit.sid=${/clipit\.sid=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1]}` };
  }

  async function submitCampaign(who: Account, title: string): Promise<string> {
    const res = await api('/api/cpm-campaigns', json('POST', brief(title), { cookie: who.cookie }));
    const text = await res.text();
    expect({ status: res.status, text }).toEqual({ status: 201, text: expect.any(String) });
    return (JSON.parse(text) as { campaign: { id: string } }).campaign.id;
  }

  async function listed(query = ''): Promise<AdminCampaignPage> {
    const res = await admin('GET', `/api/admin/campaigns${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as AdminCampaignPage;
  }

  beforeAll(async () => {
    p = await startPlatform();
    const res = await api('/api/admin/verify-password', json('POST', { password: E2E_ADMIN_PASSWORD }));
    expect(res.status).toBe(200);
    token = ((await res.json()) as { token: string }).token;
    streamer = await signUpStreamer('Sam Streamer');
  });
  afterAll(async () => {
    await p?.stop();
  });

  let first = '';
  let second = '';
  let third = '';

  it('lists a submitted campaign as pending, with its streamer, figures and no progress yet', async () => {
    first = await submitCampaign(streamer, 'Launch week push');
    const page = await listed('?status=pending');
    const found = page.campaigns.find((c) => c.id === first);
    expect(found).toMatchObject({
      streamerId: streamer.id,
      title: 'Launch week push',
      targetViews: 100_000,
      budgetAmount: 500,
      status: 'pending',
      deliveredViews: 0,
      progressPercent: 0,
      rejectedReason: null,
    });
    // The streamer's name arrives with identity's events; when it has, it is the one they signed up with.
    if (found!.streamerHandle !== null) expect(found!.streamerHandle.toLowerCase()).toBe(streamer.handle.toLowerCase());
    expect(page.total).toBeGreaterThanOrEqual(1);
    expect((await listed('?status=approved')).campaigns.some((c) => c.id === first)).toBe(false);
    await expectText(await admin('GET', '/api/admin/campaigns?status=running'), 400, 'Invalid status');
  });

  it('refuses a review without an admin token, or with a bad id or reason', async () => {
    await expectText(await api(`/api/admin/campaigns/${first}/approve`, json('POST', {})), 401, 'Admin authorization required');
    await expectText(await api('/api/admin/campaigns', json('GET')), 401, 'Admin authorization required');
    await expectText(await admin('POST', '/api/admin/campaigns/not-an-id/approve', {}), 400, 'Invalid campaign id');
    await expectText(
      await admin('POST', `/api/admin/campaigns/${first}/reject`, { reason: 'x'.repeat(501) }),
      400,
      'Rejection reason must be at most 500 characters',
    );
    const unknown = await admin('POST', '/api/admin/campaigns/00000000-0000-4000-8000-000000000000/approve', {});
    expect(unknown.status).toBe(404);
  });

  it('approves it: running, nothing delivered yet, reviewed by the admin token', async () => {
    const res = await admin('POST', `/api/admin/campaigns/${first}/approve`, {});
    expect(res.status).toBe(200);
    const approved = (await res.json()) as AdminCampaign;
    expect(approved).toMatchObject({ id: first, status: 'approved', progressPercent: 0, deliveredViews: 0 });
    expect(approved.approvedAt).not.toBeNull();
    expect(approved.reviewedBy).toEqual(expect.any(String));
    expect((await listed('?status=approved')).campaigns.find((c) => c.id === first)).toMatchObject({ status: 'approved' });
  });

  it('cannot approve it twice', async () => {
    const res = await admin('POST', `/api/admin/campaigns/${first}/approve`, {});
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect((await res.text()).length).toBeGreaterThan(0);
  });

  it('cannot approve a second campaign of the same streamer while the first runs', async () => {
    second = await submitCampaign(streamer, 'Second push');
    await expectText(
      await admin('POST', `/api/admin/campaigns/${second}/approve`, {}),
      409,
      'This streamer already has a running campaign',
    );
    expect((await listed('?status=pending')).campaigns.find((c) => c.id === second)).toMatchObject({ status: 'pending' });
  });

  it('rejects another with a reason the list keeps', async () => {
    third = await submitCampaign(streamer, 'Third push');
    const res = await admin('POST', `/api/admin/campaigns/${third}/reject`, {
      reason: 'Please resubmit once the first campaign completes',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: third,
      status: 'rejected',
      rejectedReason: 'Please resubmit once the first campaign completes',
    });
    expect((await listed('?status=rejected')).campaigns.find((c) => c.id === third)).toMatchObject({
      rejectedReason: 'Please resubmit once the first campaign completes',
    });
  });

  it('audits every review with its result', async () => {
    const res = await admin('GET', '/api/admin/audit?limit=50');
    expect(res.status).toBe(200);
    const { entries } = (await res.json()) as {
      entries: { action: string; target: string | null; result: string; detail: string | null; actor: string | null }[];
    };
    const reviews = entries.filter((e) => e.action.endsWith('-campaign'));
    expect(reviews).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'approve-campaign', target: `campaign ${first}`, result: 'ok', actor: expect.any(String) }),
        expect.objectContaining({ action: 'approve-campaign', target: `campaign ${first}`, result: 'refused' }),
        expect.objectContaining({
          action: 'approve-campaign',
          target: `campaign ${second}`,
          result: 'refused',
          detail: 'This streamer already has a running campaign',
        }),
        expect.objectContaining({
          action: 'reject-campaign',
          target: `campaign ${third}`,
          result: 'ok',
          detail: 'reason: Please resubmit once the first campaign completes',
        }),
      ]),
    );
  });
});
